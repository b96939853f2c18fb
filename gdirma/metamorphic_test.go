package gdirma_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// TestMetamorphic runs the same random sequence of transactions (one seed)
// against gdirma and against refdb, the reference backend, and compares
// the committed graphs. The ranks take turns: step i runs on rank i mod n,
// so the sequence and every outcome are deterministic, while the data of
// each step is spread over all ranks.
func TestMetamorphic(t *testing.T) {
	seeds, steps := []uint64{1, 2, 3, 4, 5, 6}, 300
	if testing.Short() {
		seeds, steps = []uint64{1, 2}, 60
	}
	for _, ranks := range []int{1, 3} {
		for _, seed := range seeds {
			t.Run(fmt.Sprintf("ranks=%d/seed=%d", ranks, seed), func(t *testing.T) {
				want := metamorphicRun(t, refdb.Driver{}, nil, ranks, seed, steps)
				for _, bs := range []int{64, 512} {
					got := metamorphicRun(t, gdirma.Driver{}, gdirma.Params{BlockSize: bs, MemoryPerRank: 1 << 20}, ranks, seed, steps)
					if got != want {
						t.Fatalf("block size %d: gdirma and refdb differ\ngdirma:\n%s\nrefdb:\n%s", bs, got, want)
					}
				}
			})
		}
	}
}

func metamorphicRun(t *testing.T, d gdi.Driver, params any, ranks int, seed uint64, steps int) string {
	t.Helper()
	var dump string
	err := local.Run(ranks, func(c rma.Comm) error {
		db, err := d.CreateDatabase(c, params)
		if err != nil {
			return err
		}
		out, err := metamorphicRank(c, db, seed, steps)
		if err != nil {
			return fmt.Errorf("rank %d: %w", c.Rank(), err)
		}
		if c.Rank() == 0 {
			dump = out
		}
		return db.Free()
	})
	if err != nil {
		t.Fatal(err)
	}
	return dump
}

// metamorphicRank is one rank's part. Every rank draws the same random
// numbers; only the rank whose turn it is acts on them.
func metamorphicRank(c rma.Comm, db gdi.Database, seed uint64, steps int) (string, error) {
	rng := rand.New(rand.NewPCG(seed, 99))
	v, err := db.CreateLabel("V")
	if err != nil {
		return "", err
	}
	var extra []gdi.Label
	for _, n := range []string{"A", "B", "C"} {
		l, err := db.CreateLabel(n)
		if err != nil {
			return "", err
		}
		extra = append(extra, l)
	}
	num, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "num", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
	if err != nil {
		return "", err
	}
	tags, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "tags", Entity: gdi.MultipleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit})
	if err != nil {
		return "", err
	}
	var ids []string // vertices believed alive, identical on every rank
	next := 0
	for step := range steps {
		mine := step%c.Size() == c.Rank()
		op := rng.IntN(11)
		abort := rng.IntN(8) == 0
		pick := func() string {
			if len(ids) == 0 {
				return ""
			}
			return ids[rng.IntN(len(ids))]
		}
		a, b := pick(), pick()
		lab := extra[rng.IntN(len(extra))]
		val := rng.Int64N(1000)
		tag := fmt.Sprintf("t%d", rng.IntN(4))
		dir := gdi.Directed
		if rng.IntN(3) == 0 {
			dir = gdi.Undirected
		}
		newID := fmt.Sprintf("v%03d", next)
		next++
		var created, deleted string
		ok := int64(0)
		if mine {
			err := func() error {
				tx, err := db.StartTransaction()
				if err != nil {
					return err
				}
				find := func(id string) (gdi.VertexHolder, error) {
					uid, found, err := tx.TranslateVertexID(v, []byte(id))
					if err != nil || !found {
						return nil, fmt.Errorf("vertex %s: found %v, %v", id, found, err)
					}
					return tx.AssociateVertex(uid)
				}
				switch {
				case op < 3 || a == "": // create a vertex
					x, err := tx.CreateVertex([]byte(newID))
					if err == nil {
						err = errors.Join(x.AddLabel(v), x.AddProperty(num, gdi.Int64s(val)))
					}
					if err != nil {
						return err
					}
					created = newID
				case op < 6: // an edge from a to b
					x, err := find(a)
					if err != nil {
						return err
					}
					y, err := find(b)
					if err != nil {
						return err
					}
					e, err := tx.CreateEdge(dir, x, y)
					if err != nil {
						return err
					}
					if rng2 := val % 3; rng2 == 0 {
						if err := e.AddLabel(lab); err != nil {
							return err
						}
					} else if rng2 == 1 {
						if err := errors.Join(e.AddProperty(tags, gdi.Chars(tag)), e.AddProperty(num, gdi.Int64s(val))); err != nil {
							return err
						}
					}
				case op < 7: // delete a vertex and its edges
					x, err := find(a)
					if err != nil {
						return err
					}
					if err := x.Free(); err != nil {
						return err
					}
					deleted = a
				case op < 8: // relabel and retag
					x, err := find(a)
					if err != nil {
						return err
					}
					if err := errors.Join(x.AddLabel(lab), x.AddProperty(tags, gdi.Chars(tag)), x.UpdateProperty(num, gdi.Int64s(val))); err != nil {
						return err
					}
				case op < 9: // drop a label and the outgoing edges
					x, err := find(a)
					if err != nil {
						return err
					}
					if err := x.RemoveLabel(lab); err != nil {
						return err
					}
					es, err := x.Edges(gdi.EdgeOutgoing, nil)
					if err != nil {
						return err
					}
					// All of them: which edge is "the i-th" depends on
					// the backend's UIDs.
					for _, eu := range es {
						e, err := tx.AssociateEdge(eu)
						if err != nil {
							return err
						}
						if err := e.Free(); err != nil {
							return err
						}
					}
				case op < 10: // move the outgoing edges of a to origin b
					x, err := find(a)
					if err != nil {
						return err
					}
					y, err := find(b)
					if err != nil {
						return err
					}
					es, err := x.Edges(gdi.EdgeOutgoing, nil)
					if err != nil {
						return err
					}
					for _, eu := range es {
						e, err := tx.AssociateEdge(eu)
						if err != nil {
							return err
						}
						if err := e.SetOrigin(y); err != nil {
							return err
						}
						if val%2 == 0 {
							if err := e.SetTarget(x); err != nil {
								return err
							}
						}
					}
				default: // remove one tag value
					x, err := find(a)
					if err != nil {
						return err
					}
					if err := x.RemoveProperty(tags, gdi.Chars(tag)); err != nil {
						return err
					}
				}
				if abort {
					created, deleted = "", ""
					return tx.Abort()
				}
				return tx.Commit()
			}()
			if err != nil {
				return "", fmt.Errorf("step %d (op %d): %w", step, op, err)
			}
			ok = 1
		}
		// Every rank learns which vertex the step created or deleted.
		msg := []byte(fmt.Sprintf("%d %s %s", ok, created+"-", deleted+"-"))
		all, err := c.Allgatherv(msg)
		if err != nil {
			return "", err
		}
		var okr int64
		var cr, dl string
		if _, err := fmt.Sscanf(string(all[step%c.Size()]), "%d %s %s", &okr, &cr, &dl); err != nil || okr != 1 {
			return "", fmt.Errorf("step %d failed on rank %d", step, step%c.Size())
		}
		if cr = strings.TrimSuffix(cr, "-"); cr != "" {
			ids = append(ids, cr)
		}
		if dl = strings.TrimSuffix(dl, "-"); dl != "" {
			ids = slices.DeleteFunc(ids, func(s string) bool { return s == dl })
		}
	}
	if c.Rank() != 0 {
		return "", nil
	}
	return dumpGraph(db, v, ids)
}

// dumpGraph describes the vertices ids and their edges by application IDs,
// labels and properties, sorted, so that backends can be compared.
func dumpGraph(db gdi.Database, v gdi.Label, ids []string) (string, error) {
	tx, err := db.StartTransaction()
	if err != nil {
		return "", err
	}
	defer tx.Abort()
	idOf := map[gdi.VertexUID]string{}
	holders := map[string]gdi.VertexHolder{}
	for _, id := range ids {
		uid, found, err := tx.TranslateVertexID(v, []byte(id))
		if err != nil || !found {
			return "", fmt.Errorf("dump: vertex %s: %v %v", id, found, err)
		}
		x, err := tx.AssociateVertex(uid)
		if err != nil {
			return "", err
		}
		idOf[uid] = id
		holders[id] = x
	}
	describe := func(h gdi.Holder) (string, error) {
		ls, err := h.Labels()
		if err != nil {
			return "", err
		}
		var names []string
		for _, l := range ls {
			n, err := db.LabelName(l)
			if err != nil {
				return "", err
			}
			names = append(names, n)
		}
		slices.Sort(names)
		pts, err := h.PropertyTypes()
		if err != nil {
			return "", err
		}
		var props []string
		for _, p := range pts {
			info, err := db.PropertyTypeInfo(p)
			if err != nil {
				return "", err
			}
			vals, err := h.Properties(p)
			if err != nil {
				return "", err
			}
			for _, x := range vals {
				props = append(props, info.Name+"="+x.String())
			}
		}
		slices.Sort(props)
		return fmt.Sprintf("%v %v", names, props), nil
	}
	var lines []string
	for _, id := range ids {
		x := holders[id]
		d, err := describe(x)
		if err != nil {
			return "", err
		}
		lines = append(lines, id+" "+d)
		es, err := x.Edges(gdi.EdgeOutgoing|gdi.EdgeUndirected, nil)
		if err != nil {
			return "", err
		}
		var edges []string
		for _, eu := range es {
			e, err := tx.AssociateEdge(eu)
			if err != nil {
				return "", err
			}
			o, tg, err := e.Vertices()
			if err != nil {
				return "", err
			}
			dir, err := e.Direction()
			if err != nil {
				return "", err
			}
			d, err := describe(e)
			if err != nil {
				return "", err
			}
			edges = append(edges, fmt.Sprintf("  %v %s->%s %s", dir, idOf[o], idOf[tg], d))
		}
		slices.Sort(edges)
		lines = append(lines, edges...)
	}
	return strings.Join(lines, "\n"), nil
}
