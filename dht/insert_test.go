package dht_test

import (
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/count"
	"github.com/gdi-go/gdi/rma/local"
)

// TestInsertAccesses pins the calls of inserts on one rank: into a bucket
// with a free home entry, five accesses (read the bucket word, read the
// slot, take the entry, write it, swap the bucket word); into a full
// slot, an overflow entry taken from the heap and linked, with no walk
// of the chain; and an insert of a present key, which is checked as a
// Lookup would.
func TestInsertAccesses(t *testing.T) {
	err := local.Run(1, func(c rma.Comm) error {
		cc := count.Wrap(c)
		return withTable(cc, dht.Config{Buckets: 1, Entries: 8}, func(tb *dht.Table) error {
			insert := func(key string) (count.Counts, error) {
				before := cc.Counts()
				err := tb.Insert(1, []byte(key), 7)
				return cc.Counts().Sub(before), err
			}
			want := []count.Counts{
				{Gets: 1, Puts: 1, Atomics: 3, Flushes: 2}, // home entry 1
				{Gets: 1, Puts: 1, Atomics: 3, Flushes: 2}, // home entry 2
			}
			for i, w := range want {
				got, err := insert(fmt.Sprint("k", i))
				if err != nil {
					return err
				}
				if got.Gets != w.Gets || got.Puts != w.Puts || got.Atomics != w.Atomics || got.Flushes != w.Flushes {
					return fmt.Errorf("insert %d into a bucket with a free home entry: %+v, want %+v", i, got, w)
				}
			}
			got, err := insert("k2")
			if err != nil {
				return err
			}
			// The bucket word, the pool's acquire (its head word on this
			// first acquire, the next link, the swap, the mark), the entry's
			// old link and its new one, the swap of the bucket word; no walk
			// of the chain (it lies in the slot).
			if got.Gets != 1 || got.Atomics != 1+4+2+1 {
				return fmt.Errorf("insert into a full slot: %+v, want 1 get and 8 atomics", got)
			}
			if _, err := insert("k1"); err == nil {
				return fmt.Errorf("insert of a present key: no error")
			}
			for _, k := range []string{"k0", "k1", "k2"} {
				if err := lookupWant(tb, 1, k, 7, true); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}
