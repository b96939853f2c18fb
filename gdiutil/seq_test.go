package gdiutil_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdiutil"
)

// star makes a hub with n spokes, all labelled l, each spoke's ID its
// number, and returns the index of l.
func star(db gdi.Database, l gdi.Label, n int) (gdi.Index, error) {
	idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
	if err != nil {
		return nil, err
	}
	if err := idx.AddLabel(l); err != nil {
		return nil, err
	}
	return idx, gdiutil.RunTransaction(context.Background(), db, func(tx gdi.Transaction) error {
		hub, err := tx.CreateVertex([]byte("hub"))
		if err != nil {
			return err
		}
		for i := range n {
			v, err := tx.CreateVertex(fmt.Appendf(nil, "%d", i))
			if err != nil {
				return err
			}
			if _, err := tx.CreateEdge(gdi.Directed, hub, v); err != nil {
				return err
			}
			if err := errors.Join(v.AddLabel(l), hub.AddLabel(l)); err != nil {
				return err
			}
		}
		return nil
	})
}

// ids reads the ID of every holder of seq, stopping after limit.
func ids[H gdi.Holder](seq func(func(H, error) bool), limit int) ([]string, error) {
	var out []string
	for h, err := range seq {
		if err != nil {
			return out, err
		}
		id, err := h.Properties(gdi.PropertyTypeID)
		if err != nil || len(id) != 1 {
			return out, fmt.Errorf("the ID of a holder: %v, %v", id, err)
		}
		if out = append(out, id[0].RawString()); len(out) == limit {
			break
		}
	}
	return out, nil
}

// TestSequences: each sequence yields the holders of the query's UIDs;
// a loop that breaks stops it; a done context yields its error.
func TestSequences(t *testing.T) {
	onDB(t, func(db gdi.Database) error {
		l, err := db.CreateLabel("Spoke")
		if err != nil {
			return err
		}
		idx, err := star(db, l, 5)
		if err != nil {
			return err
		}
		ctx := context.Background()
		return gdiutil.RunTransaction(ctx, db, func(tx gdi.Transaction) error {
			all, err := ids(gdiutil.Vertices(ctx, tx, idx, nil), -1)
			slices.Sort(all)
			if err != nil || !slices.Equal(all, []string{"0", "1", "2", "3", "4", "hub"}) {
				t.Errorf("Vertices yielded %q, %v; want the hub and five spokes", all, err)
			}
			local, err := ids(gdiutil.LocalVertices(ctx, tx, idx, nil), 2)
			if err != nil || len(local) != 2 {
				t.Errorf("LocalVertices with a break after 2 yielded %q, %v", local, err)
			}
			uid, _, err := tx.TranslateVertexID(l, []byte("hub"))
			if err != nil {
				return err
			}
			hub, err := tx.AssociateVertex(uid)
			if err != nil {
				return err
			}
			spokes, err := ids(gdiutil.Neighbors(ctx, tx, hub, gdi.EdgeOutgoing, nil), -1)
			if err != nil || len(spokes) != 5 || slices.Contains(spokes, "hub") {
				t.Errorf("Neighbors of the hub yielded %q, %v; want the five spokes", spokes, err)
			}
			n := 0
			for e, err := range gdiutil.Edges(ctx, tx, hub, gdi.EdgeOutgoing, nil) {
				if err != nil {
					return err
				}
				if origin, _, err := e.Vertices(); err != nil || origin != uid {
					t.Errorf("edge of the hub has origin %v, %v; want %v", origin, err, uid)
				}
				n++
			}
			if n != 5 {
				t.Errorf("Edges of the hub yielded %d edges, want 5", n)
			}
			done, cancel := context.WithCancel(ctx)
			cancel()
			got, err := ids(gdiutil.Vertices(done, tx, idx, nil), -1)
			if !errors.Is(err, context.Canceled) || len(got) != 0 {
				t.Errorf("Vertices with a done context yielded %q, %v; want context.Canceled alone", got, err)
			}
			return nil
		})
	})
}
