package gdirma

import (
	"errors"
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/internal/agree"
	"github.com/gdi-go/gdi/internal/catalog"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/txn"
)

// The gdi.CSVLoader methods (specification section 14). Each is
// collective and needs a quiet database. Every rank checks the request and
// the ranks agree; every rank then parses its share of the file (the lines
// that start in its part of the bytes, catalog.ReadCSVShare), and only if
// every rank's lines are well formed does any rank load (a malformed file
// loads nothing). New vertices go to the rank that reads their lines;
// the lines that add properties go to the rank of their vertex
// (Alltoallv, csvroute.go), which applies them in file order; edges, which
// change the holders of two vertices, each rank creates in transactions.
// The ranks then agree on the outcome and add up what was skipped.
// Checking the request and parsing the file are shared with the other
// backend (internal/catalog); loading the lines is this backend's own.

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
// request, let every rank load its share (load is collective and returns
// the lines or values the rank skipped), and agree on the outcome.
func (db *Database) collectiveLoad(call string, local error, load func() (skipped int, err error)) error {
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
	skipped, err := load()
	if err = agree.Errors(db.comm, err); err == nil {
		total := []int64{int64(skipped)}
		if err = internal(db.comm.AllreduceInt64(total, rma.OpSum)); err == nil {
			err = catalog.WarnNotAll(int(total[0]))
		}
	}
	return db.logCheckpoint(err)
}

// readShare parses the rank's share of f (collective): every rank returns
// the error of a rank whose share is malformed.
func (db *Database) readShare(f gdi.CSVFile, idCols int, cols []catalog.CSVColumn) ([]catalog.CSVLine, error) {
	lines, err := catalog.ReadCSVShare(f, idCols, cols, db.rank, db.comm.Size())
	return lines, agree.Errors(db.comm, err)
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

// LoadVertexCSV creates one vertex per line, on the rank that reads the
// line. A line whose ID an earlier line or a vertex has, under one of the
// request's labels, is skipped.
func (db *Database) LoadVertexCSV(req gdi.VertexCSV) error {
	q, local := db.CheckVertexCSV(req)
	return db.collectiveLoad(q.Call, local, func() (int, error) {
		lines, err := db.readShare(req.CSVFile, 1, q.Columns)
		if err != nil {
			return 0, err
		}
		first := make([]bool, len(lines))
		if err := db.firstLines(lines, len(q.Labels) > 0, first); err != nil {
			return 0, err
		}
		st := db.st
		skipped := 0
		for i, p := range lines {
			r := &record{home: int32(db.rank), recordHead: recordHead{lbls: slices.Clone(q.Labels)}, vertexRefs: vertexRefs{es: edgeSet{}}}
			if p.IDs[0] != "" {
				r.setProps(append(r.props(), layout.Property{Ptype: uint32(gdi.PropertyTypeID), Value: gdi.Bytes([]byte(p.IDs[0]))}))
			}
			taken := !first[i]
			for _, l := range q.Labels {
				if taken || p.IDs[0] == "" {
					break
				}
				m, err := st.committedIDMatches(vertexKind, idKey{l, p.IDs[0]})
				if err != nil {
					return skipped, err
				}
				taken = len(m) > 0
			}
			if taken {
				skipped++ // the ID is taken for one of the labels
				continue
			}
			if !addValues(r, q.Columns, p.Values) {
				skipped++
			}
			n, err := st.newNumber(db.rank)
			if err != nil {
				return skipped, err
			}
			if err := st.applyNow([]change{{k: vertexKind, n: n, new: r}}); err != nil {
				_ = st.Release(n.Holder())
				return skipped, err
			}
		}
		return skipped, nil
	})
}

// LoadVertexPropertiesCSV adds one property per line to existing vertices:
// each line goes to the rank of its vertex, which applies the lines of
// each of its vertices in one change.
func (db *Database) LoadVertexPropertiesCSV(req gdi.VertexPropertiesCSV) error {
	q, local := db.CheckVertexPropertiesCSV(req)
	return db.collectiveLoad(q.Call, local, func() (int, error) {
		lines, err := db.readShare(req.CSVFile, 1, q.Columns)
		if err != nil {
			return 0, err
		}
		st := db.st
		skipped := 0
		var out []propLine
		var failed error
		for _, p := range lines {
			n, ok, err := st.lookupVertex(idKey{q.Label, p.IDs[0]})
			if err != nil {
				failed, out = err, nil
				break
			}
			if !ok {
				skipped++
				continue
			}
			out = append(out, propLine{line: p.Line, n: n, value: p.Values[0]})
		}
		// Every rank takes part in the routing, even one that failed.
		mine, err := db.routeProps(out)
		if err = errors.Join(failed, err); err != nil {
			return skipped, err
		}
		for len(mine) > 0 {
			n := mine[0].n
			old, err := st.load(vertexKind, n)
			if err != nil || old == nil {
				return skipped, internalOr(err, "vertex vanished during a load")
			}
			r := old.clone()
			for ; len(mine) > 0 && mine[0].n == n; mine = mine[1:] {
				if !addValues(r, q.Columns, []gdi.Value{mine[0].value}) {
					skipped++
				}
			}
			if err := st.applyNow([]change{{k: vertexKind, n: n, old: old, new: r}}); err != nil {
				return skipped, err
			}
		}
		return skipped, nil
	})
}

// LoadEdgeCSV creates one edge per line between existing vertices. Each
// rank creates the edges of its share, in transactions of edgeBatch lines
// (loadEdges): an edge changes the holders of both its ends, which other
// ranks may be changing at the same time, and a transaction keeps each
// edge whole at both, and the graph whole if a rank runs out of memory.
func (db *Database) LoadEdgeCSV(req gdi.EdgeCSV) error {
	q, local := db.CheckEdgeCSV(req)
	return db.collectiveLoad(q.Call, local, func() (int, error) {
		lines, err := db.readShare(req.CSVFile, 2, q.Columns)
		if err != nil {
			return 0, err
		}
		skipped := 0
		for len(lines) > 0 {
			batch := lines[:min(len(lines), edgeBatch)]
			lines = lines[len(batch):]
			n, err := db.loadEdges(batch, q, req.Direction)
			skipped += n
			if err != nil {
				return skipped, err
			}
		}
		return skipped, nil
	})
}

// edgeBatch is how many lines LoadEdgeCSV creates in one transaction.
const edgeBatch = 32

// loadEdges creates the edges of lines in one transaction, trying again
// while transactions of other ranks get in its way, and returns the
// lines and values it skipped.
func (db *Database) loadEdges(lines []catalog.CSVLine, q catalog.CSVRequest, dir gdi.DirectionType) (skipped int, err error) {
	for range txn.Attempts {
		skipped, err = db.tryEdges(lines, q, dir)
		switch {
		case errors.Is(err, gdi.ErrNoMemory):
			// A commit that failed for lack of memory: the load did.
			return skipped, gdi.Errorf(gdi.ErrNoMemory, "gdirma: LoadEdgeCSV: %v", err)
		case err == nil || !gdi.IsTransactionCritical(err) && gdi.ErrorClass(err) != gdi.ErrTransactionCommitFail:
			return skipped, err
		}
	}
	return skipped, err
}

// tryEdges is one attempt of loadEdges.
func (db *Database) tryEdges(lines []catalog.CSVLine, q catalog.CSVRequest, dir gdi.DirectionType) (int, error) {
	st := db.st
	tx, err := db.StartTransaction()
	if err != nil {
		return 0, err
	}
	t := tx.(*Transaction)
	skipped := 0
	err = func() error {
		for _, p := range lines {
			origin, ok1, err1 := st.lookupVertex(idKey{q.Ends[0], p.IDs[0]})
			target, ok2, err2 := st.lookupVertex(idKey{q.Ends[1], p.IDs[1]})
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			if !ok1 || !ok2 {
				skipped++
				continue
			}
			vo, err1 := tx.AssociateVertex(t.vertexUID(origin))
			vt, err2 := tx.AssociateVertex(t.vertexUID(target))
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			e, err := tx.CreateEdge(dir, vo, vt)
			if err != nil {
				return err
			}
			for _, l := range q.Labels {
				if err := e.AddLabel(db.LabelHandle(l)); err != nil {
					return err
				}
			}
			r := &record{}
			if !addValues(r, q.Columns, p.Values) {
				skipped++
			}
			for _, pr := range r.props() {
				if err := e.AddProperty(db.PtypeHandle(pr.Ptype), pr.Value); err != nil {
					return err
				}
			}
		}
		return nil
	}()
	if err != nil {
		return skipped, errors.Join(err, tx.Abort())
	}
	return skipped, tx.Commit()
}

// internalOr returns err, or an internal error with msg if err is nil.
func internalOr(err error, msg string) error {
	if err != nil {
		return err
	}
	return gdi.Errorf(gdi.ErrIntern, "gdirma: %s", msg)
}
