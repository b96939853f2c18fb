package store

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/count"
	"github.com/gdi-go/gdi/rma/local"
)

// withCounted runs fn on a Store of one local rank whose windows count
// their calls.
func withCounted(t *testing.T, fn func(s *Store, cc *count.Comm) error) {
	t.Helper()
	withCountedConfig(t, testConfig, fn)
}

// withCountedConfig is withCounted of a Store configured with cfg.
func withCountedConfig(t *testing.T, cfg Config, fn func(s *Store, cc *count.Comm) error) {
	t.Helper()
	err := local.Run(1, func(c rma.Comm) error {
		cc := count.Wrap(c)
		s, err := New(cc, cfg)
		if err != nil {
			return err
		}
		defer s.Free()
		return fn(s, cc)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestWriteCalls pins the calls of writes: an image of n blocks on one
// rank is n puts and two flushes (the continuation blocks, then the
// primary block), and the patches of several holders are completed by
// the batch that sets their versions.
func TestWriteCalls(t *testing.T) {
	withCounted(t, func(s *Store, cc *count.Comm) error {
		const blocks = 5
		img := pattern(firstBytes+(blocks-1)*contBytes, 3)
		chain := make([]bgdl.DPtr, blocks)
		for i := range chain {
			p, err := s.Acquire(0)
			if err != nil {
				return err
			}
			chain[i] = p
		}
		before := cc.Counts()
		if err := s.Install(1, &Plan{Kind: Vertex, Holder: chain[0], Chain: chain, Image: Parts{Head: img, Refs: -1}}); err != nil {
			return err
		}
		if got := cc.Counts().Sub(before); got.Puts != blocks || got.Flushes != 2 || got.Calls() != blocks+2 {
			return fmt.Errorf("an image of %d blocks: %+v; want %d puts and 2 flushes", blocks, got, blocks)
		}
		other, err := s.Acquire(0)
		if err != nil {
			return err
		}
		if err := s.Install(1, &Plan{Kind: Vertex, Holder: other, Chain: []bgdl.DPtr{other}, Image: Parts{Head: img[:8], Refs: -1}}); err != nil {
			return err
		}
		before = cc.Counts()
		patches := []Patch{{At: chain[1], Off: ContHeader, B: []byte{1}}, {At: chain[3], Off: ContHeader, B: []byte{2}}}
		if err := s.InstallPatches(2, []Patched{{chain[0], patches}, {other, []Patch{{At: other, Off: PrimaryHeader, B: []byte{3}}}}}); err != nil {
			return err
		}
		// 3 puts, staged, then the versions in one batch (2 atomics and a
		// flush), whose flush completes the puts.
		if got := cc.Counts().Sub(before); got.Puts != 3 || got.Atomics != 2 || got.MPI != 3+2+1 {
			return fmt.Errorf("three patches of two holders: %+v; want 3 puts and 2 atomics, %d MPI calls", got, 3+2+1)
		}
		if o, ok, err := readImg(s, other, &Request{}); err != nil || !ok || o.Version != 2 || o.Bytes[0] != 3 {
			return fmt.Errorf("the other holder after the patches: version %d, ok %v, %v", o.Version, ok, err)
		}
		got, ok, err := readImg(s, chain[0], &Request{})
		if err != nil || !ok || got.Version != 2 || got.Bytes[firstBytes] != 1 || got.Bytes[firstBytes+2*contBytes] != 2 {
			return fmt.Errorf("after the patches: version %d, ok %v, %v", got.Version, ok, err)
		}
		return nil
	})
}

// TestHighWaterCalls: raising the high-water mark block by block reads
// and raises it once in hwStep blocks, and the mark always covers the
// block; after SetHighWater (recovery) what was known of it is forgotten.
func TestHighWaterCalls(t *testing.T) {
	withCounted(t, func(s *Store, cc *count.Comm) error {
		check := func(b int) error {
			if hw, err := s.HighWater(0); err != nil || hw < b {
				return fmt.Errorf("high-water mark %d (%v) below block %d raised to", hw, err, b)
			}
			return nil
		}
		var raising count.Counts
		for b := 1; b <= testConfig.Blocks; b++ {
			before := cc.Counts()
			if err := s.RaiseHighWater(0, b); err != nil {
				return err
			}
			raising = raising.Add(cc.Counts().Sub(before))
			if err := check(b); err != nil {
				return err
			}
		}
		if steps := (testConfig.Blocks + hwStep - 1) / hwStep; raising.Calls() > uint64(2*steps) {
			return fmt.Errorf("%d raises: %d calls; want at most 2 a step of %d blocks", testConfig.Blocks, raising.Calls(), hwStep)
		}
		if err := s.SetHighWater(3); err != nil {
			return err
		}
		if err := s.RaiseHighWater(0, 10); err != nil {
			return err
		}
		return check(10)
	})
}

// TestReadAhead: a read the long way gets Request.Ahead with the primary
// block, one flush for both, and says so; the block is got whole. A
// checked read of a holder in one block makes no such get.
func TestReadAhead(t *testing.T) {
	withCounted(t, func(s *Store, cc *count.Comm) error {
		long, _ := mustPut(t, s, Vertex, pattern(firstBytes+2*contBytes, 8))
		short, err := acquire(s, 0, 1)
		if err != nil {
			return err
		}
		if err := s.write(&Plan{Kind: Vertex, Holder: short[0], Chain: short, Image: Parts{Head: pattern(50, 9), Refs: -1}, Stamped: true}, 3); err != nil {
			return err
		}
		want := make([]byte, s.bs)
		if err := s.Get(want, long[2], 0); err != nil {
			return err
		}
		for _, c := range []struct {
			p             bgdl.DPtr
			mode          Mode
			ahead         bool
			gets, flushes uint64
		}{{long[0], Prefix, true, 2, 1}, {long[0], Whole, true, 4, 3}, {short[0], Prefix | Checked, false, 1, 1}} {
			a := &Ahead{At: long[2], Buf: make([]byte, s.bs)}
			before := cc.Counts()
			img := mustRead(t, s, c.p, Request{Mode: c.mode, Ahead: a})
			d := cc.Counts().Sub(before)
			if img.Ahead != c.ahead || d.Gets != c.gets || d.Flushes != c.flushes {
				return fmt.Errorf("a read (mode %d) asked to get a block ahead: Ahead %v, %d gets, %d flushes; want %v, %d, %d", c.mode, img.Ahead, d.Gets, d.Flushes, c.ahead, c.gets, c.flushes)
			}
			if c.ahead && !bytes.Equal(a.Buf, want) {
				return fmt.Errorf("the block got ahead differs from the block")
			}
		}
		return nil
	})
}

// TestGlanceCalls: a glance at several holders is a Get each and one
// flush, and it sees each image's length, and the next block of one that
// spans blocks.
func TestGlanceCalls(t *testing.T) {
	withCounted(t, func(s *Store, cc *count.Comm) error {
		short, _ := mustPut(t, s, Vertex, pattern(20, 1))
		long, _ := mustPut(t, s, Vertex, pattern(firstBytes+2*contBytes, 2))
		ps := []bgdl.DPtr{short[0], long[0], bgdl.Null}
		before := cc.Counts()
		gs, err := s.Glance(ps, nil)
		if err != nil {
			return err
		}
		if got := cc.Counts().Sub(before); got.Gets != 2 || got.Flushes != 1 || got.Atomics != 0 {
			return fmt.Errorf("a glance at two holders: %+v; want 2 gets and 1 flush", got)
		}
		want := []Glimpse{{Length: 20, OK: true}, {Length: firstBytes + 2*contBytes, Next: long[1], OK: true}, {}}
		if len(gs) != len(want) {
			return fmt.Errorf("%d glimpses of %d holders", len(gs), len(ps))
		}
		for i := range want {
			if gs[i] != want[i] {
				return fmt.Errorf("glimpse %d: %+v, want %+v", i, gs[i], want[i])
			}
		}
		return nil
	})
}
