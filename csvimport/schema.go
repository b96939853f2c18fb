package csvimport

import (
	"slices"
	"strings"

	"github.com/gdi-go/gdi/gdi"
)

// schema makes the labels that the rows of all ranks name and the property
// types of the headers (collective), or takes those the database has
// already, if they are the same.
func (im *importer) schema() error {
	mine := map[string]bool{}
	for _, r := range im.rows {
		for _, l := range r.labels {
			mine[l] = true
		}
	}
	for _, l := range im.edgeLabels {
		mine[l] = true
	}
	var names []string
	for l := range mine {
		names = append(names, l)
	}
	all, err := im.c.Allgatherv([]byte(strings.Join(names, "\n")))
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "csvimport: %v", err)
	}
	names = names[:0]
	for _, b := range all {
		if len(b) > 0 {
			names = append(names, strings.Split(string(b), "\n")...)
		}
	}
	slices.Sort(names)
	// Property types the database has must fit before anything is made.
	existing := make([]gdi.PropertyType, len(im.props))
	for i, p := range im.props {
		pt, err := im.db.PropertyTypeFromName(p.name)
		if err != nil || pt == gdi.PropertyTypeNull {
			continue
		}
		info := p.typ.info(p.name)
		have, err := im.db.PropertyTypeInfo(pt)
		if err != nil {
			return err
		}
		if have.Datatype != info.Datatype || have.Entity != info.Entity {
			return gdi.Errorf(gdi.ErrFileFormat, "%s: header: the database has a property type %q of %v, %v, not %v, %v", p.path, p.name, have.Datatype, have.Entity, info.Datatype, info.Entity)
		}
		existing[i] = pt
	}
	im.labels = map[string]gdi.Label{}
	for _, name := range slices.Compact(names) {
		l, err := im.db.LabelFromName(name)
		if err == nil && l == gdi.LabelNull {
			l, err = im.db.CreateLabel(name)
		}
		if err != nil {
			return err
		}
		im.labels[name] = l
	}
	for i, p := range im.props {
		pt := existing[i]
		if pt == gdi.PropertyTypeNull {
			var err error
			if pt, err = im.db.CreatePropertyType(p.typ.info(p.name)); err != nil {
				return err
			}
		}
		im.ptypes = append(im.ptypes, pt)
	}
	return nil
}

// source describes what the ranks read for BulkLoad.
func (im *importer) source() gdi.BulkSource {
	props := func(ps []propValue, out []gdi.BulkProperty) []gdi.BulkProperty {
		for _, p := range ps {
			out = append(out, gdi.BulkProperty{Type: im.ptypes[p.ptype], Value: p.value})
		}
		return out
	}
	var e gdi.BulkEdge
	edgeLabels := make([]gdi.Label, len(im.edgeLabels))
	for i, name := range im.edgeLabels {
		edgeLabels[i] = im.labels[name]
	}
	return gdi.BulkSource{
		Vertices: im.total,
		Vertex: func(x uint64, v *gdi.BulkVertex) error {
			row, err := im.vertex(x)
			if err != nil {
				return err
			}
			v.ID = append(v.ID[:0], row.id...)
			for _, l := range row.labels {
				v.Labels = append(v.Labels, im.labels[l])
			}
			v.Properties = props(row.props, v.Properties)
			return nil
		},
		FullEdges: func(rank, size int, emit func(*gdi.BulkEdge) error) error {
			for _, r := range im.edgeRows {
				e = gdi.BulkEdge{Origin: r.origin, Target: r.target, Labels: append(e.Labels[:0], edgeLabels[r.label]), Properties: e.Properties[:0]}
				if r.props >= 0 {
					e.Properties = props(im.edgeProps[r.props], e.Properties)
				}
				if err := emit(&e); err != nil {
					return err
				}
			}
			return nil
		},
		Direction: im.opt.Direction,
	}
}
