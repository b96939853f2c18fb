package refdb_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// run starts n ranks, each with a fresh refdb database, and fails the test
// if any rank returns an error.
func run(t *testing.T, n int, fn func(comm rma.Comm, db gdi.Database) error) {
	t.Helper()
	err := local.Run(n, func(comm rma.Comm) error {
		db, err := refdb.Driver{}.CreateDatabase(comm, nil)
		if err != nil {
			return err
		}
		if err := fn(comm, db); err != nil {
			return fmt.Errorf("rank %d: %w", comm.Rank(), err)
		}
		return db.Free()
	})
	if err != nil {
		t.Fatal(err)
	}
}

func must(err error) {
	if gdi.Failed(err) {
		panic(err)
	}
}

func wantCode(err error, c gdi.Code, what string) error {
	if !errors.Is(err, c) {
		return fmt.Errorf("%s: got %v, want %v", what, err, c)
	}
	return nil
}

// schema is a small schema made collectively.
type schema struct {
	person, knows gdi.Label
	name, age     gdi.PropertyType
}

func makeSchema(comm rma.Comm, db gdi.Database) schema {
	var s schema
	var err error
	s.person, err = db.CreateLabel("Person")
	must(err)
	s.knows, err = db.CreateLabel("knows")
	must(err)
	s.name, err = db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "name", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.MaxSize, Count: 16})
	must(err)
	s.age, err = db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "age", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
	must(err)
	must(comm.Barrier())
	return s
}

func TestCommitVisibleOnOtherRank(t *testing.T) {
	run(t, 2, func(comm rma.Comm, db gdi.Database) error {
		s := makeSchema(comm, db)
		if comm.Rank() == 0 {
			tx, _ := db.StartTransaction()
			a, _ := tx.CreateVertex([]byte("a"))
			b, _ := tx.CreateVertex([]byte("b"))
			must(a.AddLabel(s.person))
			must(b.AddLabel(s.person))
			must(a.AddProperty(s.name, gdi.Chars("Ada")))
			e, err := tx.CreateEdge(gdi.Undirected, a, b)
			must(err)
			must(e.AddLabel(s.knows))
			// Not visible to another transaction before commit.
			other, _ := db.StartTransaction()
			if _, found, _ := other.TranslateVertexID(s.person, []byte("a")); found {
				return errors.New("uncommitted vertex visible")
			}
			must(other.Abort())
			must(tx.Commit())
		}
		must(comm.Barrier())
		tx, _ := db.StartTransaction()
		defer tx.Abort()
		uid, found, err := tx.TranslateVertexID(s.person, []byte("a"))
		if !found || err != nil {
			return fmt.Errorf("vertex a not found: %v", err)
		}
		v, _ := tx.AssociateVertex(uid)
		names, _ := v.Properties(s.name)
		if len(names) != 1 || names[0] != gdi.Chars("Ada") {
			return fmt.Errorf("names %v", names)
		}
		deg, _ := v.Properties(gdi.PropertyTypeDegree)
		if deg[0] != gdi.Uint64s(1) {
			return fmt.Errorf("degree %v", deg)
		}
		c, _ := db.CreateConstraint()
		sc, _ := db.CreateSubconstraint()
		must(sc.AddLabelCondition(s.knows, gdi.Equal))
		must(c.AddSubconstraint(sc))
		ns, err := v.Neighbors(gdi.EdgeUndirected, c)
		must(err)
		if len(ns) != 1 {
			return fmt.Errorf("neighbours %v", ns)
		}
		if ns, _ := v.Neighbors(gdi.EdgeOutgoing, nil); len(ns) != 0 {
			return fmt.Errorf("outgoing neighbours %v of an undirected edge", ns)
		}
		return nil
	})
}

func TestFreeVertexRemovesEdges(t *testing.T) {
	run(t, 1, func(comm rma.Comm, db gdi.Database) error {
		tx, _ := db.StartTransaction()
		a, _ := tx.CreateVertex(nil)
		b, _ := tx.CreateVertex(nil)
		c, _ := tx.CreateVertex(nil)
		e1, _ := tx.CreateEdge(gdi.Directed, a, b)
		_, _ = tx.CreateEdge(gdi.Directed, c, a)
		_, _ = tx.CreateEdge(gdi.Directed, b, c)
		ua, _ := a.UID()
		ub, _ := b.UID()
		uc, _ := c.UID()
		must(tx.Commit())

		tx, _ = db.StartTransaction()
		a, _ = tx.AssociateVertex(ua)
		must(a.Free())
		if _, err := a.Labels(); !errors.Is(err, gdi.ErrVertex) {
			return fmt.Errorf("freed holder: %v", err)
		}
		must(tx.Commit())
		if _, err := e1.Labels(); !errors.Is(err, gdi.ErrEdge) {
			return fmt.Errorf("holder after commit: %v", err)
		}

		tx, _ = db.StartTransaction()
		defer tx.Abort()
		if _, err := tx.AssociateVertex(ua); !errors.Is(err, gdi.ErrUID) {
			return fmt.Errorf("freed vertex: %v", err)
		}
		b, _ = tx.AssociateVertex(ub)
		c, _ = tx.AssociateVertex(uc)
		eb, _ := b.Edges(gdi.EdgeAll, nil)
		ec, _ := c.Edges(gdi.EdgeAll, nil)
		if len(eb) != 1 || len(ec) != 1 || eb[0] != ec[0] {
			return fmt.Errorf("edges left: %v %v", eb, ec)
		}
		out, _ := b.Properties(gdi.PropertyTypeOutDegree)
		in, _ := b.Properties(gdi.PropertyTypeInDegree)
		if out[0] != gdi.Uint64s(1) || in[0] != gdi.Uint64s(0) {
			return fmt.Errorf("degrees of b: out %v in %v", out, in)
		}
		return nil
	})
}

func TestApplicationIDs(t *testing.T) {
	run(t, 1, func(comm rma.Comm, db gdi.Database) error {
		s := makeSchema(comm, db)
		tx, _ := db.StartTransaction()
		a, _ := tx.CreateVertex([]byte("x"))
		b, _ := tx.CreateVertex([]byte("x"))
		must(a.AddLabel(s.person))
		if err := wantCode(b.AddLabel(s.person), gdi.ErrNonUniqueID, "second Person x"); err != nil {
			return err
		}
		must(b.AddLabel(s.knows))
		// Unlabeled vertices may share IDs; removing the last label warns.
		c, _ := tx.CreateVertex([]byte("y"))
		d, _ := tx.CreateVertex([]byte("y"))
		must(d.AddLabel(s.person))
		_ = c
		if err := d.RemoveLabel(s.person); !errors.Is(err, gdi.WarnNonUniqueID) {
			return fmt.Errorf("RemoveLabel: %v", err)
		}
		uid, found, err := tx.TranslateVertexID(gdi.LabelNone, []byte("y"))
		if !found || !errors.Is(err, gdi.WarnNonUniqueID) || uid == 0 {
			return fmt.Errorf("TranslateVertexID(None, y) = %v %v %v", uid, found, err)
		}
		must(tx.Commit())

		// Concurrent transactions giving the same ID the same label: only
		// one commits.
		t1, _ := db.StartTransaction()
		t2, _ := db.StartTransaction()
		v1, _ := t1.CreateVertex([]byte("z"))
		v2, _ := t2.CreateVertex([]byte("z"))
		must(v1.AddLabel(s.person))
		must(v2.AddLabel(s.person))
		must(t1.Commit())
		if err := wantCode(t2.Commit(), gdi.ErrTransactionCommitFail, "second z"); err != nil {
			return err
		}
		return nil
	})
}

func TestConflictsAreSerializable(t *testing.T) {
	run(t, 1, func(comm rma.Comm, db gdi.Database) error {
		s := makeSchema(comm, db)
		tx, _ := db.StartTransaction()
		v, _ := tx.CreateVertex([]byte("counter"))
		must(v.AddLabel(s.person))
		must(v.AddProperty(s.age, gdi.Int64s(0)))
		uid, _ := v.UID()
		must(tx.Commit())

		// Many goroutines increment the counter; each retries until it
		// commits. Lost updates would show in the final value.
		const workers, rounds = 4, 25
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := 0; r < rounds; {
					tx, _ := db.StartTransaction()
					v, err := tx.AssociateVertex(uid)
					if err != nil {
						tx.Abort()
						continue
					}
					vals, _ := v.Properties(s.age)
					x, _ := vals[0].Int64Slice()
					_ = v.UpdateProperty(s.age, gdi.Int64s(x[0]+1))
					if tx.Commit() == nil {
						r++
					}
				}
			}()
		}
		wg.Wait()
		tx, _ = db.StartTransaction()
		defer tx.Abort()
		v, _ = tx.AssociateVertex(uid)
		vals, _ := v.Properties(s.age)
		if vals[0] != gdi.Int64s(workers*rounds) {
			return fmt.Errorf("counter %v, want %d", vals[0], workers*rounds)
		}

		// A phantom: t1 counts Persons, t2 adds one and commits; t1 wrote
		// based on its count, so it must not commit.
		idx, _ := db.CreateIndex(gdi.HashTableIndex, 0)
		must(idx.AddLabel(s.person))
		t1, _ := db.StartTransaction()
		n1, _ := t1.VerticesOfIndex(idx, nil)
		t2, _ := db.StartTransaction()
		p, _ := t2.CreateVertex([]byte("new"))
		must(p.AddLabel(s.person))
		must(t2.Commit())
		w, _ := t1.CreateVertex([]byte(fmt.Sprint(len(n1))))
		must(w.AddLabel(s.knows))
		return wantCode(t1.Commit(), gdi.ErrTransactionCommitFail, "phantom")
	})
}

func TestCollectiveReadTransaction(t *testing.T) {
	run(t, 4, func(comm rma.Comm, db gdi.Database) error {
		s := makeSchema(comm, db)
		idx, _ := db.CreateIndex(gdi.BTreeIndex, 0)
		must(idx.AddLabel(s.person))
		tx, _ := db.StartTransaction()
		for i := 0; i < 3; i++ {
			v, _ := tx.CreateVertex([]byte(fmt.Sprintf("%d-%d", comm.Rank(), i)))
			must(v.AddLabel(s.person))
		}
		must(tx.Commit())
		must(comm.Barrier())

		ct, err := db.StartCollectiveTransaction()
		must(err)
		mine, _ := ct.LocalVerticesOfIndex(idx, nil)
		all, _ := ct.VerticesOfIndex(idx, nil)
		if len(mine) != 3 || len(all) != 3*comm.Size() {
			return fmt.Errorf("local %d, global %d", len(mine), len(all))
		}
		for _, u := range mine {
			if !slices.Contains(all, u) {
				return fmt.Errorf("local %v not in the global result", u)
			}
		}
		if _, err := ct.CreateVertex(nil); !errors.Is(err, gdi.ErrReadOnlyTransaction) {
			return fmt.Errorf("write in a collective transaction: %v", err)
		}
		if _, err := db.StartTransaction(); !errors.Is(err, gdi.ErrConsistency) {
			return fmt.Errorf("StartTransaction during a collective one: %v", err)
		}
		// Rank 1 aborts: everybody's commit fails.
		if comm.Rank() == 1 {
			return ct.Abort()
		}
		return wantCode(ct.Commit(), gdi.ErrTransactionCommitFail, "commit after an abort elsewhere")
	})
}

func TestBadHandles(t *testing.T) {
	run(t, 2, func(comm rma.Comm, db gdi.Database) error {
		s := makeSchema(comm, db)
		// Handles of rank 0 are of another Database on rank 1: share them
		// through a channel-free trick: recreate the handle with a tag that
		// is not this database's.
		other, err := refdb.Driver{}.CreateDatabase(comm, nil)
		must(err)
		defer other.Free()
		foreign, _ := other.CreateLabel("Person")
		tx, _ := db.StartTransaction()
		defer tx.Abort()
		v, _ := tx.CreateVertex(nil)
		if err := wantCode(v.AddLabel(foreign), gdi.ErrObjectMismatch, "label of another database"); err != nil {
			return err
		}
		if err := wantCode(v.AddLabel(gdi.LabelNull), gdi.ErrLabel, "null label"); err != nil {
			return err
		}
		if err := wantCode(v.AddProperty(s.age, gdi.Int32s(1)), gdi.ErrDatatype, "wrong datatype"); err != nil {
			return err
		}
		if err := wantCode(v.AddProperty(s.name, gdi.Chars("a name that is far too long")), gdi.ErrSizeLimit, "oversize"); err != nil {
			return err
		}
		if err := wantCode(v.SetProperty(gdi.PropertyTypeDegree, gdi.Uint64s(3)), gdi.ErrReadOnlyPropertyType, "degree"); err != nil {
			return err
		}
		if _, err := v.Edges(0, nil); !errors.Is(err, gdi.ErrEdgeOrientation) {
			return fmt.Errorf("orientation 0: %v", err)
		}
		ot, _ := other.StartTransaction()
		defer ot.Abort()
		w, _ := ot.CreateVertex(nil)
		if _, err := tx.CreateEdge(gdi.Directed, v, w); !errors.Is(err, gdi.ErrObjectMismatch) {
			return fmt.Errorf("edge across transactions: %v", err)
		}
		if _, err := tx.AssociateVertex(12345); !errors.Is(err, gdi.ErrObjectMismatch) && !errors.Is(err, gdi.ErrUID) {
			return fmt.Errorf("bogus UID: %v", err)
		}
		wu, _ := w.UID()
		if _, err := tx.AssociateVertex(wu); !errors.Is(err, gdi.ErrObjectMismatch) {
			return fmt.Errorf("UID of another database: %v", err)
		}
		if _, err := db.CreateLabel("GDI_LABEL_NONE"); !errors.Is(err, gdi.ErrNameExists) {
			return fmt.Errorf("predefined name: %v", err)
		}
		return nil
	})
}

func TestStaleConstraints(t *testing.T) {
	run(t, 2, func(comm rma.Comm, db gdi.Database) error {
		s := makeSchema(comm, db)
		sc, _ := db.CreateSubconstraint()
		must(sc.AddLabelCondition(s.knows, gdi.Equal))
		must(sc.AddPropertyCondition(s.age, gdi.Greater, gdi.Int64s(30)))
		c, _ := db.CreateConstraint()
		must(c.AddSubconstraint(sc))
		rw := db.(gdi.MetadataRewriter)
		must(rw.UpdatePropertyType(s.age, gdi.PropertyTypeInfo{Name: "age", Entity: gdi.SingleEntity, Datatype: gdi.Int32, Size: gdi.FixedSize, Count: 1}, gdi.Value{}))
		if stale, _ := c.IsStale(); !stale {
			return errors.New("constraint not stale after UpdatePropertyType")
		}
		if err := wantCode(sc.AddLabelCondition(s.person, gdi.Equal), gdi.ErrStale, "extend stale"); err != nil {
			return err
		}
		if lcs, _ := sc.LabelConditions(); len(lcs) != 1 {
			return fmt.Errorf("label conditions %v", lcs)
		}
		if pts, _ := sc.PropertyTypes(); len(pts) != 0 {
			return fmt.Errorf("stale property conditions listed: %v", pts)
		}
		must(rw.FreeLabel(s.knows))
		if _, err := db.LabelName(s.knows); !errors.Is(err, gdi.ErrLabel) {
			return fmt.Errorf("freed label: %v", err)
		}
		tx, _ := db.StartTransaction()
		defer tx.Abort()
		v, _ := tx.CreateVertex(nil)
		_, err := v.Edges(gdi.EdgeAll, c)
		return wantCode(err, gdi.ErrStale, "query with a stale constraint")
	})
}

// splitComm makes the ranks believe they are separate processes: every
// rank but 0 gets a store number that does not exist.
type splitComm struct{ rma.Comm }

func (c splitComm) Bcast(buf []byte, root int) error {
	err := c.Comm.Bcast(buf, root)
	if c.Rank() != root {
		for i := range buf {
			buf[i] = 0xff
		}
	}
	return err
}

func TestNotOneProcess(t *testing.T) {
	err := local.Run(2, func(comm rma.Comm) error {
		_, err := refdb.Driver{}.CreateDatabase(splitComm{comm}, nil)
		if !gdi.Failed(err) {
			return errors.New("CreateDatabase succeeded across processes")
		}
		_, err = refdb.Driver{}.CreateDatabase(comm, 42)
		return wantCode(err, gdi.ErrArgument, "unknown params")
	})
	if err != nil {
		t.Fatal(err)
	}
}
