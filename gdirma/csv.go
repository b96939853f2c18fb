package gdirma

import (
	"errors"
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/internal/catalog"
)

// The gdi.CSVLoader methods (specification section 14). Each is
// collective and needs a quiet database. Every rank checks the request and
// the ranks agree; then rank 0 reads the whole file and, only if every
// line is well formed, loads it into the shared store in one step (a
// malformed file loads nothing). The outcome (error, warning or success)
// is broadcast so that all ranks return the same class. Checking the
// request and reading the file are shared with the other backend
// (internal/catalog); inserting the lines is this backend's own.

// addValues adds the values of a line to r and reports whether all of them
// fit (size limits, single entity).
func addValues(r *record, cols []catalog.CSVColumn, values []gdi.Value) bool {
	all := true
	for i, c := range cols {
		v := values[i]
		switch {
		case v.IsZero(): // empty field: no property
		case c.Info.Entity == gdi.SingleEntity && len(r.values(c.Ptype)) > 0:
			all = false // spec 14.1: one already present, equal or not
		case r.hasProperty(c.Ptype, v):
		case c.Info.CheckCount(v.Len()) != nil:
			all = false
		default:
			r.setProps(append(r.props(), layout.Property{Ptype: c.Ptype, Value: v}))
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
	defer db.pauseAuto()()
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
	return db.logCheckpoint(db.BcastCode(result))
}

// lookupVertex returns the smallest vertex found under key.
func (st *graph) lookupVertex(key idKey) (layout.Number, bool, error) {
	m, err := st.committedIDMatches(vertexKind, key)
	if err != nil || len(m) == 0 {
		return 0, false, err
	}
	return sortedKeys(m)[0], true, nil
}

// applyNow installs changes on a quiet database and frees what they free.
func (st *graph) applyNow(changes []change) error {
	freed, err := st.apply(changes, nil)
	if err != nil {
		return err
	}
	return st.ReleaseAll(freed)
}

// LoadVertexCSV creates one vertex per line.
func (db *Database) LoadVertexCSV(req gdi.VertexCSV) error {
	q, local := db.CheckVertexCSV(req)
	return db.collectiveLoad(q.Call, local, func() error {
		parsed, err := catalog.ReadCSV(req.CSVFile, 1, q.Columns)
		if err != nil {
			return err
		}
		st := db.st
		skipped := 0
		for i, p := range parsed {
			home := i % db.comm.Size()
			r := &record{home: int32(home), recordHead: recordHead{lbls: slices.Clone(q.Labels)}, vertexRefs: vertexRefs{es: edgeSet{}}}
			if p.IDs[0] != "" {
				r.setProps(append(r.props(), layout.Property{Ptype: uint32(gdi.PropertyTypeID), Value: gdi.Bytes([]byte(p.IDs[0]))}))
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
			if !addValues(r, q.Columns, p.Values) {
				skipped++
			}
			n, err := st.newNumber(home)
			if err != nil {
				return err
			}
			if err := st.applyNow([]change{{k: vertexKind, n: n, new: r}}); err != nil {
				_ = st.Release(n.Holder())
				return err
			}
		}
		return catalog.WarnNotAll(skipped)
	})
}

// LoadVertexPropertiesCSV adds one property per line to existing vertices.
func (db *Database) LoadVertexPropertiesCSV(req gdi.VertexPropertiesCSV) error {
	q, local := db.CheckVertexPropertiesCSV(req)
	return db.collectiveLoad(q.Call, local, func() error {
		parsed, err := catalog.ReadCSV(req.CSVFile, 1, q.Columns)
		if err != nil {
			return err
		}
		st := db.st
		skipped := 0
		for _, p := range parsed {
			n, ok, err := st.lookupVertex(idKey{q.Label, p.IDs[0]})
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
			if !addValues(r, q.Columns, p.Values) {
				skipped++
			}
			if err := st.applyNow([]change{{k: vertexKind, n: n, old: old, new: r}}); err != nil {
				return err
			}
		}
		return catalog.WarnNotAll(skipped)
	})
}

// LoadEdgeCSV creates one edge per line between existing vertices.
func (db *Database) LoadEdgeCSV(req gdi.EdgeCSV) error {
	q, local := db.CheckEdgeCSV(req)
	return db.collectiveLoad(q.Call, local, func() error {
		parsed, err := catalog.ReadCSV(req.CSVFile, 2, q.Columns)
		if err != nil {
			return err
		}
		st := db.st
		skipped := 0
		for _, p := range parsed {
			origin, ok1, err1 := st.lookupVertex(idKey{q.Ends[0], p.IDs[0]})
			target, ok2, err2 := st.lookupVertex(idKey{q.Ends[1], p.IDs[1]})
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			if !ok1 || !ok2 {
				skipped++
				continue
			}
			home := origin.Holder().Rank()
			r := &record{home: int32(home), recordHead: recordHead{lbls: slices.Clone(q.Labels)}, edgeEnds: edgeEnds{dir: req.Direction, origin: origin, target: target}}
			if !addValues(r, q.Columns, p.Values) {
				skipped++
			}
			// Lightweight if it can be: a free slot of the origin.
			var e layout.Number
			if len(r.props()) == 0 && len(r.labels()) <= 1 && st.lightOK() {
				ov, err := st.load(vertexKind, origin)
				if err != nil || ov == nil {
					return internalOr(err, "vertex vanished during a load")
				}
				for i := range layout.MaxSlot {
					n := st.lightNumber(origin, (len(ov.refList())+i)%layout.MaxSlot+1)
					if !ov.refList().has(n) {
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
				if !layout.IsLight(e) {
					_ = st.Release(e.Holder())
				}
			}
			for _, v := range r.ends() {
				old, err := st.load(vertexKind, v)
				if err != nil || old == nil {
					release()
					return internalOr(err, "vertex vanished during a load")
				}
				nr := old.clone()
				nr.setRef(e, refOf(e, r, 0))
				changes = append(changes, change{k: vertexKind, n: v, old: old, new: nr})
			}
			if err := st.applyNow(changes); err != nil {
				release()
				return err
			}
		}
		return catalog.WarnNotAll(skipped)
	})
}

// internalOr returns err, or an internal error with msg if err is nil.
func internalOr(err error, msg string) error {
	if err != nil {
		return err
	}
	return gdi.Errorf(gdi.ErrIntern, "gdirma: %s", msg)
}
