package gdirma_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
)

// TestDeleteNextToHub deletes, one transaction each, leaves of a hub whose
// image spans many blocks, so that the hub's references to them become
// tombstones written in place. The labelled edges are lightweight and
// covered by an index of their label, whose entries live with the hub: the
// commit must see the hub's references as they were committed to drop the
// entries of the deleted edges (change.oldRefs). Afterwards the hub's edges, degree and
// index entries must be those of the leaves left, and every image must
// re-encode byte for byte.
func TestDeleteNextToHub(t *testing.T) {
	for _, ranks := range []int{1, 2} {
		t.Run(fmt.Sprintf("ranks=%d", ranks), func(t *testing.T) {
			run(t, ranks, gdirma.Params{BlockSize: 64, MemoryPerRank: 1 << 20}, deleteNextToHub)
		})
	}
}

func deleteNextToHub(c rma.Comm, db gdi.Database) error {
	el, err := db.CreateLabel("E")
	if err != nil {
		return err
	}
	idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
	if err != nil {
		return err
	}
	if err := idx.AddLabel(el); err != nil {
		return err
	}
	const leaves, deleted = 400, 12 // a hub image of some 3 KB, in pooled buffers (store.Request.Pool)
	var hub gdi.VertexUID
	var leaf []gdi.VertexUID
	if c.Rank() == 0 {
		err := retry(db, func(tx gdi.Transaction) error {
			h, err := tx.CreateVertex(nil)
			if err != nil {
				return err
			}
			leaf = leaf[:0]
			for range leaves {
				x, err := tx.CreateVertex(nil)
				if err != nil {
					return err
				}
				e, err := tx.CreateEdge(gdi.Directed, h, x)
				if err != nil {
					return err
				}
				if err := e.AddLabel(el); err != nil {
					return err
				}
				u, err := x.UID()
				if err != nil {
					return err
				}
				leaf = append(leaf, u)
			}
			hub, err = h.UID()
			return err
		})
		if err != nil {
			return err
		}
		for _, u := range leaf[:deleted] {
			err := retry(db, func(tx gdi.Transaction) error {
				x, err := tx.AssociateVertex(u)
				if err != nil {
					return err
				}
				return x.Free()
			})
			if err != nil {
				return err
			}
		}
		err = retry(db, func(tx gdi.Transaction) error {
			h, err := tx.AssociateVertex(hub)
			if err != nil {
				return err
			}
			ns, err := h.Neighbors(gdi.EdgeAll, nil)
			if err != nil {
				return err
			}
			want := slices.Clone(leaf[deleted:])
			slices.Sort(want)
			if !slices.Equal(ns, want) {
				return fmt.Errorf("the hub's neighbours: %v, want %v", ns, want)
			}
			deg, err := h.Properties(gdi.PropertyTypeDegree)
			if err != nil {
				return err
			}
			if len(deg) != 1 || deg[0] != gdi.Uint64s(leaves-deleted) {
				return fmt.Errorf("the hub's degree: %v, want %d", deg, leaves-deleted)
			}
			edges, err := h.Edges(gdi.EdgeAll, nil)
			if err != nil {
				return err
			}
			got, err := tx.EdgesOfIndex(idx, nil)
			if err != nil {
				return err
			}
			byUID := func(a, b gdi.EdgeUID) int { return strings.Compare(a.String(), b.String()) }
			slices.SortFunc(edges, byUID)
			slices.SortFunc(got, byUID)
			if !slices.Equal(got, edges) {
				return fmt.Errorf("the index holds edges %v, the hub %v", got, edges)
			}
			// Queries check what they find against the holders, so only
			// the count shows entries left behind: each edge has one for
			// the index and one for its label.
			n, err := gdirma.IndexEntries(db.(*gdirma.Database), idx)
			if err != nil {
				return err
			}
			if n != 2*len(edges) {
				return fmt.Errorf("the index has %d entries, want %d", n, 2*len(edges))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	return db.(*gdirma.Database).CheckHolders()
}
