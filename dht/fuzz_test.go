package dht_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// FuzzOperations decodes the input into a sequence of inserts, lookups and
// deletes of arbitrary keys (up to three bytes longer than MaxKey) on a
// table of two buckets and four overflow entries, and checks every result
// against a map. A full table may refuse an insert only when it holds more
// keys than it has overflow entries.
func FuzzOperations(f *testing.F) {
	f.Add([]byte("\x00\x03abc\x01\x03abc\x02\x03abc\x01\x03abc"))
	f.Add([]byte("\x00\x00\x00\x01a\x00\x01b\x00\x01c\x00\x01d\x00\x01e\x00\x01f\x00\x01g\x02\x01c\x00\x01h"))
	f.Add([]byte("\x00\x0b0123456789a\x00\x08\x00\xff\x00\xff\x00\xff\x00\xff"))
	const buckets, entries, maxKey = 2, 4, 8
	f.Fuzz(func(t *testing.T, in []byte) {
		err := local.Run(1, func(c rma.Comm) error {
			return withTable(c, dht.Config{Buckets: buckets, Entries: entries, MaxKey: maxKey}, func(tb *dht.Table) error {
				model := map[string]uint64{}
				for i := 0; len(in) >= 2; i++ {
					op, n := in[0]%3, int(in[1])%(maxKey+4)
					in = in[2:]
					n = min(n, len(in))
					key := in[:n]
					in = in[n:]
					label := uint32(op) & 1 // same bytes under two labels
					mk := fmt.Sprint(label, "/", string(key))
					want, present := model[mk]
					long := n > maxKey
					switch op {
					case 0:
						err := tb.Insert(label, key, uint64(i))
						switch {
						case long && errors.Is(err, dht.ErrKeyTooLong):
						case present && errors.Is(err, dht.ErrExists):
						case !present && errors.Is(err, dht.ErrFull) && len(model) > entries:
						case !present && !long && err == nil:
							model[mk] = uint64(i)
						default:
							return fmt.Errorf("op %d: Insert(%q) = %v (present %v, %d keys)", i, mk, err, present, len(model))
						}
					case 1:
						v, found, err := tb.Lookup(label, key)
						if long != errors.Is(err, dht.ErrKeyTooLong) || !long && (err != nil || found != present || found && v != want) {
							return fmt.Errorf("op %d: Lookup(%q) = %d, %v, %v; model %d, %v", i, mk, v, found, err, want, present)
						}
					case 2:
						found, err := tb.Delete(label, key)
						if long != errors.Is(err, dht.ErrKeyTooLong) || !long && (err != nil || found != present) {
							return fmt.Errorf("op %d: Delete(%q) = %v, %v; model %v", i, mk, found, err, present)
						}
						delete(model, mk)
					}
				}
				return checkHeap(c, tb, len(model))
			})
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
