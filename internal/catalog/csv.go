package catalog

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

// The checking and parsing of gdi.CSVLoader requests (specification
// section 14), which both backends do before they insert the data in
// their own way: every rank checks the request against its replica
// (CheckVertexCSV, CheckVertexPropertiesCSV, CheckEdgeCSV) and the ranks
// agree on the call; then the loading rank reads and parses the whole
// file (ReadCSV), so that a malformed file loads nothing.

// CSVColumn is a property type column of a request.
type CSVColumn struct {
	Ptype uint32
	Info  gdi.PropertyTypeInfo
}

// checkCSVFile checks the layout description of a request.
func checkCSVFile(f gdi.CSVFile, sorts ...gdi.SortType) error {
	if f.Assert != 0 {
		return gdi.Errorf(gdi.ErrAssert, "no assertions are defined, got %#x", uint32(f.Assert))
	}
	if !slices.Contains(sorts, f.Sort) {
		return gdi.Errorf(gdi.ErrState, "sort type %v is not allowed here", f.Sort)
	}
	return f.ValidDelimiters()
}

// describe summarises a file description for agree. The file system is
// left out: ranks may open the same files through FS values of their own.
func describe(f gdi.CSVFile) string {
	return fmt.Sprintf("%q %v %q %q %v %d %v", f.Path, f.Header, f.FieldDelimiter, f.ElementDelimiter, f.Sort, f.Assert, f.TextIDs)
}

// columns checks the property types of a request.
func (cat *Catalog) columns(ps []gdi.PropertyType) ([]CSVColumn, error) {
	var cols []CSVColumn
	for _, p := range ps {
		n, info, err := cat.PtypeNum(p)
		switch {
		case err != nil:
			return nil, err
		case p.IsReadOnly():
			return nil, gdi.Errorf(gdi.ErrReadOnlyPropertyType, "%v is read-only", p)
		case p == gdi.PropertyTypeID:
			return nil, gdi.Errorf(gdi.ErrPropertyType, "the application-level ID has its own column")
		}
		cols = append(cols, CSVColumn{n, info})
	}
	return cols, nil
}

// labelNums checks the labels of a request; LabelNone is dropped (adding it
// does nothing).
func (cat *Catalog) labelNums(ls []gdi.Label) ([]uint32, error) {
	var out []uint32
	for _, l := range ls {
		n, err := cat.LabelNum(l, true)
		if err != nil {
			return nil, err
		}
		if l != gdi.LabelNone && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// readCSV reads the lines of a file and splits them into fields. The
// header line and empty lines are skipped. Each line keeps its number for
// messages.
type rawLine struct {
	no     int
	fields []string
}

func readCSV(f gdi.CSVFile) ([]rawLine, error) {
	data, err := readFile(f)
	if err != nil {
		return nil, err
	}
	return splitCSV(data, 1, f), nil
}

// readFile reads the whole file f names.
func readFile(f gdi.CSVFile) (string, error) {
	var file io.ReadCloser
	var err error
	if f.FS != nil {
		file, err = f.FS.Open(f.Path)
	} else {
		file, err = os.Open(f.Path)
	}
	if err == nil {
		defer file.Close()
		var data []byte
		if data, err = io.ReadAll(file); err == nil {
			return string(data), nil
		}
	}
	if errors.Is(err, fs.ErrPermission) {
		return "", gdi.Errorf(gdi.ErrAccess, "%s: %w", f.Path, err)
	}
	return "", gdi.Errorf(gdi.ErrNoSuchFile, "%s: %w", f.Path, err)
}

// splitCSV splits data, whose first line is line first of the file, into
// lines of fields, skipping empty lines and the file's header.
func splitCSV(data string, first int, f gdi.CSVFile) []rawLine {
	var lines []rawLine
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || (first+i == 1 && f.Header) {
			continue
		}
		lines = append(lines, rawLine{first + i, gdi.SplitCSVLine(line, f.FieldDelimiter)})
	}
	return lines
}

// ReadCSVShare is ReadCSV of rank's share of size ranks of the file: the
// lines that start in its even part of the file's bytes. Every rank reads
// the file (an fs.FS need not seek), but parses its share only. The
// lines keep their numbers in the file (CSVLine.Line).
func ReadCSVShare(f gdi.CSVFile, idCols int, cols []CSVColumn, rank, size int) ([]CSVLine, error) {
	data, err := readFile(f)
	if err != nil {
		return nil, err
	}
	from, to := lineStart(data, len(data)*rank/size), lineStart(data, len(data)*(rank+1)/size)
	share := strings.TrimSuffix(data[from:to], "\n")
	if share == "" {
		return nil, nil
	}
	return parseLines(f, splitCSV(share, 1+strings.Count(data[:from], "\n"), f), idCols, cols)
}

// lineStart returns the first start of a line at or after at.
func lineStart(data string, at int) int {
	if at == 0 || at >= len(data) || data[at-1] == '\n' {
		return min(at, len(data))
	}
	if i := strings.IndexByte(data[at:], '\n'); i >= 0 {
		return at + i + 1
	}
	return len(data)
}

// parseID parses an application-level ID field: Base64, or its text with
// CSVFile.TextIDs.
func parseID(f gdi.CSVFile, field string) (string, bool, error) {
	if f.TextIDs {
		s, err := gdi.UnescapeCSV(field)
		return s, s != "", err
	}
	v, ok, err := gdi.ParseCSVValue(gdi.Byte, field, f.ElementDelimiter)
	return string(v.Raw()), ok, err
}

// CSVLine is a line of a file turned into IDs and values.
type CSVLine struct {
	Line   int         // its number in the file, from 1
	IDs    []string    // the ID columns (empty: none)
	Values []gdi.Value // one per property column; zero Value: field empty
}

// parseLines checks the number of fields and parses every field of every
// line; any fault is ErrFileFormat.
func parseLines(f gdi.CSVFile, lines []rawLine, idCols int, cols []CSVColumn) ([]CSVLine, error) {
	out := make([]CSVLine, 0, len(lines))
	for _, line := range lines {
		if len(line.fields) != idCols+len(cols) {
			return nil, gdi.Errorf(gdi.ErrFileFormat, "%s:%d: %d fields, want %d", f.Path, line.no, len(line.fields), idCols+len(cols))
		}
		p := CSVLine{Line: line.no}
		for _, field := range line.fields[:idCols] {
			id, _, err := parseID(f, field)
			if err != nil {
				return nil, gdi.Errorf(gdi.ErrFileFormat, "%s:%d: ID: %w", f.Path, line.no, err)
			}
			p.IDs = append(p.IDs, id)
		}
		for i, c := range cols {
			v, _, err := gdi.ParseCSVValue(c.Info.Datatype, line.fields[idCols+i], f.ElementDelimiter)
			if err != nil {
				return nil, gdi.Errorf(gdi.ErrFileFormat, "%s:%d: column %d: %w", f.Path, line.no, idCols+i+1, err)
			}
			p.Values = append(p.Values, v)
		}
		out = append(out, p)
	}
	return out, nil
}

// WarnNotAll is the warning of a load that skipped data.
func WarnNotAll(skipped int) error {
	if skipped == 0 {
		return nil
	}
	return gdi.Errorf(gdi.WarnNotAllDataLoaded, "%d lines or values not loaded", skipped)
}

// CSVRequest is a load request checked against the replica, in object
// numbers.
type CSVRequest struct {
	Call    string      // the description of the call the ranks agree on
	Columns []CSVColumn // the property type columns
	Labels  []uint32    // the labels of new objects (LabelNone dropped)
	Label   uint32      // VertexPropertiesCSV: the label of the IDs
	Ends    []uint32    // EdgeCSV: the labels of the origin and target IDs
}

// CheckVertexCSV checks a VertexCSV request; the error is the first fault.
func (cat *Catalog) CheckVertexCSV(req gdi.VertexCSV) (CSVRequest, error) {
	var r CSVRequest
	local := checkCSVFile(req.CSVFile, gdi.NoSorting, gdi.AscSorting, gdi.DescSorting)
	cols, err := cat.columns(req.PropertyTypes)
	if local == nil {
		local = err
	}
	labels, err := cat.labelNums(req.Labels)
	if local == nil {
		local = err
	}
	r.Columns, r.Labels = cols, labels
	r.Call = fmt.Sprintf("LoadVertexCSV %s %v %v", describe(req.CSVFile), cols, labels)
	return r, local
}

// CheckVertexPropertiesCSV checks a VertexPropertiesCSV request.
func (cat *Catalog) CheckVertexPropertiesCSV(req gdi.VertexPropertiesCSV) (CSVRequest, error) {
	var r CSVRequest
	local := checkCSVFile(req.CSVFile, gdi.NoSorting, gdi.AscSorting, gdi.DescSorting, gdi.Grouped)
	cols, err := cat.columns([]gdi.PropertyType{req.PropertyType})
	if local == nil {
		local = err
	}
	label, err := cat.LabelNum(req.Label, true)
	if local == nil {
		local = err
	}
	r.Columns, r.Label = cols, label
	r.Call = fmt.Sprintf("LoadVertexPropertiesCSV %s %v %d", describe(req.CSVFile), cols, label)
	return r, local
}

// CheckEdgeCSV checks an EdgeCSV request.
func (cat *Catalog) CheckEdgeCSV(req gdi.EdgeCSV) (CSVRequest, error) {
	var r CSVRequest
	local := checkCSVFile(req.CSVFile, gdi.NoSorting, gdi.OriginTarget, gdi.TargetOrigin)
	if local == nil && !req.Direction.Valid() {
		local = gdi.Errorf(gdi.ErrState, "direction %v", req.Direction)
	}
	cols, err := cat.columns(req.PropertyTypes)
	if local == nil {
		local = err
	}
	labels, err := cat.labelNums(req.Labels)
	if local == nil {
		local = err
	}
	ends, err := cat.labelNums(nil)
	for _, l := range []gdi.Label{req.OriginLabel, req.TargetLabel} {
		n, e := cat.LabelNum(l, true)
		if err == nil {
			err = e
		}
		ends = append(ends, n)
	}
	if local == nil {
		local = err
	}
	r.Columns, r.Labels, r.Ends = cols, labels, ends
	r.Call = fmt.Sprintf("LoadEdgeCSV %s %v %v %v %v", describe(req.CSVFile), req.Direction, cols, labels, ends)
	return r, local
}

// ReadCSV reads a file and parses every line into idCols IDs and the
// values of cols; a line with a fault is ErrFileFormat.
func ReadCSV(f gdi.CSVFile, idCols int, cols []CSVColumn) ([]CSVLine, error) {
	lines, err := readCSV(f)
	if err != nil {
		return nil, err
	}
	return parseLines(f, lines, idCols, cols)
}
