package index_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/index"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/rmatest"
)

// The benchmarks run on a tree whose part on every rank holds 2^20 entries
// with 8-byte keys, in 4 KiB nodes. Every rank works on the part of the next
// rank, (rank+1) mod n, so with more than one rank all accesses are remote.
const benchEntries = 1 << 20

func benchKey(buf []byte, i uint64) []byte {
	binary.BigEndian.PutUint64(buf, i)
	return buf
}

// benchKeyOf is the key of the i-th loaded entry; keys have gaps, so range
// bounds need not be present.
func benchKeyOf(i uint64) uint64 { return 2 * i }

// benchForest loads every rank's part with benchEntries entries, with room
// for extra more.
func benchForest(c rma.Comm, extra int) (*index.Forest, index.Tree, error) {
	// Full leaves hold 170 entries; random inserts leave them half full.
	nodes := 2*(benchEntries/170) + 2*extra/85 + 1024
	f, err := index.NewForest(c, index.Config{MaxKey: 8, Nodes: nodes})
	if err != nil {
		return nil, 0, err
	}
	tr, err := f.Create()
	if err != nil {
		return nil, 0, errors.Join(err, f.Free())
	}
	keys := make([]byte, 8*1024)
	ops := make([]index.Op, 0, 1024)
	for i := range uint64(benchEntries) {
		k := keys[8*len(ops) : 8*len(ops)+8]
		ops = append(ops, index.Op{Key: benchKey(k, benchKeyOf(i)), Val: i})
		if len(ops) == cap(ops) || i == benchEntries-1 {
			if err := f.Apply(tr, c.Rank(), ops); err != nil {
				return nil, 0, errors.Join(err, f.Free())
			}
			ops = ops[:0]
		}
	}
	return f, tr, c.Barrier()
}

// mix scatters i over [0, n).
func mix(i, n uint64) uint64 { return (i * 0x9e3779b97f4a7c15 >> 20) % n }

// BenchmarkScanRange scans 1% of a part (10486 entries) from a random start.
func BenchmarkScanRange(b *testing.B) {
	const span = benchEntries / 100
	rmatest.RanksSubBenchmarks(b, func(b *testing.B, n int) {
		ranktest.Bench(b, n, func(c rma.Comm, _ int) (func(int) error, func() error, error) {
			f, tr, err := benchForest(c, 0)
			if err != nil {
				return nil, nil, err
			}
			target := (c.Rank() + 1) % c.Size()
			lo, hi := make([]byte, 8), make([]byte, 8)
			var seen int
			count := func([]byte, uint64) bool { seen++; return true }
			op := func(i int) error {
				first := mix(uint64(i), benchEntries-span)
				seen = 0
				err := f.Scan(tr, target, benchKey(lo, benchKeyOf(first)), benchKey(hi, benchKeyOf(first+span-1)), count)
				if err == nil && seen != span {
					err = fmt.Errorf("scan found %d entries, want %d", seen, span)
				}
				return err
			}
			return op, f.Free, nil
		})
	})
}

// BenchmarkPointLookup finds one key with a Scan from the key to itself.
func BenchmarkPointLookup(b *testing.B) {
	rmatest.RanksSubBenchmarks(b, func(b *testing.B, n int) {
		ranktest.Bench(b, n, func(c rma.Comm, _ int) (func(int) error, func() error, error) {
			f, tr, err := benchForest(c, 0)
			if err != nil {
				return nil, nil, err
			}
			target := (c.Rank() + 1) % c.Size()
			k := make([]byte, 8)
			var found uint64
			var hits int
			get := func(_ []byte, v uint64) bool { found = v; hits++; return true }
			op := func(i int) error {
				want := mix(uint64(i), benchEntries)
				benchKey(k, benchKeyOf(want))
				hits = 0
				err := f.Scan(tr, target, k, k, get)
				if err == nil && (hits != 1 || found != want) {
					err = fmt.Errorf("lookup of %d found %d entries, value %d", want, hits, found)
				}
				return err
			}
			return op, f.Free, nil
		})
	})
}

// BenchmarkInsert adds fresh entries at random places of the loaded part.
func BenchmarkInsert(b *testing.B) {
	rmatest.RanksSubBenchmarks(b, func(b *testing.B, n int) {
		ranktest.Bench(b, n, func(c rma.Comm, N int) (func(int) error, func() error, error) {
			f, tr, err := benchForest(c, N)
			if err != nil {
				return nil, nil, err
			}
			target := (c.Rank() + 1) % c.Size()
			k := make([]byte, 8)
			op := func(i int) error {
				// A loaded key with a new value: a fresh entry at a random
				// place of the part.
				id := benchKeyOf(mix(uint64(i), benchEntries))
				added, err := f.Insert(tr, target, benchKey(k, id), benchEntries+uint64(i))
				if err == nil && !added {
					err = fmt.Errorf("insert of a fresh entry under key %d added nothing", id)
				}
				return err
			}
			return op, f.Free, nil
		})
	})
}
