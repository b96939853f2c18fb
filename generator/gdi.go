package generator

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/gdi-go/gdi/gdi"
)

// Metadata are the handles of the labels and property types of a Scheme in
// a database, indexed like the Scheme's VertexLabels, EdgeLabels and
// Properties.
type Metadata struct {
	VertexLabels  []gdi.Label
	EdgeLabels    []gdi.Label
	PropertyTypes []gdi.PropertyType
}

// PropertyTypeInfo returns the GDI description of property type p: single
// entity; String as Char with at most Max elements, Uint32, Uint64 and Date
// as one element.
func (s *Scheme) PropertyTypeInfo(p int) gdi.PropertyTypeInfo {
	spec := s.Properties[p]
	info := gdi.PropertyTypeInfo{Name: spec.Name, Entity: gdi.SingleEntity, Size: gdi.FixedSize, Count: 1}
	switch spec.Kind {
	case String:
		info.Datatype, info.Size, info.Count = gdi.Char, gdi.MaxSize, int(spec.Max)
	case Uint32:
		info.Datatype = gdi.Uint32
	case Uint64:
		info.Datatype = gdi.Uint64
	case Date:
		info.Datatype = gdi.DateType
	}
	return info
}

// CreateMetadata creates the labels (vertex labels, then edge labels) and
// property types of the scheme in db, in scheme order, and returns their
// handles. It is collective, as creating metadata is in GDI: every rank
// calls it with the same scheme.
func (s *Scheme) CreateMetadata(db gdi.Database) (*Metadata, error) {
	m := &Metadata{}
	for _, l := range s.VertexLabels {
		h, err := db.CreateLabel(l.Name)
		if err != nil {
			return nil, fmt.Errorf("generator: label %q: %w", l.Name, err)
		}
		m.VertexLabels = append(m.VertexLabels, h)
	}
	for _, name := range s.EdgeLabels {
		h, err := db.CreateLabel(name)
		if err != nil {
			return nil, fmt.Errorf("generator: label %q: %w", name, err)
		}
		m.EdgeLabels = append(m.EdgeLabels, h)
	}
	for p := range s.Properties {
		h, err := db.CreatePropertyType(s.PropertyTypeInfo(p))
		if err != nil {
			return nil, fmt.Errorf("generator: property type %q: %w", s.Properties[p].Name, err)
		}
		m.PropertyTypes = append(m.PropertyTypes, h)
	}
	return m, nil
}

// FindMetadata returns the handles of the labels and property types of
// the scheme in db, which has them already (a database restored from a
// checkpoint of a generated graph): ErrArgument naming the first that is
// missing, or a property type of another description.
func (s *Scheme) FindMetadata(db gdi.Database) (*Metadata, error) {
	m := &Metadata{}
	label := func(name string) (gdi.Label, error) {
		l, err := db.LabelFromName(name)
		if err == nil && l == gdi.LabelNull {
			err = gdi.Errorf(gdi.ErrArgument, "generator: the database has no label %q: not a graph of this scheme", name)
		}
		return l, err
	}
	for _, l := range s.VertexLabels {
		h, err := label(l.Name)
		if err != nil {
			return nil, err
		}
		m.VertexLabels = append(m.VertexLabels, h)
	}
	for _, name := range s.EdgeLabels {
		h, err := label(name)
		if err != nil {
			return nil, err
		}
		m.EdgeLabels = append(m.EdgeLabels, h)
	}
	for p := range s.Properties {
		want := s.PropertyTypeInfo(p)
		h, err := db.PropertyTypeFromName(want.Name)
		if err == nil && h == gdi.PropertyTypeNull {
			err = gdi.Errorf(gdi.ErrArgument, "generator: the database has no property type %q: not a graph of this scheme", want.Name)
		}
		var have gdi.PropertyTypeInfo
		if err == nil {
			have, err = db.PropertyTypeInfo(h)
		}
		if err == nil && (have.Datatype != want.Datatype || have.Entity != want.Entity) {
			err = gdi.Errorf(gdi.ErrArgument, "generator: property type %q is %v, %v in the database, %v, %v in the scheme", want.Name, have.Datatype, have.Entity, want.Datatype, want.Entity)
		}
		if err != nil {
			return nil, err
		}
		m.PropertyTypes = append(m.PropertyTypes, h)
	}
	return m, nil
}

// AppID returns the application-level ID of vertex x: its number in
// decimal, as in the CSV files.
func AppID(x uint64) []byte { return AppendAppID(nil, x) }

// AppendAppID appends AppID(x) to b.
func AppendAppID(b []byte, x uint64) []byte { return strconv.AppendUint(b, x, 10) }

// LoadCSV loads the files WriteCSV wrote into dir into db through its bulk
// loader (gdi.CSVLoader), using the handles m of CreateMetadata: the vertex
// files, then the edge files. It is collective. A warning of the loader
// (gdi.WarnNotAllDataLoaded) does not stop it and is returned at the end.
// Empty fields are missing properties to the loader, so a vertex whose
// string value is empty comes back without that property.
func (g *Graph) LoadCSV(db gdi.Database, dir string, m *Metadata) error {
	loader, ok := db.(gdi.CSVLoader)
	if !ok {
		return gdi.Errorf(gdi.ErrDatabase, "generator: the database cannot load CSV files (no gdi.CSVLoader)")
	}
	dir = filepath.Clean(dir)
	var warn error
	dirn := gdi.Undirected
	if g.cfg.Directed {
		dirn = gdi.Directed
	}
	for _, f := range g.CSVFiles() {
		file := gdi.CSVFile{Path: filepath.Join(dir, f.Name), Header: true, FieldDelimiter: ',', ElementDelimiter: ';',
			Sort: gdi.NoSorting, TextIDs: true}
		var err error
		if f.Edge {
			err = loader.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: file, Direction: dirn, Labels: []gdi.Label{m.EdgeLabels[f.Label]},
				OriginLabel: m.VertexLabels[f.Origin], TargetLabel: m.VertexLabels[f.Target]})
		} else {
			var cols []gdi.PropertyType
			for _, p := range f.Columns {
				cols = append(cols, m.PropertyTypes[p])
			}
			err = loader.LoadVertexCSV(gdi.VertexCSV{CSVFile: file, PropertyTypes: cols, Labels: []gdi.Label{m.VertexLabels[f.Label]}})
		}
		if gdi.Failed(err) {
			return fmt.Errorf("generator: loading %s: %w", f.Name, err)
		}
		warn = errors.Join(warn, err)
	}
	return warn
}
