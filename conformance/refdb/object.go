package refdb

import "github.com/gdi-go/gdi/gdi"

// object shows a record to gdi's pure evaluation of constraints
// (gdi.Object) and of index coverage, with the handles of this rank. For a
// vertex it may carry the degree types, which are computed, not stored.
type object struct {
	db      *Database
	r       *record
	degrees *[3]uint64 // degree, in-degree, out-degree; nil if not known
}

func (o object) Labels() []gdi.Label {
	ls := make([]gdi.Label, len(o.r.labels))
	for i, n := range o.r.labels {
		ls[i] = o.db.labelHandle(n)
	}
	return ls
}

func (o object) Values(p gdi.PropertyType) []gdi.Value {
	if p.IsReadOnly() {
		if o.degrees == nil {
			return nil
		}
		return []gdi.Value{gdi.Uint64s(o.degrees[p-gdi.PropertyTypeDegree])}
	}
	return o.r.values(p.ID())
}

// ptypes returns the property types of the object, as IndexCovers takes
// them.
func (o object) ptypes() []gdi.PropertyType {
	var ps []gdi.PropertyType
	for _, n := range o.r.ptypes() {
		ps = append(ps, o.db.ptypeHandle(n))
	}
	return ps
}

// degreesOf counts the edges of the vertex v with record r: its degree
// (a loop counts twice), in-degree and out-degree. edge returns an edge
// record as the caller sees it.
func degreesOf(v uint64, r *record, edge func(uint64) (*record, error)) ([3]uint64, error) {
	var deg, in, out uint64
	for _, e := range r.edges {
		er, err := edge(e)
		if err != nil {
			return [3]uint64{}, err
		}
		switch {
		case er.dir == gdi.Undirected && er.origin == er.target:
			deg += 2
		case er.dir == gdi.Undirected:
			deg++
		default:
			if er.origin == v {
				out++
			}
			if er.target == v {
				in++
			}
		}
	}
	return [3]uint64{deg + in + out, in, out}, nil
}

// committedEdge reads an edge of the committed store. The caller holds the
// store's lock.
func committedEdge(s *store) func(uint64) (*record, error) {
	return func(e uint64) (*record, error) {
		if r := s.get(edgeKind, e); r != nil {
			return r, nil
		}
		return nil, gdi.Errorf(gdi.ErrIntern, "edge %d of a committed vertex is missing", e)
	}
}
