package gdirma

import (
	"encoding/binary"
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
)

// vertexHolder is a vertex as seen by one transaction.
type vertexHolder struct{ base }

var (
	_ gdi.VertexHolder  = (*vertexHolder)(nil)
	_ gdi.IncidentEdger = (*vertexHolder)(nil)
)

// vertexHolder returns the transaction's holder of vertex n, one per
// vertex.
func (tx *Transaction) vertexHolder(n layout.Number, o *txObj) *vertexHolder {
	if o.vh == nil {
		o.vh = tx.newVertexHolder()
		*o.vh = vertexHolder{base{tx: tx, kind: vertexKind, num: n}}
	}
	return o.vh
}

// UID returns the vertex UID.
func (v *vertexHolder) UID() (gdi.VertexUID, error) {
	defer v.lock()()
	if _, err := v.obj(); err != nil {
		return 0, err
	}
	return v.tx.vertexUID(v.num), nil
}

// incident calls f for every edge of the vertex that matches orientation
// o and constraint c, in ascending order of edge numbers, with whether the
// vertex is its origin and its target.
func (v *vertexHolder) incident(or gdi.Orientation, c gdi.Constraint, f func(e layout.Number, r *record, isOrigin, isTarget bool)) error {
	o, dnf, has, err := v.prepareIncident(or, c)
	if err != nil {
		return err
	}
	return v.walkIncident(o, or, dnf, has, f)
}

// prepareIncident checks the arguments of a query of incident edges, reads
// all of the vertex and returns the constraint as a formula (has is false
// for none).
func (v *vertexHolder) prepareIncident(or gdi.Orientation, c gdi.Constraint) (o *txObj, dnf gdi.DNF, has bool, err error) {
	if o, err = v.obj(); err != nil {
		return nil, nil, false, err
	}
	if err := or.Valid(); err != nil {
		return nil, nil, false, err
	}
	if err := v.tx.full(v.num, o.rec); err != nil {
		return nil, nil, false, err
	}
	if dnf, has, err = v.tx.db.Filter(c); err != nil {
		return nil, nil, false, err
	}
	return o, dnf, has, nil
}

// walkIncident is incident once prepareIncident has run.
func (v *vertexHolder) walkIncident(o *txObj, or gdi.Orientation, dnf gdi.DNF, has bool, f func(e layout.Number, r *record, isOrigin, isTarget bool)) error {
	copies := &v.tx.objs[edgeKind]
	if v.tx.walk == nil {
		v.tx.walk = new(walkScratch)
	}
	w := v.tx.walk
	ends := &w.ends   // f must not keep r
	var view *objView // f must not keep it either
	if has {
		view = &w.view
		*view = objView{db: v.tx.db, lbuf: &w.labels}
	}
	for cur := o.rec.cursor(); ; {
		e, x, ok := cur.next()
		if !ok {
			break
		}
		if x.Stub() {
			continue
		}
		// Without a constraint the vertex's own reference to the edge
		// suffices; the edge's holder is read only for its labels and
		// properties (or if this transaction has a copy of it).
		var r *record
		if eo := copies.get(e); eo != nil && !eo.deleted {
			r = eo.rec
		} else if !has || x.Lightweight(e) {
			// All of a lightweight edge is in the reference: no allocation.
			ends.dir, ends.origin, ends.target, ends.lbls = x.Dir, x.Origin, x.Target, nil
			if has && x.Label != 0 {
				ends.lbuf[0] = x.Label
				ends.lbls = ends.lbuf[:1]
			}
			r = ends
		} else {
			eo, err := v.tx.related(edgeKind, e)
			if err != nil {
				return err
			}
			r = eo.rec
		}
		isO, isT := r.origin == v.num, r.target == v.num
		if !or.Matches(r.dir, isO, isT) {
			continue
		}
		if has {
			view.r = r
			ok, err := dnf.Eval(view)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
		}
		f(e, r, isO, isT)
	}
	return nil
}

// Edges returns the edges of the vertex that match o and c.
func (v *vertexHolder) Edges(or gdi.Orientation, c gdi.Constraint) ([]gdi.EdgeUID, error) {
	defer v.lock()()
	o, dnf, has, err := v.prepareIncident(or, c)
	if err != nil {
		return nil, err
	}
	if out, ok, err := v.quickEdges(o.rec, or, dnf, has); ok {
		return out, err
	}
	var out []gdi.EdgeUID
	err = v.walkIncident(o, or, dnf, has, func(e layout.Number, _ *record, _, _ bool) {
		if out == nil {
			out = make([]gdi.EdgeUID, 0, o.rec.nrefs())
		}
		out = v.tx.appendEdgeUID(out, e)
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []gdi.EdgeUID{}
	}
	return out, nil
}

// quickEdges is Edges in the common case of OLTP reads: the transaction
// changed no edge, the constraint, if any, asks only for labels, and the
// references are still encoded. It reads their flags, numbers and labels
// in place, without making a record of each edge, and reads the holder of
// an edge only if a constraint needs its labels; or the vertex has no
// references at all. ok is false if the case does not apply and nothing
// was done.
func (v *vertexHolder) quickEdges(r *record, or gdi.Orientation, dnf gdi.DNF, has bool) (out []gdi.EdgeUID, ok bool, err error) {
	if r.nrefs() == 0 {
		// A vertex without edges, as many are in skewed graphs: nothing
		// to walk, whatever the constraint.
		return []gdi.EdgeUID{}, true, nil
	}
	if r.raw == nil || v.tx.objs[edgeKind].len() != 0 || (has && !dnf.LabelsOnly()) {
		return nil, false, nil
	}
	if !has {
		return v.allEdges(r, or), true, nil
	}
	// With a constraint often few references are results, and a hub's
	// nraw UIDs would be a large zeroed allocation for nothing: the slice
	// grows as needed.
	out = make([]gdi.EdgeUID, 0, min(r.nraw, 16))
	var lbuf [1]gdi.Label
	// The constraint of the OLTP mixes, one label, is checked against
	// the label of a lightweight edge without making a list of it.
	want, one := oneLabel(dnf)
	var wantNum uint32
	if one {
		n, err := v.tx.db.LabelNum(want, false)
		one, wantNum = err == nil, n
	}
	raw := r.raw
	for i := 0; i < len(raw); {
		if one {
			// A reference numbered after this vertex or its other end,
			// without a holder, is a lightweight edge's: one with
			// another label, or none, is passed over by its flags and
			// label alone.
			if size := int(layout.LightRefSizes[raw[i]]); size != 0 {
				if end := i + size; end <= len(raw) && (raw[i]&layout.RfLabel == 0 || binary.LittleEndian.Uint32(raw[end-4:end]) != wantNum) {
					i = end
					continue
				}
			}
		}
		e, f, label, rest, ok := r.cd.Head(raw[i:])
		if !ok {
			break // cannot happen: see refList
		}
		i = len(raw) - len(rest)
		dir := gdi.DirectionType(f & layout.RfDir)
		if dir == 0 || !or.Matches(dir, f&layout.RfOrigin != 0, f&layout.RfTarget != 0) {
			continue // a stub, or the wrong way round
		}
		if has {
			light := layout.IsLight(e) && f&layout.RfHolder == 0
			if one && light {
				if f&layout.RfLabel == 0 || label != wantNum {
					continue
				}
				out = v.tx.appendEdgeUID(out, e)
				continue
			}
			labels := lbuf[:0]
			if light {
				if f&layout.RfLabel != 0 {
					lbuf[0] = v.tx.db.LabelHandle(label)
					labels = lbuf[:1]
				}
			} else {
				eo, err := v.tx.related(edgeKind, e)
				if err != nil {
					return nil, true, err
				}
				labels = objView{db: v.tx.db, r: eo.rec}.Labels()
			}
			if !dnf.EvalLabels(labels) {
				continue
			}
		}
		out = v.tx.appendEdgeUID(out, e)
	}
	return out, true, nil
}

// allEdges is quickEdges without a constraint, the commonest query of all:
// one pass over the encoded references that reads only their flags and
// numbers, and writes each UID in place in a slice of nraw, which is
// never less than the results.
func (v *vertexHolder) allEdges(r *record, or gdi.Orientation) []gdi.EdgeUID {
	out := make([]gdi.EdgeUID, r.nraw)
	st, cd := v.tx.db.st, r.cd
	k := 0
	for b := r.raw; len(b) > 1 && k < len(out); {
		f := b[0]
		size := int(layout.RefSizes[f])
		if f == layout.RfDead {
			size = int(b[1])
		}
		if size < 2 || size > len(b) {
			break // cannot happen: see refList
		}
		if g := layout.RefNorm[f]; f != layout.RfDead && g&layout.RfDir != 0 && or.Matches(gdi.DirectionType(g&layout.RfDir), g&layout.RfOrigin != 0, g&layout.RfTarget != 0) {
			var n layout.Number
			switch {
			case f&layout.RfDir == layout.RfCompact:
				var ok bool
				if n, _, ok = cd.Compact(b); !ok {
					return out[:k:k] // cannot happen: see refList
				}
			case f&layout.RfSlot != 0:
				n = cd.Base | layout.Number(binary.LittleEndian.Uint16(b[1:]))
			default:
				n = layout.Number(binary.LittleEndian.Uint64(b[1:]))
			}
			u := &out[k]
			if layout.IsLight(n) {
				u[0], u[1] = st.LightUID(n), uint64(layout.Slot(n))
			} else {
				u[0] = st.UID(n.Holder())
			}
			k++
		}
		b = b[size:]
	}
	return out[:k:k]
}

// IncidentEdges is Edges with the direction and the ends of each edge
// (gdi.IncidentEdger).
func (v *vertexHolder) IncidentEdges(o gdi.Orientation, c gdi.Constraint) ([]gdi.IncidentEdge, error) {
	defer v.lock()()
	ob, dnf, has, err := v.prepareIncident(o, c)
	if err != nil {
		return nil, err
	}
	out := []gdi.IncidentEdge{}
	if !has { // one per reference at most: one allocation for them all
		out = make([]gdi.IncidentEdge, 0, ob.rec.nrefs())
	}
	err = v.walkIncident(ob, o, dnf, has, func(e layout.Number, r *record, isO, isT bool) {
		other := r.origin
		if isO {
			other = r.target
		}
		out = append(out, gdi.IncidentEdge{
			UID: v.tx.edgeUID(e), Direction: r.dir, Other: v.tx.vertexUID(other),
			IsOrigin: isO, IsTarget: isT,
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Neighbors returns the vertices at the other end of the edges that
// Edges(o, c) returns, each once.
func (v *vertexHolder) Neighbors(o gdi.Orientation, c gdi.Constraint) ([]gdi.VertexUID, error) {
	defer v.lock()()
	var ns []layout.Number
	err := v.incident(o, c, func(_ layout.Number, r *record, isO, isT bool) {
		other := r.origin
		if isO {
			other = r.target
		}
		ns = append(ns, other)
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(ns) // each once: a hub's list is sorted, not searched per edge
	ns = slices.Compact(ns)
	out := make([]gdi.VertexUID, len(ns))
	for i, n := range ns {
		out[i] = v.tx.vertexUID(n)
	}
	return out, nil
}

// oneLabel reports whether dnf holds exactly for the objects that have
// label l, a label of the user's (dnf is LabelsOnly).
func oneLabel(dnf gdi.DNF) (l gdi.Label, ok bool) {
	if len(dnf) != 1 || len(dnf[0].Labels) != 1 || len(dnf[0].Properties) != 0 {
		return 0, false
	}
	c := dnf[0].Labels[0]
	if c.Op != gdi.Equal || c.Label == gdi.LabelNone {
		return 0, false
	}
	return c.Label, true
}
