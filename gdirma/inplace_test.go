package gdirma_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
)

// TestUpdateInPlace changes the labels and properties of a vertex whose
// image is longer than a prefix read, so that its edge references are
// never read, and of one whose image fits its primary block, so that they
// are. Of the long one, changes that keep the length of the labels and
// properties, and not the references, are written over them in place, the
// others rewrite the holder. The short one is always written whole, which
// keeps its block checked (store's checked.go). Either way the committed
// vertex must read back as written, with its edges, and its image must
// re-encode byte for byte.
func TestUpdateInPlace(t *testing.T) {
	for _, degree := range []int{60, 5} {
		for _, ranks := range []int{1, 2} {
			t.Run(fmt.Sprintf("degree=%d/ranks=%d", degree, ranks), func(t *testing.T) {
				run(t, ranks, gdirma.Params{BlockSize: 256, MemoryPerRank: 1 << 20}, func(c rma.Comm, db gdi.Database) error {
					return updateInPlace(c, db, degree)
				})
			})
		}
	}
}

func updateInPlace(c rma.Comm, db gdi.Database, degree int) error {
	l1, err := db.CreateLabel("L1")
	if err != nil {
		return err
	}
	l2, err := db.CreateLabel("L2")
	if err != nil {
		return err
	}
	w, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "w", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
	if err != nil {
		return err
	}
	s, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "s", Entity: gdi.SingleEntity, Datatype: gdi.Byte, Size: gdi.MaxSize, Count: 64})
	if err != nil {
		return err
	}
	if c.Rank() != 0 {
		// Rank 0 changes the vertex; the others only take part in the
		// collective calls.
		return c.Barrier()
	}
	step := func(fn func(tx gdi.Transaction) error) error { return retry(db, fn) }
	var hub gdi.VertexUID
	err = step(func(tx gdi.Transaction) error {
		v, err := tx.CreateVertex([]byte("hub"))
		if err != nil {
			return err
		}
		if err := v.AddLabel(l1); err != nil {
			return err
		}
		if err := v.AddProperty(w, gdi.Int64s(1)); err != nil {
			return err
		}
		if err := v.AddProperty(s, gdi.Bytes([]byte("abc"))); err != nil {
			return err
		}
		for range degree {
			x, err := tx.CreateVertex(nil)
			if err != nil {
				return err
			}
			if _, err := tx.CreateEdge(gdi.Directed, v, x); err != nil {
				return err
			}
		}
		hub, err = v.UID()
		return err
	})
	if err != nil {
		return err
	}
	check := gdirmaCheck(db)
	type want struct {
		id     string
		labels []gdi.Label
		w      int64
		s      string
		edges  int
	}
	verify := func(name string, x want) error {
		if err := check(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return step(func(tx gdi.Transaction) error {
			u, ok, err := tx.TranslateVertexID(l1, []byte(x.id))
			if err != nil || !ok || u != hub {
				return fmt.Errorf("%s: TranslateVertexID(%q) = %v, %v, %v; want the hub", name, x.id, u, ok, err)
			}
			v, err := tx.AssociateVertex(hub)
			if err != nil {
				return err
			}
			ls, err := v.Labels()
			if err != nil || fmt.Sprint(ls) != fmt.Sprint(x.labels) {
				return fmt.Errorf("%s: labels %v, %v; want %v", name, ls, err, x.labels)
			}
			ws, err := v.Properties(w)
			if err != nil || len(ws) != 1 {
				return fmt.Errorf("%s: w = %v, %v; want %d", name, ws, err, x.w)
			}
			if got, err := ws[0].Int64Slice(); err != nil || len(got) != 1 || got[0] != x.w {
				return fmt.Errorf("%s: w = %v, %v; want %d", name, got, err, x.w)
			}
			ss, err := v.Properties(s)
			if err != nil || len(ss) != 1 || string(ss[0].Raw()) != x.s {
				return fmt.Errorf("%s: s = %v, %v; want %q", name, ss, err, x.s)
			}
			es, err := v.Edges(gdi.EdgeAll, nil)
			if err != nil || len(es) != x.edges {
				return fmt.Errorf("%s: %d edges, %v; want %d", name, len(es), err, x.edges)
			}
			return nil
		})
	}
	cur := want{"hub", []gdi.Label{l1}, 1, "abc", degree}
	if err := verify("created", cur); err != nil {
		return err
	}
	var patches atomic.Int64
	defer gdirma.SetHeadPatchHook(func() { patches.Add(1) })()
	changes := []struct {
		name string
		fn   func(tx gdi.Transaction, v gdi.VertexHolder) error
		to   func(x *want)
	}{
		{"same-length int", func(_ gdi.Transaction, v gdi.VertexHolder) error { return v.UpdateProperty(w, gdi.Int64s(-7)) },
			func(x *want) { x.w = -7 }},
		{"same-length string", func(_ gdi.Transaction, v gdi.VertexHolder) error {
			return v.UpdateProperty(s, gdi.Bytes([]byte("xyz")))
		},
			func(x *want) { x.s = "xyz" }},
		{"same-length ID", func(_ gdi.Transaction, v gdi.VertexHolder) error {
			return v.UpdateProperty(gdi.PropertyTypeID, gdi.Bytes([]byte("bub")))
		},
			func(x *want) { x.id = "bub" }},
		{"longer string", func(_ gdi.Transaction, v gdi.VertexHolder) error {
			return v.UpdateProperty(s, gdi.Bytes([]byte("a longer value")))
		}, func(x *want) { x.s = "a longer value" }},
		{"new label", func(_ gdi.Transaction, v gdi.VertexHolder) error { return v.AddLabel(l2) },
			func(x *want) { x.labels = []gdi.Label{l1, l2} }},
		{"shorter string", func(_ gdi.Transaction, v gdi.VertexHolder) error { return v.UpdateProperty(s, gdi.Bytes([]byte("q"))) },
			func(x *want) { x.s = "q" }},
		{"same-length int again", func(_ gdi.Transaction, v gdi.VertexHolder) error { return v.UpdateProperty(w, gdi.Int64s(1<<40)) },
			func(x *want) { x.w = 1 << 40 }},
		// Changes of the references with one of the properties: the
		// holder must be rewritten, not its properties alone.
		{"same-length int and a new edge", func(tx gdi.Transaction, v gdi.VertexHolder) error {
			y, err := tx.CreateVertex(nil)
			if err != nil {
				return err
			}
			if _, err := tx.CreateEdge(gdi.Directed, y, v); err != nil {
				return err
			}
			return v.UpdateProperty(w, gdi.Int64s(5))
		}, func(x *want) { x.w, x.edges = 5, x.edges+1 }},
		{"same-length int and an edge less", func(tx gdi.Transaction, v gdi.VertexHolder) error {
			es, err := v.Edges(gdi.EdgeAll, nil)
			if err != nil || len(es) == 0 {
				return fmt.Errorf("no edge to delete: %v", err)
			}
			e, err := tx.AssociateEdge(es[0])
			if err != nil {
				return err
			}
			if err := e.Free(); err != nil {
				return err
			}
			return v.UpdateProperty(w, gdi.Int64s(6))
		}, func(x *want) { x.w, x.edges = 6, x.edges-1 }},
	}
	for _, ch := range changes {
		before := patches.Load()
		err := step(func(tx gdi.Transaction) error {
			v, err := tx.AssociateVertex(hub)
			if err != nil {
				return err
			}
			return ch.fn(tx, v)
		})
		if err != nil {
			return fmt.Errorf("%s: %w", ch.name, err)
		}
		// The same length, and the same edges: written over in place.
		inPlace := degree > 5 && strings.HasPrefix(ch.name, "same-length") && !strings.Contains(ch.name, "edge")
		if got := patches.Load() - before; got != 0 != inPlace || got > 1 {
			return fmt.Errorf("%s: %d labels and properties written over in place, want %v", ch.name, got, inPlace)
		}
		ch.to(&cur)
		if err := verify(ch.name, cur); err != nil {
			return err
		}
	}
	// The ID given up is free again.
	err = step(func(tx gdi.Transaction) error {
		_, ok, err := tx.TranslateVertexID(l1, []byte("hub"))
		if err != nil || ok {
			return fmt.Errorf("the old ID still translates: %v, %v", ok, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return c.Barrier()
}

// gdirmaCheck returns a check that the holders of db re-encode byte for
// byte (see Database.CheckHolders), callable from one rank.
func gdirmaCheck(db gdi.Database) func() error {
	return db.(*gdirma.Database).CheckHolders
}
