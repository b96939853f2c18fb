package olap

import (
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// BIQuery is a business-intelligence aggregation in the style of Listing 3
// of the GDI paper, on a graph with a vertex label and a weight property:
//
//	MATCH (a:Vertex)-[e]->(b:Vertex)
//	WHERE a.degree >= MinDegree AND e.weight > MinWeight AND b.degree >= MinDegree
//	RETURN count(DISTINCT a), count(e), sum(e.weight)
//
// where degree is gdi.PropertyTypeDegree and -[e]-> follows directed edges
// forwards and undirected edges either way.
type BIQuery struct {
	// Index holds the candidate vertices a (an index over Vertex).
	Index gdi.Index
	// Vertex is the label b must have; LabelNull lets b be any vertex
	// (and saves reading its labels).
	Vertex gdi.Label
	Weight gdi.PropertyType
	// MinDegree bounds the degree of both ends, MinWeight the weight.
	MinDegree uint64
	MinWeight float64
}

// BIResult is the answer of a BIQuery, the same on every rank.
type BIResult struct {
	Sources, Edges int64
	WeightSum      float64
}

// BI runs q in a collective read transaction: every rank matches the
// pattern from its local vertices of q.Index (the edge condition is a gdi
// constraint, evaluated by the backend), reading the far end b through gdi
// wherever it is stored, and the partial aggregates are summed with
// Allreduce. It is collective and needs a quiet database.
func BI(db gdi.Database, comm rma.Comm, q BIQuery) (BIResult, error) {
	var res BIResult
	cnstr, err := db.CreateConstraint()
	if err != nil {
		return res, err
	}
	defer cnstr.Free()
	heavy, err := db.CreateSubconstraint()
	if err != nil {
		return res, err
	}
	defer heavy.Free()
	if err := heavy.AddPropertyCondition(q.Weight, gdi.Greater, gdi.Doubles(q.MinWeight)); err != nil {
		return res, err
	}
	if err := cnstr.AddSubconstraint(heavy); err != nil {
		return res, err
	}
	tx, err := db.StartCollectiveTransaction()
	if err != nil {
		return res, err
	}
	local, err := biLocal(tx, q, cnstr)
	if err = rma.Agree(comm, err); err != nil {
		tx.Abort()
		return res, err
	}
	if err := tx.Commit(); err != nil {
		return res, err
	}
	return sumBI(comm, local)
}

// sumBI sums the partial answers of all ranks. It is collective.
func sumBI(comm rma.Comm, local BIResult) (BIResult, error) {
	counts, sum := []int64{local.Sources, local.Edges}, []float64{local.WeightSum}
	if err := comm.AllreduceInt64(counts, rma.OpSum); err != nil {
		return BIResult{}, err
	}
	if err := comm.AllreduceFloat64(sum, rma.OpSum); err != nil {
		return BIResult{}, err
	}
	return BIResult{counts[0], counts[1], sum[0]}, nil
}

func degree(h gdi.VertexHolder) (uint64, error) {
	d, err := h.Properties(gdi.PropertyTypeDegree)
	if err != nil {
		return 0, err
	}
	if len(d) != 1 {
		return 0, errors.New("olap: vertex without degree")
	}
	x, err := d[0].Uint64Slice()
	if err != nil || len(x) != 1 {
		return 0, fmt.Errorf("olap: degree %v: %v", d[0], err)
	}
	return x[0], nil
}

func biLocal(tx gdi.Transaction, q BIQuery, cnstr gdi.Constraint) (BIResult, error) {
	var res BIResult
	as, err := tx.LocalVerticesOfIndex(q.Index, nil)
	if err != nil {
		return res, err
	}
	for _, a := range as {
		aH, err := tx.AssociateVertex(a)
		if err != nil {
			return res, err
		}
		if d, err := degree(aH); err != nil || d < q.MinDegree {
			if err != nil {
				return res, err
			}
			continue
		}
		es, err := aH.Edges(gdi.EdgeOutgoing|gdi.EdgeUndirected, cnstr)
		if err != nil {
			return res, err
		}
		matched := false
		for _, e := range es {
			eH, err := tx.AssociateEdge(e)
			if err != nil {
				return res, err
			}
			o, t, err := eH.Vertices()
			if err != nil {
				return res, err
			}
			b := t
			if b == a {
				b = o
			}
			bH, err := tx.AssociateVertex(b)
			if err != nil {
				return res, err
			}
			if ok, err := hasLabel(bH, q.Vertex); err != nil || !ok {
				if err != nil {
					return res, err
				}
				continue
			}
			if d, err := degree(bH); err != nil || d < q.MinDegree {
				if err != nil {
					return res, err
				}
				continue
			}
			w, err := weight(eH, q.Weight)
			if err != nil {
				return res, err
			}
			matched = true
			res.Edges++
			res.WeightSum += w
		}
		if matched {
			res.Sources++
		}
	}
	return res, nil
}

// hasLabel reports whether h has label l; every vertex has LabelNull.
func hasLabel(h gdi.VertexHolder, l gdi.Label) (bool, error) {
	if l == gdi.LabelNull {
		return true, nil
	}
	labels, err := h.Labels()
	return contains(labels, l), err
}

func contains[T comparable](s []T, x T) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
