package gdirma_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

// run starts n ranks, each creating a database with p and running fn.
func run(t testing.TB, n int, p gdirma.Params, fn func(c rma.Comm, db gdi.Database) error) {
	t.Helper()
	err := launch.Run(n, func(c rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(c, p)
		if err != nil {
			return err
		}
		if err := fn(c, db); err != nil {
			return fmt.Errorf("rank %d: %w", c.Rank(), err)
		}
		return db.Free()
	})
	if errors.Is(err, rma.ErrRanks) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func TestParams(t *testing.T) {
	run(t, 1, gdirma.Params{}, func(c rma.Comm, db gdi.Database) error { return nil })
	for _, p := range []any{
		gdirma.Params{BlockSize: 32},
		gdirma.Params{BlockSize: 8192},
		gdirma.Params{BlockSize: 100},
		gdirma.Params{MemoryPerRank: 64},
		gdirma.Params{DHTBuckets: -1},
		"params",
	} {
		err := launch.Run(2, func(c rma.Comm) error {
			db, err := gdirma.Driver{}.CreateDatabase(c, p)
			if err == nil {
				db.Free()
				return fmt.Errorf("CreateDatabase(%v) succeeded", p)
			}
			if gdi.ErrorClass(err) != gdi.ErrArgument {
				return fmt.Errorf("CreateDatabase(%v): %v, want ErrArgument", p, err)
			}
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	}
}

// TestOutOfMemory fills a tiny database until blocks run out: creation or
// commit must fail with a gdi error, and what was committed stays intact.
func TestOutOfMemory(t *testing.T) {
	run(t, 2, gdirma.Params{BlockSize: 64, MemoryPerRank: 64 * 40, DHTEntries: 64}, func(c rma.Comm, db gdi.Database) error {
		l, err := db.CreateLabel("L")
		if err != nil {
			return err
		}
		var committed []string
		var failed error
		for i := 0; i < 200 && failed == nil; i++ {
			tx, err := db.StartTransaction()
			if err != nil {
				return err
			}
			id := fmt.Sprintf("r%d-v%d-with-a-long-enough-id-%d", c.Rank(), i, i)
			v, err := tx.CreateVertex([]byte(id))
			if err != nil {
				failed = err
				tx.Abort()
				break
			}
			if err := v.AddLabel(l); err != nil {
				return err
			}
			if err := tx.Commit(); err != nil {
				failed = err
				break
			}
			committed = append(committed, id)
		}
		if failed == nil {
			return fmt.Errorf("200 vertices fit in 80 blocks")
		}
		t.Logf("rank %d: %d vertices committed, then %v", c.Rank(), len(committed), failed)
		if c := gdi.ErrorClass(failed); c != gdi.ErrNoMemory && c != gdi.ErrTransactionCommitFail {
			return fmt.Errorf("out of blocks: %v", failed)
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		for _, id := range committed {
			uid, ok, err := tx.TranslateVertexID(l, []byte(id))
			if err != nil || !ok {
				return fmt.Errorf("vertex %s lost: %v", id, err)
			}
			if _, err := tx.AssociateVertex(uid); err != nil {
				return err
			}
		}
		return tx.Commit()
	})
}

// TestSerializability moves amounts between accounts (an Int64 property
// of vertices spread over all ranks) from many goroutines on every rank,
// while other goroutines sum all accounts. Every committed read must see
// the initial total, and so must the end state.
func TestSerializability(t *testing.T) {
	ranks, workers, transfers, accounts := 4, 4, 60, 16
	if testing.Short() {
		ranks, workers, transfers = 2, 3, 25
	}
	const initial = 100
	run(t, ranks, gdirma.Params{BlockSize: 64, MemoryPerRank: 1 << 20}, func(c rma.Comm, db gdi.Database) error {
		acct, err := db.CreateLabel("Account")
		if err != nil {
			return err
		}
		bal, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "balance", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
		if err != nil {
			return err
		}
		// Each rank creates its share of the accounts.
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		for i := c.Rank(); i < accounts; i += c.Size() {
			v, err := tx.CreateVertex([]byte(fmt.Sprintf("acct%d", i)))
			if err != nil {
				return err
			}
			if err := v.AddLabel(acct); err != nil {
				return err
			}
			if err := v.AddProperty(bal, gdi.Int64s(initial)); err != nil {
				return err
			}
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		balance := func(tx gdi.Transaction, i int) (gdi.VertexHolder, int64, error) {
			uid, ok, err := tx.TranslateVertexID(acct, []byte(fmt.Sprintf("acct%d", i)))
			if err != nil {
				return nil, 0, err
			}
			if !ok {
				return nil, 0, fmt.Errorf("account %d not found", i)
			}
			v, err := tx.AssociateVertex(uid)
			if err != nil {
				return nil, 0, err
			}
			vals, err := v.Properties(bal)
			if err != nil {
				return nil, 0, err
			}
			if len(vals) != 1 {
				return nil, 0, fmt.Errorf("account %d has %d balances", i, len(vals))
			}
			xs, err := vals[0].Int64Slice()
			return v, xs[0], err
		}
		// recoverable: the transaction lost a race and may be retried.
		recoverable := func(err error) bool {
			c := gdi.ErrorClass(err)
			return c == gdi.ErrTransactionCritical || c == gdi.ErrTransactionCommitFail
		}
		var wg sync.WaitGroup
		var commits, reads atomic.Int64
		errs := make(chan error, 2*workers)
		for w := range workers {
			wg.Add(2)
			go func() { // transfers
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(c.Rank()), uint64(w)))
				for range transfers {
					a, b := rng.IntN(accounts), rng.IntN(accounts)
					if a == b {
						continue
					}
					amount := int64(rng.IntN(10))
					err := func() error {
						tx, err := db.StartTransaction()
						if err != nil {
							return err
						}
						va, xa, err := balance(tx, a)
						if err == nil {
							var vb gdi.VertexHolder
							var xb int64
							vb, xb, err = balance(tx, b)
							if err == nil {
								err = va.UpdateProperty(bal, gdi.Int64s(xa-amount))
							}
							if err == nil {
								err = vb.UpdateProperty(bal, gdi.Int64s(xb+amount))
							}
						}
						if err != nil {
							tx.Abort()
							return err
						}
						if err := tx.Commit(); err != nil {
							return err
						}
						commits.Add(1)
						return nil
					}()
					if err != nil && !recoverable(err) {
						errs <- err
						return
					}
				}
			}()
			go func() { // audits
				defer wg.Done()
				for range transfers / 2 {
					tx, err := db.StartTransaction()
					if err != nil {
						errs <- err
						return
					}
					var sum int64
					for i := range accounts {
						_, x, err := balance(tx, i)
						if err != nil {
							break
						}
						sum += x
					}
					err = tx.Commit()
					if err == nil && sum != int64(accounts*initial) {
						errs <- fmt.Errorf("a committed read saw a total of %d, want %d", sum, accounts*initial)
						return
					}
					if err != nil && !recoverable(err) {
						errs <- err
						return
					}
					if err == nil {
						reads.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			return err
		}
		t.Logf("rank %d: %d transfers and %d audits committed", c.Rank(), commits.Load(), reads.Load())
		if commits.Load() == 0 || reads.Load() == 0 {
			return fmt.Errorf("%d transfers and %d audits committed", commits.Load(), reads.Load())
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		tx, err = db.StartTransaction()
		if err != nil {
			return err
		}
		var sum int64
		for i := range accounts {
			_, x, err := balance(tx, i)
			if err != nil {
				return err
			}
			sum += x
		}
		if sum != int64(accounts*initial) {
			return fmt.Errorf("final total %d, want %d", sum, accounts*initial)
		}
		return tx.Commit()
	})
}

// TestBadUIDs feeds random and foreign UIDs to the association calls: each
// must fail with a gdi error, never panic, and leave the data intact.
func TestBadUIDs(t *testing.T) {
	run(t, 2, gdirma.Params{BlockSize: 64, MemoryPerRank: 1 << 16}, func(c rma.Comm, db gdi.Database) error {
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		x, err := tx.CreateVertex([]byte(fmt.Sprintf("x%d", c.Rank())))
		if err != nil {
			return err
		}
		y, err := tx.CreateVertex(nil)
		if err != nil {
			return err
		}
		e, err := tx.CreateEdge(gdi.Directed, x, y)
		if err != nil {
			return err
		}
		vu, _ := x.UID()
		eu, _ := e.UID()
		if err := tx.Commit(); err != nil {
			return err
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		tx, err = db.StartTransaction()
		if err != nil {
			return err
		}
		defer tx.Abort()
		rng := rand.New(rand.NewPCG(uint64(c.Rank()), 5))
		cands := []uint64{0, 1, ^uint64(0), uint64(vu) + 1, uint64(vu) ^ 1<<48, uint64(vu) + 1<<32, eu[0] - 1}
		for range 300 {
			cands = append(cands, rng.Uint64(), uint64(vu)&^0xffffffff|uint64(rng.IntN(2000)))
		}
		for _, u := range cands {
			if _, err := tx.AssociateVertex(gdi.VertexUID(u)); err != nil && gdi.ErrorClass(err) == gdi.Success {
				return fmt.Errorf("AssociateVertex(%#x): uncoded error %v", u, err)
			}
			if _, err := tx.AssociateEdge(gdi.EdgeUID{u, 0}); err != nil && gdi.ErrorClass(err) == gdi.Success {
				return fmt.Errorf("AssociateEdge(%#x): uncoded error %v", u, err)
			}
		}
		// A vertex UID is no edge UID. The edge is lightweight: its UID
		// is its origin's and a slot; other slots name no edge.
		if _, err := tx.AssociateEdge(gdi.EdgeUID{uint64(vu), 0}); gdi.ErrorClass(err) != gdi.ErrUID {
			return fmt.Errorf("AssociateEdge(vertex UID): %v, want ErrUID", err)
		}
		if eu[0] != uint64(vu) || eu[1] == 0 {
			return fmt.Errorf("lightweight edge UID %v, origin %v", eu, vu)
		}
		for _, slot := range []uint64{eu[1] + 1, 1 << 16, ^uint64(0)} {
			if _, err := tx.AssociateEdge(gdi.EdgeUID{eu[0], slot}); gdi.ErrorClass(err) != gdi.ErrUID {
				return fmt.Errorf("AssociateEdge(slot %d): %v, want ErrUID", slot, err)
			}
		}
		v, err := tx.AssociateVertex(vu)
		if err != nil {
			return err
		}
		es, err := v.Edges(gdi.EdgeOutgoing, nil)
		if err != nil || len(es) != 1 || es[0] != eu {
			return fmt.Errorf("edges after the bad UIDs: %v, %v", es, err)
		}
		return nil
	})
}

// TestLightweightEdges follows an edge through its forms: lightweight
// (UID of its origin and a slot), heavyweight after a property (same
// UID), moved to another origin (same UID, the old origin keeps a stub),
// and renumbered when the old origin is deleted.
func TestLightweightEdges(t *testing.T) {
	run(t, 2, gdirma.Params{BlockSize: 64, MemoryPerRank: 1 << 18}, func(c rma.Comm, db gdi.Database) error {
		l, err := db.CreateLabel("L")
		if err != nil {
			return err
		}
		p, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "w", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
		if err != nil {
			return err
		}
		step := func(fn func(tx gdi.Transaction) error) error { return retry(db, fn) }
		var a, b, d gdi.VertexUID
		var eu gdi.EdgeUID
		err = step(func(tx gdi.Transaction) error {
			var vs []gdi.VertexHolder
			for range 3 {
				v, err := tx.CreateVertex(nil)
				if err != nil {
					return err
				}
				vs = append(vs, v)
			}
			e, err := tx.CreateEdge(gdi.Directed, vs[0], vs[1])
			if err != nil {
				return err
			}
			if err := e.AddLabel(l); err != nil {
				return err
			}
			a, _ = vs[0].UID()
			b, _ = vs[1].UID()
			d, _ = vs[2].UID()
			eu, err = e.UID()
			return err
		})
		if err != nil {
			return err
		}
		if eu[0] != uint64(a) || eu[1] == 0 {
			return fmt.Errorf("lightweight edge UID %v, origin %v", eu, a)
		}
		check := func(tx gdi.Transaction, want gdi.EdgeUID, origin, target gdi.VertexUID, w int64) error {
			e, err := tx.AssociateEdge(want)
			if err != nil {
				return fmt.Errorf("AssociateEdge(%v): %v", want, err)
			}
			o, tg, err := e.Vertices()
			if err != nil || o != origin || tg != target {
				return fmt.Errorf("edge ends %v %v, want %v %v (%v)", o, tg, origin, target, err)
			}
			ls, err := e.Labels()
			if err != nil || len(ls) != 1 || ls[0] != l {
				return fmt.Errorf("edge labels %v (%v)", ls, err)
			}
			vals, err := e.Properties(p)
			if err != nil || (w == 0) != (len(vals) == 0) || (w != 0 && vals[0] != gdi.Int64s(w)) {
				return fmt.Errorf("edge property %v, want %d (%v)", vals, w, err)
			}
			for _, end := range []gdi.VertexUID{origin, target} {
				v, err := tx.AssociateVertex(end)
				if err != nil {
					return err
				}
				es, err := v.Edges(gdi.EdgeAll, nil)
				if err != nil || len(es) != 1 || es[0] != want {
					return fmt.Errorf("edges of %v: %v, want [%v] (%v)", end, es, want, err)
				}
			}
			return nil
		}
		if err := step(func(tx gdi.Transaction) error { return check(tx, eu, a, b, 0) }); err != nil {
			return err
		}
		// A property makes it heavyweight; the UID stays.
		err = step(func(tx gdi.Transaction) error {
			e, err := tx.AssociateEdge(eu)
			if err != nil {
				return err
			}
			if err := e.AddProperty(p, gdi.Int64s(7)); err != nil {
				return err
			}
			if u, _ := e.UID(); u != eu {
				return fmt.Errorf("UID %v after AddProperty, was %v", u, eu)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := step(func(tx gdi.Transaction) error { return check(tx, eu, a, b, 7) }); err != nil {
			return err
		}
		// A new origin: same UID, a keeps a stub that is no edge of it.
		err = step(func(tx gdi.Transaction) error {
			e, err := tx.AssociateEdge(eu)
			if err != nil {
				return err
			}
			v, err := tx.AssociateVertex(d)
			if err != nil {
				return err
			}
			return e.SetOrigin(v)
		})
		if err != nil {
			return err
		}
		err = step(func(tx gdi.Transaction) error {
			if err := check(tx, eu, d, b, 7); err != nil {
				return err
			}
			v, err := tx.AssociateVertex(a)
			if err != nil {
				return err
			}
			es, err := v.Edges(gdi.EdgeAll, nil)
			if err != nil || len(es) != 0 {
				return fmt.Errorf("edges of the old origin: %v (%v)", es, err)
			}
			deg, err := v.Properties(gdi.PropertyTypeDegree)
			if err != nil || deg[0] != gdi.Uint64s(0) {
				return fmt.Errorf("degree of the old origin: %v (%v)", deg, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		// Deleting the old origin renumbers the edge, which lives on.
		err = step(func(tx gdi.Transaction) error {
			v, err := tx.AssociateVertex(a)
			if err != nil {
				return err
			}
			return v.Free()
		})
		if err != nil {
			return err
		}
		return step(func(tx gdi.Transaction) error {
			if _, err := tx.AssociateEdge(eu); gdi.ErrorClass(err) != gdi.ErrUID {
				return fmt.Errorf("old UID after its vertex was deleted: %v, want ErrUID", err)
			}
			v, err := tx.AssociateVertex(b)
			if err != nil {
				return err
			}
			es, err := v.Edges(gdi.EdgeAll, nil)
			if err != nil || len(es) != 1 {
				return fmt.Errorf("edges of the target: %v (%v)", es, err)
			}
			return check(tx, es[0], d, b, 7)
		})
	})
}
