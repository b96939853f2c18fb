package dht_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/rmatest"
)

// The DHT benchmarks run on a table holding a million keys (label, 8-byte
// application ID), spread over the ranks, with two buckets per key: at load
// factor 1/2 about 60% of the keys sit alone in their bucket's home entry,
// found with one memory access (at load factor 1, about 37%).
const benchKeys = 1 << 20

func benchKey(buf []byte, id uint64) []byte {
	binary.LittleEndian.PutUint64(buf, id)
	return buf
}

// benchTable builds a table of benchKeys keys plus room for extra more, each
// rank inserting its share of the keys. The overflow heap has room for all
// of them, whatever the home entries take.
func benchTable(c rma.Comm, extra int) (*dht.Table, error) {
	per := (benchKeys + extra) / c.Size()
	tb, err := dht.New(c, dht.Config{Buckets: 2 * benchKeys / c.Size(), Entries: per + 1024, MaxKey: 8})
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 8)
	for id := c.Rank(); id < benchKeys; id += c.Size() {
		if err := tb.Insert(1, benchKey(buf, uint64(id)), uint64(id)); err != nil {
			return nil, errors.Join(err, tb.Free())
		}
	}
	return tb, c.Barrier()
}

// freshKey is the i-th key a rank adds beyond the first benchKeys, distinct
// across ranks.
func freshKey(c rma.Comm, i int) uint64 { return uint64(benchKeys + i*c.Size() + c.Rank()) }

// mix scatters i over [0, n) so lookups hit random buckets.
func mix(i uint64, n uint64) uint64 { return (i * 0x9e3779b97f4a7c15 >> 20) % n }

func BenchmarkDHTLookup(b *testing.B) {
	rmatest.RanksSubBenchmarks(b, func(b *testing.B, n int) {
		ranktest.Bench(b, n, func(c rma.Comm, _ int) (func(int) error, func() error, error) {
			tb, err := benchTable(c, 0)
			if err != nil {
				return nil, nil, err
			}
			buf := make([]byte, 8)
			op := func(i int) error {
				id := mix(uint64(i+c.Rank()*7919), benchKeys)
				v, found, err := tb.Lookup(1, benchKey(buf, id))
				if err == nil && (!found || v != id) {
					err = errors.New("lookup of an existing key failed")
				}
				return err
			}
			return op, tb.Free, nil
		})
	})
}

func BenchmarkDHTInsert(b *testing.B) {
	rmatest.RanksSubBenchmarks(b, func(b *testing.B, n int) {
		ranktest.Bench(b, n, func(c rma.Comm, N int) (func(int) error, func() error, error) {
			tb, err := benchTable(c, N*c.Size())
			if err != nil {
				return nil, nil, err
			}
			buf := make([]byte, 8)
			op := func(i int) error {
				id := freshKey(c, i)
				return tb.Insert(1, benchKey(buf, id), id)
			}
			return op, tb.Free, nil
		})
	})
}

func BenchmarkDHTDelete(b *testing.B) {
	rmatest.RanksSubBenchmarks(b, func(b *testing.B, n int) {
		ranktest.Bench(b, n, func(c rma.Comm, N int) (func(int) error, func() error, error) {
			tb, err := benchTable(c, N*c.Size())
			if err != nil {
				return nil, nil, err
			}
			buf := make([]byte, 8)
			for i := range N { // untimed: the keys to delete
				if err := tb.Insert(1, benchKey(buf, freshKey(c, i)), 1); err != nil {
					return nil, nil, errors.Join(err, tb.Free())
				}
			}
			op := func(i int) error {
				found, err := tb.Delete(1, benchKey(buf, freshKey(c, i)))
				if err == nil && !found {
					err = errors.New("delete of an existing key found nothing")
				}
				return err
			}
			return op, tb.Free, c.Barrier()
		})
	})
}
