package gdirma

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/gdi"
)

// staleCalls calls every method of an ended transaction, and of a vertex
// holder it handed out, and returns the calls that did not fail with the
// code the spec gives for them: ErrTransaction for the transaction, and
// ErrVertex for the holder, whose transaction is gone.
func staleCalls(tx gdi.Transaction, h gdi.VertexHolder, l gdi.Label, p gdi.PropertyType, u gdi.VertexUID) []string {
	var bad []string
	want := func(name string, code gdi.Code, err error) {
		if gdi.ErrorClass(err) != code {
			bad = append(bad, fmt.Sprintf("%s: %v, want %v", name, err, code))
		}
	}
	_, err := tx.CreateVertex([]byte("stale"))
	want("CreateVertex", gdi.ErrTransaction, err)
	_, err = tx.AssociateVertex(u)
	want("AssociateVertex", gdi.ErrTransaction, err)
	_, _, err = tx.TranslateVertexID(l, []byte("a"))
	want("TranslateVertexID", gdi.ErrTransaction, err)
	_, err = tx.CreateEdge(gdi.Directed, h, h)
	want("CreateEdge", gdi.ErrTransaction, err)
	want("Commit", gdi.ErrTransaction, tx.Commit())
	want("Abort", gdi.ErrTransaction, tx.Abort())
	_, err = h.UID()
	want("holder UID", gdi.ErrVertex, err)
	_, err = h.Properties(p)
	want("holder Properties", gdi.ErrVertex, err)
	want("holder AddLabel", gdi.ErrVertex, h.AddLabel(l))
	want("holder AddProperty", gdi.ErrVertex, h.AddProperty(p, gdi.Int64s(-1)))
	_, err = h.Edges(gdi.EdgeAll, nil)
	want("holder Edges", gdi.ErrVertex, err)
	want("holder Free", gdi.ErrVertex, h.Free())
	return bad
}

// withLabelAndInt runs f on a one-rank database with a label and a
// single Int64 property type.
func withLabelAndInt(f func(db *Database, l gdi.Label, p gdi.PropertyType) error) error {
	return withLocalDB(Params{MemoryPerRank: 1 << 20}, func(db *Database) error {
		l, err := db.CreateLabel("L")
		if err != nil {
			return err
		}
		p, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "n", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
		if err != nil {
			return err
		}
		return f(db, l, p)
	})
}

// TestStaleHandlesOfReusedState: a transaction that ends gives its state
// to the next transaction of the rank (txstate.go). A handle of the ended
// transaction, and a holder it handed out, kept and used afterwards, fail
// as the spec says, and change nothing of the transaction now using the
// state: its vertex and its change commit as made.
func TestStaleHandlesOfReusedState(t *testing.T) {
	err := withLabelAndInt(func(db *Database, l gdi.Label, p gdi.PropertyType) error {
		var ua, ub gdi.VertexUID
		if err := InTx(db, func(tx gdi.Transaction) error {
			for _, id := range []string{"a", "b"} {
				x, err := tx.CreateVertex([]byte(id))
				if err != nil {
					return err
				}
				if err := x.AddLabel(l); err != nil {
					return err
				}
				if err := x.AddProperty(p, gdi.Int64s(1)); err != nil {
					return err
				}
				u, err := x.UID()
				if err != nil {
					return err
				}
				if id == "a" {
					ua = u
				} else {
					ub = u
				}
			}
			return nil
		}); err != nil {
			return err
		}

		old, err := db.StartTransaction()
		if err != nil {
			return err
		}
		state := old.(*Transaction).txState
		h, err := old.AssociateVertex(ua)
		if err != nil {
			return err
		}
		if err := old.Commit(); err != nil {
			return err
		}
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		if tx.(*Transaction).txState != state {
			return errors.New("the next transaction did not reuse the state of the one that ended")
		}
		y, err := tx.AssociateVertex(ub)
		if err != nil {
			return err
		}
		if err := y.UpdateProperty(p, gdi.Int64s(2)); err != nil {
			return err
		}
		// The holder handed out first lies where the state was, had the
		// holders been part of it.
		if bad := staleCalls(old, h, l, p, ub); len(bad) > 0 {
			return fmt.Errorf("stale calls: %v", bad)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("the transaction using the state: %w", err)
		}
		return InTx(db, func(tx gdi.Transaction) error {
			for u, want := range map[gdi.VertexUID]int64{ua: 1, ub: 2} {
				x, err := tx.AssociateVertex(u)
				if err != nil {
					return err
				}
				if n, err := intOf(x, p); err != nil || n != want {
					return fmt.Errorf("vertex %v: property %d (%v), want %d", u, n, err, want)
				}
				if edges, err := x.Edges(gdi.EdgeAll, nil); err != nil || len(edges) != 0 {
					return fmt.Errorf("vertex %v: edges %v (%v), want none", u, edges, err)
				}
			}
			_, found, err := tx.TranslateVertexID(l, []byte("stale"))
			if err != nil || found {
				return fmt.Errorf("a stale CreateVertex left a vertex: %v %v", found, err)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestStaleHandlesRace runs transactions on several goroutines, each
// reusing states of the ones before, while other goroutines keep calling
// handles and holders of transactions that ended. Under -race this finds
// a stale call that reaches a state; every stale call must fail, and each
// counter the transactions increment must count every commit.
func TestStaleHandlesRace(t *testing.T) {
	const workers, rounds = 4, 300
	err := withLabelAndInt(func(db *Database, l gdi.Label, p gdi.PropertyType) error {
		uids := make([]gdi.VertexUID, workers)
		if err := InTx(db, func(tx gdi.Transaction) error {
			for i := range uids {
				x, err := tx.CreateVertex([]byte(fmt.Sprint("w", i)))
				if err != nil {
					return err
				}
				if err := x.AddProperty(p, gdi.Int64s(0)); err != nil {
					return err
				}
				if uids[i], err = x.UID(); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
		type stale struct {
			tx gdi.Transaction
			h  gdi.VertexHolder
		}
		ended := make(chan stale, workers)
		var wg, readers sync.WaitGroup
		errs := make(chan error, 2*workers)
		for w := range workers {
			wg.Go(func() {
				for range rounds {
					tx, err := db.StartTransaction()
					if err != nil {
						errs <- err
						return
					}
					x, err := tx.AssociateVertex(uids[w])
					if err == nil {
						var n int64
						if n, err = intOf(x, p); err == nil {
							err = x.UpdateProperty(p, gdi.Int64s(n+1))
						}
					}
					if err == nil {
						err = tx.Commit()
					}
					if err != nil {
						errs <- fmt.Errorf("worker %d: %w", w, err)
						return
					}
					ended <- stale{tx, x}
				}
			})
			readers.Go(func() {
				for s := range ended {
					if bad := staleCalls(s.tx, s.h, l, p, uids[w]); len(bad) > 0 {
						errs <- fmt.Errorf("stale calls: %v", bad)
						return
					}
				}
			})
		}
		wg.Wait()
		close(ended)
		readers.Wait()
		close(errs)
		for err := range errs {
			return err
		}
		return InTx(db, func(tx gdi.Transaction) error {
			for i, u := range uids {
				x, err := tx.AssociateVertex(u)
				if err != nil {
					return err
				}
				if got, err := intOf(x, p); err != nil || got != rounds {
					return fmt.Errorf("vertex w%d counts %d commits (%v), want %d", i, got, err, rounds)
				}
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// intOf is the value of x's single Int64 property p.
func intOf(x gdi.VertexHolder, p gdi.PropertyType) (int64, error) {
	vals, err := x.Properties(p)
	if err != nil {
		return 0, err
	}
	if len(vals) != 1 {
		return 0, fmt.Errorf("%d values, want 1", len(vals))
	}
	n, err := vals[0].Int64Slice()
	if err != nil || len(n) != 1 {
		return 0, fmt.Errorf("value %v: %v", vals[0], err)
	}
	return n[0], nil
}

// TestTransactionSize keeps the handle every transaction allocates in the
// 96-byte size class: the order of its fields decides (transaction.go).
func TestTransactionSize(t *testing.T) {
	if s := reflect.TypeFor[Transaction]().Size(); s > 96 {
		t.Errorf("Transaction takes %d bytes, want at most 96", s)
	}
}
