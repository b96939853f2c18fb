package refdb

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
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
		case r.hasProperty(c.Ptype, v):
		case c.Info.CheckCount(v.Len()) != nil,
			c.Info.Entity == gdi.SingleEntity && len(r.values(c.Ptype)) > 0:
			all = false
		default:
			r.props = append(r.props, property{c.Ptype, v})
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

// lookupVertex returns the smallest vertex found under key. The caller
// holds st.mu.
func (st *store) lookupVertex(key idKey) (uint64, bool) {
	ns := sortedKeys(st.ids[key])
	if len(ns) == 0 {
		return 0, false
	}
	return ns[0], true
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
		st.mu.Lock()
		defer st.mu.Unlock()
		st.commits++
		skipped := 0
		for i, p := range parsed {
			r := &record{version: st.commits, home: i % db.comm.Size(), labels: slices.Clone(q.Labels), edges: map[uint64]struct{}{}}
			if p.IDs[0] != "" {
				r.props = append(r.props, property{uint32(gdi.PropertyTypeID), gdi.Bytes([]byte(p.IDs[0]))})
			}
			if slices.ContainsFunc(r.idKeys(), func(k idKey) bool { return k.label != uint32(gdi.LabelNone) && len(st.ids[k]) > 0 }) {
				skipped++ // the ID is taken for one of the labels
				continue
			}
			if !addValues(r, q.Columns, p.Values) {
				skipped++
			}
			st.install(vertexKind, st.newNumberLocked(vertexKind), r)
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
		st.mu.Lock()
		defer st.mu.Unlock()
		st.commits++
		skipped := 0
		for _, p := range parsed {
			n, ok := st.lookupVertex(idKey{q.Label, p.IDs[0]})
			if !ok {
				skipped++
				continue
			}
			r := st.objects[vertexKind][n].clone()
			if !addValues(r, q.Columns, p.Values) {
				skipped++
			}
			r.version = st.commits
			st.install(vertexKind, n, r)
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
		st.mu.Lock()
		defer st.mu.Unlock()
		st.commits++
		skipped := 0
		for _, p := range parsed {
			origin, ok1 := st.lookupVertex(idKey{q.Ends[0], p.IDs[0]})
			target, ok2 := st.lookupVertex(idKey{q.Ends[1], p.IDs[1]})
			if !ok1 || !ok2 {
				skipped++
				continue
			}
			or := st.objects[vertexKind][origin]
			r := &record{version: st.commits, home: or.home, labels: slices.Clone(q.Labels), dir: req.Direction, origin: origin, target: target}
			if !addValues(r, q.Columns, p.Values) {
				skipped++
			}
			e := st.newNumberLocked(edgeKind)
			st.install(edgeKind, e, r)
			for _, v := range r.ends() {
				vr := st.objects[vertexKind][v]
				vr.edges[e] = struct{}{} // the ID keys do not change: in place
				vr.version = st.commits
			}
		}
		return catalog.WarnNotAll(skipped)
	})
}
