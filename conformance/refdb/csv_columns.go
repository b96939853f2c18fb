package refdb

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// csvRow is a parsed line of a CSV file: its ID columns (an empty field is
// no ID) and its property columns (the zero Value for an empty field).
type csvRow struct {
	ids    []string
	hasID  []bool
	values []gdi.Value
}

// csvColumns are the property types of the property columns of a request.
type csvColumns struct {
	ptypes []uint32
	infos  []gdi.PropertyTypeInfo
}

// csvColumns checks the property types of a request. The caller holds mu.
func (db *Database) csvColumns(ps []gdi.PropertyType) (csvColumns, error) {
	var c csvColumns
	for _, p := range ps {
		n, info, err := db.ptypeNumber(p)
		if err == nil && p.IsReadOnly() {
			err = gdi.Errorf(gdi.ErrReadOnlyPropertyType, "%v cannot be loaded", p)
		}
		if err != nil {
			return c, err
		}
		c.ptypes = append(c.ptypes, n)
		c.infos = append(c.infos, info)
	}
	return c, nil
}

// csvLabels checks the labels of a request and returns them without
// LabelNone, each once. The caller holds mu.
func (db *Database) csvLabels(ls []gdi.Label) ([]uint32, error) {
	var out []uint32
	for _, l := range ls {
		n, err := db.labelNumber(l)
		if err != nil {
			return nil, err
		}
		if n != noLabel && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// parseRows parses the lines of a file with idColumns ID columns before
// the property columns c.
func parseRows(rows [][]string, idColumns int, c csvColumns, f gdi.CSVFile) ([]csvRow, error) {
	out := make([]csvRow, len(rows))
	for i, fields := range rows {
		for _, field := range fields[:idColumns] {
			id, ok, err := parseID(field, f.TextIDs)
			if err != nil {
				return nil, err
			}
			out[i].ids = append(out[i].ids, id)
			out[i].hasID = append(out[i].hasID, ok)
		}
		for j, field := range fields[idColumns:] {
			v, _, err := gdi.ParseCSVValue(c.infos[j].Datatype, field, f.ElementDelimiter)
			if err != nil {
				return nil, err
			}
			out[i].values = append(out[i].values, v)
		}
	}
	return out, nil
}

// add adds the values of a row to the record r of kind k, and returns how
// many it skipped: values outside the size limit, second values of a
// single-entity type, and IDs that another object with a label of r has.
// The caller holds the store's lock.
func (c csvColumns) add(s *store, k kind, r *record, values []gdi.Value) (skipped int) {
	for j, v := range values {
		p, info := c.ptypes[j], c.infos[j]
		switch {
		case v.IsZero(), r.hasProperty(p, v) && info.Entity == gdi.MultipleEntity:
		case info.CheckCount(v.Len()) != nil,
			info.Entity == gdi.SingleEntity && len(r.values(p)) > 0,
			p == gdi.PropertyTypeID.ID() && s.idTaken(k, r.labels, v.RawString()):
			skipped++
		default:
			r.props = append(r.props, property{p, v})
		}
	}
	return skipped
}

// idTaken reports whether an object of kind k has one of the labels ls and
// the ID id. The caller holds mu.
func (s *store) idTaken(k kind, ls []uint32, id string) bool {
	return slices.ContainsFunc(ls, func(l uint32) bool { return len(s.ids[idKey{k, l, id}]) > 0 })
}
