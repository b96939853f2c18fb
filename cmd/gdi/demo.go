package main

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

// runDemo has every rank insert its share of K application IDs into the
// DHT, each pointing at a block acquired on a rank chosen round-robin and
// stamped with the ID; then every rank looks up IDs stored by the others and
// checks the block behind each. It prints what each phase did and how long
// it took, and fails on any mismatch.
func runDemo(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ranks := fs.Int("ranks", 4, "number of ranks")
	keys := fs.Int("keys", 200000, "number of application IDs")
	usageOf(fs, demoUsage, stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkParsed(fs); err != nil {
		return err
	}
	if *ranks < 1 || *keys < 1 {
		return fmt.Errorf("-ranks and -keys must be positive")
	}
	err := launch.Run(*ranks, func(c rma.Comm) error {
		return demo(c, *keys, stdout, stderr)
	})
	return errors.Join(err, launch.Finalize())
}

func demo(c rma.Comm, keys int, stdout, stderr io.Writer) error {
	per := keys/c.Size() + 1
	pool, err := bgdl.NewPool(c, bgdl.Config{BlockSize: 64, Blocks: per + 16})
	if err != nil {
		return err
	}
	table, err := dht.New(c, dht.Config{Buckets: per, Entries: per + per/2 + 16, MaxKey: 8})
	if err != nil {
		return err
	}
	say := func(format string, a ...any) {
		if c.Rank() == 0 {
			fmt.Fprintf(stdout, format, a...)
		}
	}
	say("%d ranks (%s backend), %d application IDs\n", c.Size(), launch.Backend(), keys)

	key := make([]byte, 8)
	stamp := make([]byte, 8)
	start, line := time.Now(), newStatusLine(stderr)
	for id := c.Rank(); id < keys; id += c.Size() {
		ptr, err := pool.Acquire(id % c.Size())
		if err != nil {
			return err
		}
		binary.LittleEndian.PutUint64(stamp, uint64(id))
		if err := pool.Data().Put(stamp, ptr.Rank(), ptr.Offset()); err != nil {
			return err
		}
		if err := pool.Data().Flush(ptr.Rank()); err != nil {
			return err
		}
		binary.LittleEndian.PutUint64(key, uint64(id))
		if err := table.Insert(1, key, uint64(ptr)); err != nil {
			return err
		}
		if c.Rank() == 0 && id%(keys/10+1) == 0 {
			line.show(fmt.Sprintf("insert: %3d%%", 100*id/keys), false)
		}
	}
	if c.Rank() == 0 {
		line.show("insert: 100%", true)
		line.end()
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	say("inserted %d IDs in %v\n", keys, time.Since(start).Round(time.Millisecond))

	start = time.Now()
	checked := []int64{0}
	for id := (c.Rank() + 1) % c.Size(); id < keys; id += c.Size() {
		binary.LittleEndian.PutUint64(key, uint64(id))
		v, found, err := table.Lookup(1, key)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("application ID %d lost", id)
		}
		ptr := bgdl.DPtr(v)
		if err := pool.Data().Get(stamp, ptr.Rank(), ptr.Offset()); err != nil {
			return err
		}
		if err := pool.Data().Flush(ptr.Rank()); err != nil {
			return err
		}
		if got := binary.LittleEndian.Uint64(stamp); got != uint64(id) {
			return fmt.Errorf("block %v of ID %d holds %d", ptr, id, got)
		}
		checked[0]++
	}
	if err := c.AllreduceInt64(checked, rma.OpSum); err != nil {
		return err
	}
	say("looked up and checked %d IDs stored by other ranks in %v\n", checked[0], time.Since(start).Round(time.Millisecond))
	free := []int64{0}
	n, err := pool.FreeBlocks(c.Rank())
	if err != nil {
		return err
	}
	free[0] = int64(n)
	if err := c.AllreduceInt64(free, rma.OpSum); err != nil {
		return err
	}
	say("blocks in use: %d of %d\n", int64(c.Size()*pool.Blocks())-free[0], c.Size()*pool.Blocks())
	return errors.Join(table.Free(), pool.Free())
}
