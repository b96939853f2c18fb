package gdirma_test

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
)

// TestReadsNotTorn: transactions copy holders without locking them
// (store.Store.Read), so a copy made while a commit writes the holder
// may be torn, and must be noticed and made again. Writers on every rank
// rewrite one vertex of many 64-byte blocks, each time with a property
// whose bytes are all one letter, as long as the letter says (the image
// shrinks and grows, so its blocks change too); readers on every rank
// must only ever see such a property. With blocks of 1 KiB the image
// fits its primary block, which is then read in one access and checked
// (store's checked.go).
func TestReadsNotTorn(t *testing.T) {
	for _, bs := range []int{64, 1024} {
		for _, ranks := range []int{1, 2} {
			t.Run(fmt.Sprintf("bs=%d/ranks=%d", bs, ranks), func(t *testing.T) {
				run(t, ranks, gdirma.Params{BlockSize: bs, MemoryPerRank: 1 << 20}, readsNotTorn)
			})
		}
	}
}

// fill is the property value of letter l: l repeated 100 + 20*(l-'a')
// times.
func fill(l byte) gdi.Value {
	return gdi.Chars(string(bytes.Repeat([]byte{l}, 100+20*int(l-'a'))))
}

func readsNotTorn(c rma.Comm, db gdi.Database) error {
	const iters = 150
	label, err := db.CreateLabel("Hot")
	if err != nil {
		return err
	}
	pt, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "fill", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.MaxSize, Count: 1024})
	if err != nil {
		return err
	}
	id := []byte("hot")
	if c.Rank() == 0 {
		err := retry(db, func(tx gdi.Transaction) error {
			v, err := tx.CreateVertex(id)
			if err != nil {
				return err
			}
			if err := v.AddLabel(label); err != nil {
				return err
			}
			return v.AddProperty(pt, fill('a'))
		})
		if err != nil {
			return err
		}
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	// conflict tells the failures that concurrency explains.
	conflict := func(err error) bool {
		k := gdi.ErrorClass(err)
		return k == gdi.ErrTransactionCritical || k == gdi.ErrTransactionCommitFail
	}
	// read returns the vertex and the value of its property in tx.
	read := func(tx gdi.Transaction) (gdi.VertexHolder, string, error) {
		uid, found, err := tx.TranslateVertexID(label, id)
		if err != nil || !found {
			return nil, "", fmt.Errorf("translate: %v %v", found, err)
		}
		v, err := tx.AssociateVertex(uid)
		if err != nil {
			return nil, "", err
		}
		ps, err := v.Properties(pt)
		if err != nil {
			return nil, "", err
		}
		if len(ps) != 1 {
			return nil, "", fmt.Errorf("%d values of the property", len(ps))
		}
		return v, ps[0].RawString(), nil
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	whole := 0
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	wg.Go(func() { // the writer
		for range iters {
			err := inTx(db, func(tx gdi.Transaction) error {
				v, s, err := read(tx)
				if err != nil {
					return err
				}
				next := byte('a' + (len(s)+20-100)/20%26)
				return v.UpdateProperty(pt, fill(next))
			})
			if err != nil && !conflict(err) {
				fail(fmt.Errorf("writer: %w", err))
				return
			}
		}
	})
	for range 2 {
		wg.Go(func() { // a reader
			for range iters {
				var s string
				err := inTx(db, func(tx gdi.Transaction) error {
					var err error
					_, s, err = read(tx)
					return err
				})
				if err != nil {
					if !conflict(err) {
						fail(fmt.Errorf("reader: %w", err))
						return
					}
					continue
				}
				if s == "" || s != fill(s[0]).RawString() {
					fail(fmt.Errorf("reader: a torn copy: %s", s))
					return
				}
				mu.Lock()
				whole++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if whole == 0 {
		return errors.New("no read succeeded")
	}
	return c.Barrier()
}
