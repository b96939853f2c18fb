package conformance

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gdi-go/gdi/gdi"
)

var transactionCases = []Case{
	c("Transaction/type-and-list", txTypeList),
	c("Transaction/several-open-on-one-rank", txSeveralOpen),
	c("Transaction/commit-after-critical-error-fails", txCriticalCommitFails),
	c("Transaction/serializable-counter-across-ranks", txCounter),
	c("Transaction/no-dirty-or-torn-reads", txNoDirtyReads),
	c("Transaction/failed-commit-leaves-no-trace", txFailedCommitNoTrace),
	c("Transaction/collective-type-and-read-only", txCollectiveReadOnly),
	c("Transaction/collective-all-agree-on-abort", txCollectiveAgree),
	c("Transaction/collective-critical-error-on-one-rank-fails-all", txCollectiveCritical),
	c("Transaction/collective-uids-shared-between-ranks", txCollectiveUIDs),
	c("Transaction/collective-barrier-semantics", txCollectiveBarrier),
	c("Transaction/collective-start-needs-quiet-rank", txCollectiveQuiet),
	c("Transaction/nil-holders-and-uids", txNilArgs),
}

func txTypeList(e *Env) {
	tx := e.tx()
	if t := must(tx.Type()); t != gdi.SingleProcessTransaction {
		failf("Type = %v", t)
	}
	sameSet(must(e.DB.Transactions()), []gdi.Transaction{tx}, "Transactions()")
	commit(tx)
	sameSet(must(e.DB.Transactions()), nil, "Transactions() after commit")
	ct := must(e.DB.StartCollectiveTransaction())
	if t := must(ct.Type()); t != gdi.CollectiveReadTransaction {
		failf("Type = %v", t)
	}
	sameSet(must(e.DB.Transactions()), []gdi.Transaction{ct}, "Transactions() in a collective transaction")
	commit(ct)
	sameSet(must(e.DB.Transactions()), nil, "Transactions() after the collective commit")
}

func txSeveralOpen(e *Env) {
	a := e.label("A")
	e.barrier()
	const n = 4
	for g := 0; g < n; g++ {
		e.Go(func() {
			tx := e.tx()
			vertex(tx, e.id(fmt.Sprint("g", g)), ls(a))
			time.Sleep(time.Millisecond)
			commit(tx)
		})
	}
	e.Wait()
	t1, t2 := e.tx(), e.tx()
	if t1 == t2 {
		failf("two transactions are the same value")
	}
	sameSet(must(e.DB.Transactions()), []gdi.Transaction{t1, t2}, "Transactions() with two open")
	okf(t1.Abort(), "Abort")
	commit(t2)
	e.barrier()
	e.view(func(tx gdi.Transaction) {
		for r := 0; r < e.Size(); r++ {
			for g := 0; g < n; g++ {
				translate(tx, a, idOf(r, fmt.Sprint("g", g)))
			}
		}
	})
}

// txCriticalCommitFails: after a transaction-critical error, Commit
// returns ErrTransactionCommitFail, ends the transaction and applies
// nothing (spec 11.1, 13). The critical error is provoked with a
// conflict: one transaction reads a vertex and its edge, another deletes
// the edge's other end and commits, then the first uses the edge.
func txCriticalCommitFails(e *Env) {
	a := e.label("A")
	mark := e.single("mark", gdi.Int8)
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		x := vertex(tx, e.id("a"), ls(a), prop{mark, gdi.Int8s(0)})
		y := vertex(tx, e.id("b"), ls(a))
		edge(tx, gdi.Directed, x, y, gdi.PropertyTypeNull, "")
	})
	var crit gdi.Transaction
	check := func(tx gdi.Transaction, err error) bool {
		if gdi.IsTransactionCritical(err) {
			crit = tx
			return true
		}
		return false
	}
	t1 := e.tx()
	vertex(t1, e.id("marker1"), ls(a))
	x := find(t1, a, e.id("a"))
	okf(x.SetProperty(mark, gdi.Int8s(1)), "SetProperty in t1")
	edges, err := x.Edges(gdi.EdgeAll, nil)
	okf(err, "Edges in t1")
	t2 := e.tx()
	vertex(t2, e.id("marker2"), ls(a))
	var yh gdi.VertexHolder
	uid, found, err := t2.TranslateVertexID(a, e.id("b"))
	if !check(t2, err) {
		okf(err, "TranslateVertexID in t2")
		if !found {
			failf("b not found")
		}
		yh, err = t2.AssociateVertex(uid)
		if !check(t2, err) {
			okf(err, "AssociateVertex in t2")
			if err := yh.Free(); !check(t2, err) {
				okf(err, "Free in t2")
				err := t2.Commit()
				if err != nil {
					is(err, gdi.ErrTransactionCommitFail, "Commit of t2")
				}
			}
		}
	}
	if crit == nil {
		h, err := t1.AssociateEdge(edges[0])
		if !check(t1, err) && err == nil {
			var target gdi.VertexUID
			_, target, err = h.Vertices()
			if !check(t1, err) && err == nil {
				var w gdi.VertexHolder
				w, err = t1.AssociateVertex(target)
				if !check(t1, err) && err == nil {
					_, err = w.Labels()
					check(t1, err)
				}
			}
		}
	}
	if crit == nil {
		abortQuietly(t1)
		abortQuietly(t2)
		e.Skipf("could not provoke a transaction-critical error with a conflicting delete")
	}
	other := t1
	if crit == t1 {
		other = t2
	}
	abortQuietly(other)
	err = crit.Commit()
	is(err, gdi.ErrTransactionCommitFail, "Commit after a transaction-critical error")
	is(crit.Commit(), gdi.ErrTransaction, "the transaction ended with the failed commit")
	for _, t := range must(e.DB.Transactions()) {
		if t == crit {
			failf("Transactions() lists a transaction whose commit failed")
		}
	}
	e.view(func(tx gdi.Transaction) {
		marker := "marker1"
		if crit == t2 {
			marker = "marker2"
		}
		if exists(tx, a, e.id(marker)) {
			failf("a vertex created before the critical error was committed")
		}
		if crit == t1 {
			if vs := values(find(tx, a, e.id("a")), mark); len(vs) != 1 || vs[0] != gdi.Int8s(0) {
				failf("a property set before the critical error was committed: %v", vs)
			}
		}
	})
}

// counter reads the Int64 property p of the vertex, or fails the attempt.
func readCounter(tx gdi.Transaction, l gdi.Label, id []byte, p gdi.PropertyType) (gdi.VertexHolder, int64, error) {
	uid, found, err := tx.TranslateVertexID(l, id)
	if err != nil {
		return nil, 0, err
	}
	if !found {
		return nil, 0, gdi.Errorf(gdi.ErrTransactionCritical, "counter vertex not found")
	}
	v, err := tx.AssociateVertex(uid)
	if err != nil {
		return nil, 0, err
	}
	vs, err := v.Properties(p)
	if err != nil {
		return nil, 0, err
	}
	if len(vs) != 1 {
		fatal(1, "counter has %d values", len(vs))
	}
	x, _ := vs[0].Int64Slice()
	return v, x[0], nil
}

// txCounter: increments of one counter by goroutines of all ranks, each
// a read-modify-write transaction retried until it commits, are never
// lost: the committed transactions are serializable.
func txCounter(e *Env) {
	a := e.label("A")
	cnt := e.single("count", gdi.Int64)
	e.barrier()
	if e.Rank() == 0 {
		e.update(func(tx gdi.Transaction) { vertex(tx, []byte("counter"), ls(a), prop{cnt, gdi.Int64s(0)}) })
	}
	e.barrier()
	const workers, rounds = 2, 5
	for g := 0; g < workers; g++ {
		e.Go(func() {
			for i := 0; i < rounds; i++ {
				e.retry("increment", func(tx gdi.Transaction) error {
					v, x, err := readCounter(tx, a, []byte("counter"), cnt)
					if err != nil {
						return err
					}
					return v.SetProperty(cnt, gdi.Int64s(x+1))
				})
			}
		})
	}
	e.Wait()
	e.barrier()
	e.view(func(tx gdi.Transaction) {
		_, x, err := readCounter(tx, a, []byte("counter"), cnt)
		okf(err, "read counter")
		if want := int64(e.Size() * workers * rounds); x != want {
			failf("counter = %d after %d committed increments: updates were lost", x, want)
		}
	})
	e.barrier()
}

// txNoDirtyReads: writers keep two properties of a vertex equal, writing
// them one after the other; readers on every rank that commit never saw
// them differ (no uncommitted or torn state is visible to a transaction
// that commits).
func txNoDirtyReads(e *Env) {
	a := e.label("A")
	x, y := e.single("x", gdi.Int64), e.single("y", gdi.Int64)
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		vertex(tx, e.id("pair"), ls(a), prop{x, gdi.Int64s(0)}, prop{y, gdi.Int64s(0)})
	})
	e.barrier()
	var stop atomic.Bool
	e.Go(func() {
		for i := int64(1); i <= 20; i++ {
			e.retry("write pair", func(tx gdi.Transaction) error {
				uid, found, err := tx.TranslateVertexID(a, e.id("pair"))
				if err != nil || !found {
					return err
				}
				v, err := tx.AssociateVertex(uid)
				if err != nil {
					return err
				}
				if err := v.SetProperty(x, gdi.Int64s(i)); err != nil {
					return err
				}
				time.Sleep(50 * time.Microsecond)
				return v.SetProperty(y, gdi.Int64s(i))
			})
		}
		// An aborted write must never be seen either.
		tx := e.tx()
		v := find(tx, a, e.id("pair"))
		okf(v.SetProperty(x, gdi.Int64s(-1)), "SetProperty")
		okf(v.SetProperty(y, gdi.Int64s(-1)), "SetProperty")
		time.Sleep(time.Millisecond)
		okf(tx.Abort(), "Abort")
		stop.Store(true)
	})
	reads := 0
	for !stop.Load() || reads < 5 {
		reads++
		target := reads % e.Size()
		tx := e.tx()
		uid, found, err := tx.TranslateVertexID(a, idOf(target, "pair"))
		if err == nil && found {
			var v gdi.VertexHolder
			v, err = tx.AssociateVertex(uid)
			if err == nil {
				var xs, ys []gdi.Value
				xs, err = v.Properties(x)
				if err == nil {
					ys, err = v.Properties(y)
				}
				if err == nil {
					if cerr := tx.Commit(); cerr == nil {
						if len(xs) != 1 || len(ys) != 1 || xs[0] != ys[0] {
							failf("a committed reader saw x=%v y=%v of rank %d's pair", xs, ys, target)
						}
						if xs[0] == gdi.Int64s(-1) {
							failf("a committed reader saw the values of an aborted transaction")
						}
						continue
					} else {
						is(cerr, gdi.ErrTransactionCommitFail, "reader Commit")
						continue
					}
				}
			}
		}
		if err != nil && !gdi.IsTransactionCritical(err) {
			failf("reader: %v", err)
		}
		abortQuietly(tx)
	}
	e.Wait()
	e.barrier()
}

// txFailedCommitNoTrace: transactions that conflict and fail to commit
// leave nothing behind: every attempt creates a marker vertex and bumps a
// shared counter; in the end there are exactly as many markers as
// successful commits, and the counter equals that number.
func txFailedCommitNoTrace(e *Env) {
	a := e.label("A")
	m := e.label("Marker")
	cnt := e.single("count", gdi.Int64)
	e.barrier()
	if e.Rank() == 0 {
		e.update(func(tx gdi.Transaction) { vertex(tx, []byte("counter"), ls(a), prop{cnt, gdi.Int64s(0)}) })
	}
	e.barrier()
	var attempts, commits atomic.Int64
	for g := 0; g < 3; g++ {
		e.Go(func() {
			for i := 0; i < 4; i++ {
				tx := e.tx()
				n := attempts.Add(1)
				vertex(tx, e.id(fmt.Sprint("attempt", g, "-", n)), ls(m))
				v, x, err := readCounter(tx, a, []byte("counter"), cnt)
				if err == nil {
					time.Sleep(100 * time.Microsecond)
					err = v.SetProperty(cnt, gdi.Int64s(x+1))
				}
				if err != nil {
					if !gdi.IsTransactionCritical(err) {
						failf("attempt: %v", err)
					}
					is(tx.Commit(), gdi.ErrTransactionCommitFail, "Commit after a critical error")
					continue
				}
				if err := tx.Commit(); err == nil {
					commits.Add(1)
				} else {
					is(err, gdi.ErrTransactionCommitFail, "Commit")
				}
			}
		})
	}
	e.Wait()
	total := e.sum(int(commits.Load()))
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(m), "AddLabel")
	e.view(func(tx gdi.Transaction) {
		_, x, err := readCounter(tx, a, []byte("counter"), cnt)
		okf(err, "read counter")
		if int(x) != total {
			failf("counter = %d, but %d transactions committed", x, total)
		}
		if n := len(must(tx.VerticesOfIndex(idx, nil))); n != total {
			failf("%d marker vertices, but %d transactions committed (failed commits left traces or commits were lost)", n, total)
		}
	})
	e.barrier()
}

func txCollectiveReadOnly(e *Env) {
	a := e.label("A")
	p := e.single("p", gdi.Int8)
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		x := vertex(tx, e.id("x"), ls(a), prop{p, gdi.Int8s(1)})
		y := vertex(tx, e.id("y"), ls(a))
		edge(tx, gdi.Directed, x, y, gdi.PropertyTypeNull, "")
	})
	e.barrier()
	tx := must(e.DB.StartCollectiveTransaction())
	_, err := tx.CreateVertex(e.id("new"))
	is(err, gdi.ErrReadOnlyTransaction, "CreateVertex in a collective read transaction")
	x := find(tx, a, e.id("x"))
	y := find(tx, a, e.id("y"))
	is(x.AddLabel(a), gdi.ErrReadOnlyTransaction, "AddLabel")
	is(x.RemoveLabel(a), gdi.ErrReadOnlyTransaction, "RemoveLabel")
	is(x.AddProperty(p, gdi.Int8s(2)), gdi.ErrReadOnlyTransaction, "AddProperty")
	is(x.SetProperty(p, gdi.Int8s(2)), gdi.ErrReadOnlyTransaction, "SetProperty")
	is(x.UpdateProperty(p, gdi.Int8s(2)), gdi.ErrReadOnlyTransaction, "UpdateProperty")
	is(x.RemoveProperties(p), gdi.ErrReadOnlyTransaction, "RemoveProperties")
	is(x.RemoveProperty(p, gdi.Int8s(1)), gdi.ErrReadOnlyTransaction, "RemoveProperty")
	is(x.UpdateSpecificProperty(p, gdi.Int8s(1), gdi.Int8s(3)), gdi.ErrReadOnlyTransaction, "UpdateSpecificProperty")
	_, err = tx.CreateEdge(gdi.Directed, x, y)
	is(err, gdi.ErrReadOnlyTransaction, "CreateEdge")
	h := must(tx.AssociateEdge(must(x.Edges(gdi.EdgeAll, nil))[0]))
	is(h.SetDirection(gdi.Undirected), gdi.ErrReadOnlyTransaction, "SetDirection")
	is(h.SetTarget(x), gdi.ErrReadOnlyTransaction, "SetTarget")
	is(h.SetOrigin(y), gdi.ErrReadOnlyTransaction, "SetOrigin")
	is(h.AddLabel(a), gdi.ErrReadOnlyTransaction, "edge AddLabel")
	is(h.Free(), gdi.ErrReadOnlyTransaction, "FreeEdge")
	is(x.Free(), gdi.ErrReadOnlyTransaction, "FreeVertex")
	// Reads still work and ErrReadOnlyTransaction is not critical.
	sameSet(values(x, p), []gdi.Value{gdi.Int8s(1)}, "values in the collective transaction")
	if n := len(must(x.Edges(gdi.EdgeAll, nil))); n != 1 {
		failf("x has %d edges, want 1", n)
	}
	commit(tx)
	e.view(func(tx gdi.Transaction) {
		if exists(tx, a, e.id("new")) {
			failf("a collective read transaction created a vertex")
		}
		sameSet(values(find(tx, a, e.id("x")), p), []gdi.Value{gdi.Int8s(1)}, "values after the collective transaction")
	})
}

// txCollectiveAgree: if one rank aborts a collective transaction, every
// rank that asked to commit gets ErrTransactionCommitFail (spec 11.2).
func txCollectiveAgree(e *Env) {
	tx := must(e.DB.StartCollectiveTransaction())
	if e.Rank() == 0 {
		noErr(tx.Abort(), "Abort of the collective transaction")
	} else {
		is(tx.Commit(), gdi.ErrTransactionCommitFail, "Commit while rank 0 aborts")
	}
	is(tx.Commit(), gdi.ErrTransaction, "Commit of an ended collective transaction")
	tx = must(e.DB.StartCollectiveTransaction())
	noErr(tx.Commit(), "Commit when every rank commits")
	// A rank that hit a transaction-critical error cannot be forced by
	// the others: covered by Transaction/commit-after-critical-error-fails
	// for single-process transactions.
	tx = must(e.DB.StartCollectiveTransaction())
	last := e.Size() - 1
	if e.Rank() == last {
		noErr(tx.Abort(), "Abort by the last rank")
	} else {
		is(tx.Commit(), gdi.ErrTransactionCommitFail, "Commit while the last rank aborts")
	}
}

// txCollectiveCritical: a transaction-critical error on one rank of a
// collective read transaction makes its commit fail on every rank (spec
// 11.2: the collective commit fails if any process met one), and the
// next collective transaction commits.
func txCollectiveCritical(e *Env) {
	if e.backend.InjectCritical == nil {
		e.Skipf("%s gives no InjectCritical", e.backend.Name)
	}
	tx := must(e.DB.StartCollectiveTransaction())
	if e.Rank() == e.Size()-1 {
		critical(e.backend.InjectCritical(tx), "InjectCritical")
	}
	is(tx.Commit(), gdi.ErrTransactionCommitFail, "Commit of a collective transaction in which the last rank met a transaction-critical error")
	tx = must(e.DB.StartCollectiveTransaction())
	noErr(tx.Commit(), "Commit of the next collective transaction")
}

// txCollectiveUIDs: UIDs obtained in a collective read transaction can be
// sent to other ranks and used there.
func txCollectiveUIDs(e *Env) {
	a := e.label("A")
	name := e.single("name", gdi.Char)
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		x := vertex(tx, e.id("x"), ls(a))
		y := vertex(tx, e.id("y"), ls(a))
		edge(tx, gdi.Directed, x, y, name, string(e.id("xy")))
	})
	e.barrier()
	tx := must(e.DB.StartCollectiveTransaction())
	v := find(tx, a, e.id("x"))
	eu := must(v.Edges(gdi.EdgeOutgoing, nil))
	if len(eu) != 1 {
		failf("%d outgoing edges", len(eu))
	}
	buf := binary.LittleEndian.AppendUint64(nil, uint64(vuid(v)))
	buf = binary.LittleEndian.AppendUint64(buf, eu[0][0])
	buf = binary.LittleEndian.AppendUint64(buf, eu[0][1])
	all, err := e.Comm.Allgatherv(buf)
	okf(err, "Allgatherv")
	for r, b := range all {
		u := gdi.VertexUID(binary.LittleEndian.Uint64(b))
		ids := idsOfVertices(tx, []gdi.VertexUID{u})
		sameStrings(ids, []string{string(idOf(r, "x"))}, "vertex of rank %d from its UID", r)
		ed := gdi.EdgeUID{binary.LittleEndian.Uint64(b[8:]), binary.LittleEndian.Uint64(b[16:])}
		sameStrings(edgeNames(tx, name, []gdi.EdgeUID{ed}), []string{string(idOf(r, "xy"))}, "edge of rank %d from its UID", r)
	}
	commit(tx)
}

// txCollectiveBarrier: StartCollectiveTransaction and the collective
// commit return only after every rank has entered them.
func txCollectiveBarrier(e *Env) {
	var entered atomic.Int64
	counters := e.publish("counter", &entered)
	c := counters[0].(*atomic.Int64)
	local := e.ranksInProcess()
	for round := 1; round <= 2; round++ {
		if e.Rank() == 0 {
			time.Sleep(20 * time.Millisecond)
		}
		c.Add(1)
		tx := must(e.DB.StartCollectiveTransaction())
		if got := c.Load(); got < int64(round*local) {
			failf("StartCollectiveTransaction returned when %d of %d ranks had entered", got-int64((round-1)*local), local)
		}
		if e.Rank() == 0 {
			time.Sleep(20 * time.Millisecond)
		}
		c.Add(1)
		commit(tx)
		if got := c.Load(); got < int64(round*local+local) {
			failf("collective Commit returned when not every rank had entered")
		}
		e.barrier()
		if e.Rank() == 0 {
			c.Add(int64(-local))
		}
		e.barrier()
	}
}

// txCollectiveQuiet: a collective read transaction needs a quiet database;
// a rank with an open transaction gets ErrConsistency, and no
// single-process transaction starts while a collective one is open.
func txCollectiveQuiet(e *Env) {
	tx := e.tx()
	_, err := e.DB.StartCollectiveTransaction()
	is(err, gdi.ErrConsistency, "StartCollectiveTransaction with a transaction open on every rank")
	okf(tx.Abort(), "Abort")
	ct := must(e.DB.StartCollectiveTransaction())
	_, err = e.DB.StartTransaction()
	is(err, gdi.ErrConsistency, "StartTransaction during a collective read transaction")
	commit(ct)
}

func txNilArgs(e *Env) {
	e.view(func(tx gdi.Transaction) {
		v := vertex(tx, nil, nil)
		_, err := tx.CreateEdge(gdi.Directed, v, nil)
		if !errors.Is(err, gdi.ErrVertex) {
			failf("CreateEdge(nil target) = %v, want ErrVertex", err)
		}
		_, err = tx.AssociateVertex(0)
		is(err, gdi.ErrUID, "AssociateVertex(0)")
		_, err = tx.AssociateEdge(gdi.EdgeUID{})
		is(err, gdi.ErrUID, "AssociateEdge(zero)")
	})
}
