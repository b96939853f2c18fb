package refdb

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/gdi-go/gdi/gdi"
)

// The gdi.CSVLoader calls. Every rank checks the request; once all agree,
// rank 0 alone reads the file, parses every line (a malformed one fails
// the call before anything is stored), and stores the lines under the
// store's lock. Data that cannot be stored is skipped and makes the call
// warn with WarnNotAllDataLoaded. Loaded objects get the homes 0, 1, 2,
// ... round robin by line.

// errSkipped is the warning of a load that skipped data.
func errSkipped(call string, n int) error {
	return gdi.Errorf(gdi.WarnNotAllDataLoaded, "%s skipped %d item(s) that could not be stored", call, n)
}

// load runs a bulk load: check (with mu held) gives the rank's verdict on
// the request (args describes its handles by object number), and rank 0
// reads the lines of the file, splits each into columns fields, and hands
// them to store.
func (db *Database) load(call, args string, f gdi.CSVFile, columns int, check func() error, store func(s *store, rows [][]string) error) error {
	desc := fmt.Sprintf("%s(%q, header %v, delimiters %q %q, sort %d, assert %d, text IDs %v, %s)",
		call, f.Path, f.Header, f.FieldDelimiter, f.ElementDelimiter, f.Sort, f.Assert, f.TextIDs, args)
	err := db.collective(desc, func() error {
		if err := checkCSVFile(f); err != nil {
			return err
		}
		if err := check(); err != nil {
			return err
		}
		return db.quiet(call)
	}, func() {})
	if err != nil {
		return err
	}
	var outcome error
	if db.comm.Rank() == 0 {
		outcome = db.loadOnRoot(f, columns, store)
	}
	return fromRoot(db.comm, call, outcome)
}

func (db *Database) loadOnRoot(f gdi.CSVFile, columns int, store func(s *store, rows [][]string) error) error {
	rows, err := readCSV(f, columns)
	if err != nil {
		return err
	}
	db.store.mu.Lock()
	defer db.store.mu.Unlock()
	return store(db.store, rows)
}

// checkCSVFile checks what all requests share: assertions and delimiters.
func checkCSVFile(f gdi.CSVFile) error {
	if f.Assert != 0 {
		return gdi.Errorf(gdi.ErrAssert, "no assertion is defined, so %#x is invalid", uint32(f.Assert))
	}
	return f.ValidDelimiters()
}

// checkSort returns ErrState unless s is one of ok.
func checkSort(s gdi.SortType, ok ...gdi.SortType) error {
	if !slices.Contains(ok, s) {
		return gdi.Errorf(gdi.ErrState, "sort type %v is not valid here", s)
	}
	return nil
}

// readCSV reads the file and splits its lines into fields; every line
// must have columns fields. Lines end in "\n" or "\r\n"; the header line
// and empty lines are skipped.
func readCSV(f gdi.CSVFile, columns int) ([][]string, error) {
	data, err := readFile(f)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || (i == 0 && f.Header) {
			continue
		}
		fields := gdi.SplitCSVLine(line, f.FieldDelimiter)
		if len(fields) != columns {
			return nil, gdi.Errorf(gdi.ErrFileFormat, "%s: line %d has %d fields, not %d", f.Path, i+1, len(fields), columns)
		}
		rows = append(rows, fields)
	}
	return rows, nil
}

// readFile returns the content of the file of f.
func readFile(f gdi.CSVFile) (string, error) {
	var file io.ReadCloser
	var err error
	if f.FS != nil {
		file, err = f.FS.Open(f.Path)
	} else {
		file, err = os.Open(f.Path)
	}
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return "", gdi.Errorf(gdi.ErrAccess, "%s: %w", f.Path, err)
		}
		return "", gdi.Errorf(gdi.ErrNoSuchFile, "%s: %w", f.Path, err)
	}
	defer file.Close()
	data, err := io.ReadAll(file)
	if err != nil {
		return "", gdi.Errorf(gdi.ErrIO, "%s: %w", f.Path, err)
	}
	return string(data), nil
}

// parseID returns the application-level ID of a field: Base64, or with
// TextIDs the unescaped text. An empty field is no ID.
func parseID(field string, text bool) (string, bool, error) {
	if text {
		s, err := gdi.UnescapeCSV(field)
		return s, s != "", err
	}
	v, present, err := gdi.ParseCSVValue(gdi.Byte, field, 0)
	return v.RawString(), present && v.Len() > 0, err
}
