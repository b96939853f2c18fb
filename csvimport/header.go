package csvimport

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gdi-go/gdi/gdi"
)

// A column's role in its file, from its header field.
type role uint8

const (
	property    role = iota // name:type, or name (a string)
	idColumn                // :ID(group) or name:ID(group): the vertex's ID
	startID                 // :START_ID(group)
	endID                   // :END_ID(group)
	labelColumn             // :LABEL: labels, separated by the array delimiter
	typeColumn              // :TYPE: the edge's label
	ignored                 // :IGNORE
)

// column is a field of a file's header.
type column struct {
	role  role
	name  string // of a property
	group string // the ID space of an ID column: a label
	typ   valueType
	prop  int32 // of a property: its index in importer.props
}

// file is a CSV file of the directory: its header, and whether it holds
// vertices or edges.
type file struct {
	path       string
	body, size int64 // where the lines after the header start; the size
	edge       bool
	cols       []column
	delim      byte
	// label is what an edge file without a :TYPE column gives its edges:
	// the middle of its name (Start_label_End.csv, or edge_label_…).
	label string
	// id, start and end are the indices of the ID columns.
	id, start, end int
}

// parseHeader reads the header line of path, whose fields are separated
// by delim, into a file.
func parseHeader(path, line string, delim, arrayDelim byte) (*file, error) {
	f := &file{path: path, delim: delim, id: -1, start: -1, end: -1}
	fields, err := splitLine(line, delim)
	if err != nil {
		return nil, headerErr(path, "%v", err)
	}
	for i, h := range fields {
		c, err := parseColumn(h)
		if err != nil {
			return nil, headerErr(path, "column %d (%q): %v", i+1, h, err)
		}
		at := map[role]*int{idColumn: &f.id, startID: &f.start, endID: &f.end}[c.role]
		if at != nil {
			if *at >= 0 {
				return nil, headerErr(path, "two %s columns", strings.TrimPrefix(h[strings.IndexByte(h, ':'):], ":"))
			}
			*at = i
		}
		f.cols = append(f.cols, c)
	}
	switch {
	case f.id >= 0 && f.start < 0 && f.end < 0:
	case f.id < 0 && f.start >= 0 && f.end >= 0:
		f.edge = true
		l, err := gdi.NormalizeName(edgeLabelOf(path, f.cols[f.start].group, f.cols[f.end].group))
		if err != nil {
			return nil, headerErr(path, "the label its name gives its edges: %v", err)
		}
		f.label = l
	default:
		return nil, headerErr(path, "a vertex file has one :ID column, an edge file one :START_ID and one :END_ID column")
	}
	for _, c := range f.cols {
		if c.role == labelColumn && f.edge || c.role == typeColumn && !f.edge {
			return nil, headerErr(path, "a :LABEL column is for vertices, a :TYPE column for edges")
		}
	}
	return f, nil
}

// parseColumn parses one field of a header: name:type, name, or a field
// of a special role (:ID(group), :START_ID(group), :END_ID(group), :LABEL,
// :TYPE, :IGNORE), which may have a name before the colon.
func parseColumn(h string) (column, error) {
	name, kind, _ := strings.Cut(h, ":")
	group := ""
	if i := strings.IndexByte(kind, '('); i >= 0 && strings.HasSuffix(kind, ")") {
		kind, group = kind[:i], kind[i+1:len(kind)-1]
	}
	switch strings.ToUpper(kind) {
	case "ID", "START_ID", "END_ID":
		if group == "" {
			return column{}, fmt.Errorf("an ID column names its ID space, as in :ID(Person)")
		}
		g, err := gdi.NormalizeName(group)
		if err != nil {
			return column{}, fmt.Errorf("ID space %q: %v", group, err)
		}
		return column{role: map[string]role{"ID": idColumn, "START_ID": startID, "END_ID": endID}[strings.ToUpper(kind)], group: g}, nil
	case "LABEL":
		return column{role: labelColumn}, nil
	case "TYPE":
		return column{role: typeColumn}, nil
	case "IGNORE":
		return column{role: ignored}, nil
	}
	if group != "" {
		return column{}, fmt.Errorf("only ID columns have an ID space")
	}
	name, err := gdi.NormalizeName(name)
	if err != nil {
		return column{}, fmt.Errorf("a property column needs a name: %v", err)
	}
	t, err := parseType(kind)
	if err != nil {
		return column{}, err
	}
	return column{role: property, name: name, typ: t}, nil
}

// edgeLabelOf is the label of the edges of a file without a :TYPE column,
// from its name: edge_label_Start_End.csv, as gdi gen writes, or
// Start_label_End.csv, as LDBC's generator does. Any other name is the
// label whole.
func edgeLabelOf(path, start, end string) string {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if rest, ok := strings.CutPrefix(name, "edge_"); ok {
		if l, ok := strings.CutSuffix(rest, "_"+start+"_"+end); ok && l != "" {
			return l
		}
		return rest
	}
	if parts := strings.Split(name, "_"); len(parts) >= 3 {
		return strings.Join(parts[1:len(parts)-1], "_")
	}
	return name
}

func headerErr(path, format string, args ...any) error {
	return gdi.Errorf(gdi.ErrFileFormat, "%s: header: %s", path, fmt.Sprintf(format, args...))
}
