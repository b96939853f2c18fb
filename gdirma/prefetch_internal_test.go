package gdirma

import (
	"slices"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/store"
	"github.com/gdi-go/gdi/rma"
)

// prefetchLog records the blocks a store asks to prefetch, and passes the
// hints on.
type prefetchLog struct {
	rma.Prefetcher
	mu     sync.Mutex
	blocks []bgdl.DPtr
}

func (l *prefetchLog) Prefetch(target, offset, n int) {
	p, err := bgdl.MakeDPtr(target, offset)
	l.mu.Lock()
	if err == nil {
		l.blocks = append(l.blocks, p)
	}
	l.mu.Unlock()
	l.Prefetcher.Prefetch(target, offset, n)
}

func (l *prefetchLog) take() []bgdl.DPtr {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.blocks
	l.blocks = nil
	return b
}

// TestPrefetchHints: on rma/local the store has the data window's
// Prefetcher; a read of a vertex asks for its primary block before it
// reads the lock word, a prefix read of a vertex longer than its primary
// block asks for its second block, and deleting a vertex asks for the primary block
// of every neighbour before reading any.
func TestPrefetchHints(t *testing.T) {
	err := withLocalDB(Params{BlockSize: 256, MemoryPerRank: 1 << 20}, func(db *Database) error {
		if db.st.Prefetcher() == nil {
			t.Fatal("the data window of rma/local has no rma.Prefetcher")
		}
		log := &prefetchLog{Prefetcher: db.st.Prefetcher()}
		db.st.SetPrefetcher(log)

		var hub gdi.VertexUID
		var others []bgdl.DPtr
		if err := InTx(db, func(tx gdi.Transaction) error {
			x, err := tx.CreateVertex(nil)
			if err != nil {
				return err
			}
			if hub, err = x.UID(); err != nil {
				return err
			}
			for range 80 {
				y, err := tx.CreateVertex(nil)
				if err != nil {
					return err
				}
				u, _ := y.UID()
				n, err := db.st.number(uint64(u), vertexKind)
				if err != nil {
					return err
				}
				others = append(others, n.Holder())
				if _, err := tx.CreateEdge(gdi.Undirected, x, y); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
		n, err := db.st.number(uint64(hub), vertexKind)
		if err != nil {
			return err
		}
		var img store.Image
		ok, err := db.st.read(n, &store.Request{Mode: store.Chain}, &img)
		if err != nil || !ok || len(img.Chain) < 2 {
			t.Fatalf("the vertex with 80 edges should span blocks: %v %v %v", len(img.Chain), ok, err)
		}

		log.take()
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		x, err := tx.AssociateVertex(hub)
		if err != nil {
			return err
		}
		got := log.take()
		if !slices.Contains(got, n.Holder()) {
			t.Errorf("a read of a vertex prefetched %v, not its primary block %v (before its lock word)", got, n.Holder())
		}
		if !slices.Contains(got, img.Chain[1]) {
			t.Errorf("prefix read of a %d-block vertex prefetched %v, not its second block %v", len(img.Chain), got, img.Chain[1])
		}
		if err := x.Free(); err != nil {
			return err
		}
		got = log.take()
		for _, o := range others {
			if !slices.Contains(got, o) {
				t.Errorf("deleting the vertex did not prefetch neighbour %v (asked for %v)", o, got)
				break
			}
		}
		return tx.Commit()
	})
	if err != nil {
		t.Fatal(err)
	}
}
