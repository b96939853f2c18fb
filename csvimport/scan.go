package csvimport

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gdi-go/gdi/gdi"
)

// propName is a property type as the headers name it.
type propName struct {
	name string
	typ  valueType
	path string // the first file that names it, for messages
}

// scan finds the CSV files of dir and below, in lexical order, and reads
// their headers and the property types they name.
func (im *importer) scan(dir string) error {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".csv") {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		return fileErr(dir, err)
	}
	if len(paths) == 0 {
		return gdi.Errorf(gdi.ErrNoSuchFile, "csvimport: no .csv file in %s", dir)
	}
	for _, p := range paths {
		line, body, size, err := readHeader(p)
		if err != nil {
			return err
		}
		delim := im.opt.Delimiter
		if delim == 0 {
			delim = ','
			if strings.Contains(line, "|") && !strings.Contains(line, ",") {
				delim = '|'
			}
		}
		f, err := parseHeader(p, line, delim, im.opt.ArrayDelimiter)
		if err != nil {
			return err
		}
		f.body, f.size = body, size
		if f.edge {
			im.efiles = append(im.efiles, f)
		} else {
			im.vfiles = append(im.vfiles, f)
		}
	}
	return im.propertyNames()
}

// propertyNames makes the property types of all property columns, one per
// name, sorted by name; a name given two types is an error.
func (im *importer) propertyNames() error {
	var names []propName
	for _, f := range im.files() {
		for _, c := range f.cols {
			if c.role != property {
				continue
			}
			i := slices.IndexFunc(names, func(p propName) bool { return p.name == c.name })
			switch {
			case i < 0:
				names = append(names, propName{c.name, c.typ, f.path})
			case names[i].typ != c.typ:
				return gdi.Errorf(gdi.ErrFileFormat, "%s: header: property %q has another type than in %s", f.path, c.name, names[i].path)
			}
		}
	}
	slices.SortFunc(names, func(a, b propName) int { return strings.Compare(a.name, b.name) })
	im.props = names
	for _, f := range im.files() {
		for j := range f.cols {
			if c := &f.cols[j]; c.role == property {
				c.prop = int32(slices.IndexFunc(names, func(p propName) bool { return p.name == c.name }))
			}
		}
	}
	return nil
}

// files returns the vertex files, then the edge files.
func (im *importer) files() []*file { return slices.Concat(im.vfiles, im.efiles) }

// Size is how big the graph of a directory is, from a count of lines,
// for sizing a database before Import: an upper bound on the vertices and
// edges (a line is a record), and whether edges have properties or a
// :TYPE column (so may need holders of their own).
type Size struct {
	Vertices, Edges uint64
	RichEdges       bool
}

// Measure counts the records of the CSV files of dir (not collective).
func Measure(dir string, opt Options) (Size, error) {
	im := &importer{opt: opt.withDefaults()}
	if err := im.scan(dir); err != nil {
		return Size{}, err
	}
	var s Size
	for _, f := range im.files() {
		n := 0
		if err := readShare(f.path, f.body, share{f.body, f.size}, func(int, string) error { n++; return nil }); err != nil {
			return Size{}, err
		}
		if f.edge {
			s.Edges += uint64(n)
			s.RichEdges = s.RichEdges || slices.ContainsFunc(f.cols, func(c column) bool { return c.role == property || c.role == typeColumn })
		} else {
			s.Vertices += uint64(n)
		}
	}
	return s, nil
}
