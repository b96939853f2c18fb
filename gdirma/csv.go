package gdirma

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
)

// The gdi.CSVLoader methods (specification section 14). Each is
// collective and needs a quiet database. Every rank checks the request and
// the ranks agree; then rank 0 reads the whole file and, only if every
// line is well formed, loads it into the shared store in one step (a
// malformed file loads nothing). The outcome (error, warning or success)
// is broadcast so that all ranks return the same class.

// csvColumn is a property type column of a request.
type csvColumn struct {
	ptype uint32
	info  gdi.PropertyTypeInfo
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
func (db *Database) columns(ps []gdi.PropertyType) ([]csvColumn, error) {
	var cols []csvColumn
	for _, p := range ps {
		n, info, err := db.PtypeNum(p)
		switch {
		case err != nil:
			return nil, err
		case p.IsReadOnly():
			return nil, gdi.Errorf(gdi.ErrReadOnlyPropertyType, "%v is read-only", p)
		case p == gdi.PropertyTypeID:
			return nil, gdi.Errorf(gdi.ErrPropertyType, "the application-level ID has its own column")
		}
		cols = append(cols, csvColumn{n, info})
	}
	return cols, nil
}

// labelNums checks the labels of a request; LabelNone is dropped (adding it
// does nothing).
func (db *Database) labelNums(ls []gdi.Label) ([]uint32, error) {
	var out []uint32
	for _, l := range ls {
		n, err := db.LabelNum(l, true)
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
type csvLine struct {
	no     int
	fields []string
}

func readCSV(f gdi.CSVFile) ([]csvLine, error) {
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
			return splitCSV(string(data), f), nil
		}
	}
	if errors.Is(err, fs.ErrPermission) {
		return nil, gdi.Errorf(gdi.ErrAccess, "%s: %w", f.Path, err)
	}
	return nil, gdi.Errorf(gdi.ErrNoSuchFile, "%s: %w", f.Path, err)
}

func splitCSV(data string, f gdi.CSVFile) []csvLine {
	var lines []csvLine
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || (i == 0 && f.Header) {
			continue
		}
		lines = append(lines, csvLine{i + 1, gdi.SplitCSVLine(line, f.FieldDelimiter)})
	}
	return lines
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

// parsedLine is a line of a file turned into IDs and values.
type parsedLine struct {
	ids    []string    // the ID columns (empty: none)
	values []gdi.Value // one per property column; zero Value: field empty
}

// parseLines checks the number of fields and parses every field of every
// line; any fault is ErrFileFormat.
func parseLines(f gdi.CSVFile, lines []csvLine, idCols int, cols []csvColumn) ([]parsedLine, error) {
	out := make([]parsedLine, 0, len(lines))
	for _, line := range lines {
		if len(line.fields) != idCols+len(cols) {
			return nil, gdi.Errorf(gdi.ErrFileFormat, "%s:%d: %d fields, want %d", f.Path, line.no, len(line.fields), idCols+len(cols))
		}
		var p parsedLine
		for _, field := range line.fields[:idCols] {
			id, _, err := parseID(f, field)
			if err != nil {
				return nil, gdi.Errorf(gdi.ErrFileFormat, "%s:%d: ID: %w", f.Path, line.no, err)
			}
			p.ids = append(p.ids, id)
		}
		for i, c := range cols {
			v, _, err := gdi.ParseCSVValue(c.info.Datatype, line.fields[idCols+i], f.ElementDelimiter)
			if err != nil {
				return nil, gdi.Errorf(gdi.ErrFileFormat, "%s:%d: column %d: %w", f.Path, line.no, idCols+i+1, err)
			}
			p.values = append(p.values, v)
		}
		out = append(out, p)
	}
	return out, nil
}

// addValues adds the values of a line to r and reports whether all of them
// fit (size limits, single entity).
func addValues(r *record, cols []csvColumn, values []gdi.Value) bool {
	all := true
	for i, c := range cols {
		v := values[i]
		switch {
		case v.IsZero(): // empty field: no property
		case r.hasProperty(c.ptype, v):
		case c.info.CheckCount(v.Len()) != nil,
			c.info.Entity == gdi.SingleEntity && len(r.values(c.ptype)) > 0:
			all = false
		default:
			r.props = append(r.props, property{c.ptype, v})
		}
	}
	return all
}

// collectiveLoad runs the common frame of the loaders: agree on the
// request, let rank 0 load, share the outcome.
func (db *Database) collectiveLoad(call string, local error, load func() error) error {
	if db.IsFreed() {
		return errFreedDB()
	}
	if local == nil {
		local = db.quietCheck(call)
	}
	if err := db.Agree(call, local); err != nil {
		return err
	}
	var result error
	if db.rank == 0 {
		result = load()
	}
	return db.BcastCode(result)
}

// warnNotAll is the warning of a load that skipped data.
func warnNotAll(skipped int) error {
	if skipped == 0 {
		return nil
	}
	return gdi.Errorf(gdi.WarnNotAllDataLoaded, "%d lines or values not loaded", skipped)
}

// lookupVertex returns the smallest vertex found under key.
func (st *store) lookupVertex(key idKey) (uint64, bool, error) {
	m, err := st.committedIDMatches(vertexKind, key)
	if err != nil || len(m) == 0 {
		return 0, false, err
	}
	return sortedKeys(m)[0], true, nil
}

// applyNow installs changes on a quiet database and frees what they free.
func (st *store) applyNow(changes []change) error {
	freed, err := st.apply(changes)
	if err != nil {
		return err
	}
	return st.releaseAll(freed)
}

// LoadVertexCSV creates one vertex per line.
func (db *Database) LoadVertexCSV(req gdi.VertexCSV) error {
	local := checkCSVFile(req.CSVFile, gdi.NoSorting, gdi.AscSorting, gdi.DescSorting)
	cols, err := db.columns(req.PropertyTypes)
	if local == nil {
		local = err
	}
	labels, err := db.labelNums(req.Labels)
	if local == nil {
		local = err
	}
	call := fmt.Sprintf("LoadVertexCSV %s %v %v", describe(req.CSVFile), cols, labels)
	return db.collectiveLoad(call, local, func() error {
		lines, err := readCSV(req.CSVFile)
		if err != nil {
			return err
		}
		parsed, err := parseLines(req.CSVFile, lines, 1, cols)
		if err != nil {
			return err
		}
		st := db.st
		skipped := 0
		for i, p := range parsed {
			home := i % db.comm.Size()
			r := &record{home: home, labels: slices.Clone(labels), edges: map[uint64]edgeRef{}}
			if p.ids[0] != "" {
				r.props = append(r.props, property{uint32(gdi.PropertyTypeID), gdi.Bytes([]byte(p.ids[0]))})
			}
			taken := false
			for _, k := range r.idKeys() {
				if k.label == uint32(gdi.LabelNone) {
					continue
				}
				m, err := st.committedIDMatches(vertexKind, k)
				if err != nil {
					return err
				}
				taken = taken || len(m) > 0
			}
			if taken {
				skipped++ // the ID is taken for one of the labels
				continue
			}
			if !addValues(r, cols, p.values) {
				skipped++
			}
			n, err := st.newNumber(home)
			if err != nil {
				return err
			}
			if err := st.applyNow([]change{{k: vertexKind, n: n, new: r}}); err != nil {
				_ = st.release(n)
				return err
			}
		}
		return warnNotAll(skipped)
	})
}

// LoadVertexPropertiesCSV adds one property per line to existing vertices.
func (db *Database) LoadVertexPropertiesCSV(req gdi.VertexPropertiesCSV) error {
	local := checkCSVFile(req.CSVFile, gdi.NoSorting, gdi.AscSorting, gdi.DescSorting, gdi.Grouped)
	cols, err := db.columns([]gdi.PropertyType{req.PropertyType})
	if local == nil {
		local = err
	}
	label, err := db.LabelNum(req.Label, true)
	if local == nil {
		local = err
	}
	call := fmt.Sprintf("LoadVertexPropertiesCSV %s %v %d", describe(req.CSVFile), cols, label)
	return db.collectiveLoad(call, local, func() error {
		lines, err := readCSV(req.CSVFile)
		if err != nil {
			return err
		}
		parsed, err := parseLines(req.CSVFile, lines, 1, cols)
		if err != nil {
			return err
		}
		st := db.st
		skipped := 0
		for _, p := range parsed {
			n, ok, err := st.lookupVertex(idKey{label, p.ids[0]})
			if err != nil {
				return err
			}
			if !ok {
				skipped++
				continue
			}
			old, err := st.load(vertexKind, n)
			if err != nil || old == nil {
				return internalOr(err, "vertex vanished during a load")
			}
			r := old.clone()
			if !addValues(r, cols, p.values) {
				skipped++
			}
			if err := st.applyNow([]change{{k: vertexKind, n: n, old: old, new: r}}); err != nil {
				return err
			}
		}
		return warnNotAll(skipped)
	})
}

// LoadEdgeCSV creates one edge per line between existing vertices.
func (db *Database) LoadEdgeCSV(req gdi.EdgeCSV) error {
	local := checkCSVFile(req.CSVFile, gdi.NoSorting, gdi.OriginTarget, gdi.TargetOrigin)
	if local == nil && !req.Direction.Valid() {
		local = gdi.Errorf(gdi.ErrState, "direction %v", req.Direction)
	}
	cols, err := db.columns(req.PropertyTypes)
	if local == nil {
		local = err
	}
	labels, err := db.labelNums(req.Labels)
	if local == nil {
		local = err
	}
	ends, err := db.labelNums(nil)
	for _, l := range []gdi.Label{req.OriginLabel, req.TargetLabel} {
		n, e := db.LabelNum(l, true)
		if err == nil {
			err = e
		}
		ends = append(ends, n)
	}
	if local == nil {
		local = err
	}
	call := fmt.Sprintf("LoadEdgeCSV %s %v %v %v %v", describe(req.CSVFile), req.Direction, cols, labels, ends)
	return db.collectiveLoad(call, local, func() error {
		lines, err := readCSV(req.CSVFile)
		if err != nil {
			return err
		}
		parsed, err := parseLines(req.CSVFile, lines, 2, cols)
		if err != nil {
			return err
		}
		st := db.st
		skipped := 0
		for _, p := range parsed {
			origin, ok1, err1 := st.lookupVertex(idKey{ends[0], p.ids[0]})
			target, ok2, err2 := st.lookupVertex(idKey{ends[1], p.ids[1]})
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			if !ok1 || !ok2 {
				skipped++
				continue
			}
			home := bgdl.DPtr(origin).Rank()
			r := &record{home: home, labels: slices.Clone(labels), dir: req.Direction, origin: origin, target: target}
			if !addValues(r, cols, p.values) {
				skipped++
			}
			// Lightweight if it can be: a free slot of the origin.
			var e uint64
			if len(r.props) == 0 && len(r.labels) <= 1 && st.lightOK() {
				ov, err := st.load(vertexKind, origin)
				if err != nil || ov == nil {
					return internalOr(err, "vertex vanished during a load")
				}
				for i := range maxSlot {
					n := st.lightNumber(origin, (len(ov.edges)+i)%maxSlot+1)
					if _, used := ov.edges[n]; !used {
						e = n
						break
					}
				}
			}
			var changes []change
			if e == 0 {
				var err error
				if e, err = st.newNumber(home); err != nil {
					return err
				}
				changes = append(changes, change{k: edgeKind, n: e, new: r})
			}
			release := func() {
				if !isLight(e) {
					_ = st.release(e)
				}
			}
			for _, v := range r.ends() {
				old, err := st.load(vertexKind, v)
				if err != nil || old == nil {
					release()
					return internalOr(err, "vertex vanished during a load")
				}
				nr := old.clone()
				nr.edges[e] = refOf(e, r, 0)
				changes = append(changes, change{k: vertexKind, n: v, old: old, new: nr})
			}
			if err := st.applyNow(changes); err != nil {
				release()
				return err
			}
		}
		return warnNotAll(skipped)
	})
}

// internalOr returns err, or an internal error with msg if err is nil.
func internalOr(err error, msg string) error {
	if err != nil {
		return err
	}
	return gdi.Errorf(gdi.ErrIntern, "gdirma: %s", msg)
}
