package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/txn"
)

// TestVersionsAndCommits: versions drawn on a rank carry its rank and
// rising counts; Commits sums the draws of all ranks.
func TestVersionsAndCommits(t *testing.T) {
	onRanks(t, 2, testConfig, func(comm rma.Comm, s *Store) error {
		var last Version
		for i := 1; i <= 3; i++ {
			v, err := s.NextVersion()
			if err != nil {
				return err
			}
			if v == 0 || v.Rank() != s.Rank() || v.Count() != uint64(i) || v <= last {
				return fmt.Errorf("draw %d on rank %d: version %#x (count %d, rank %d)", i, s.Rank(), uint64(v), v.Count(), v.Rank())
			}
			last = v
		}
		if err := comm.Barrier(); err != nil {
			return err
		}
		if n, err := s.Commits(); err != nil || n != 6 {
			return fmt.Errorf("Commits after 3 draws on each of 2 ranks = %d, %v; want 6", n, err)
		}
		return nil
	})
}

// TestStamp: Stamp reports kind, version and whether a writer holds the
// lock, but not for a lock in held; no primary block gives ok false.
func TestStamp(t *testing.T) {
	s := newStore(t, testConfig)
	vc, vv := mustPut(t, s, Vertex, pattern(300, 1))
	ec, ev := mustPut(t, s, Edge, pattern(10, 2))
	check := func(what string, p bgdl.DPtr, held *txn.LockSet, wk Kind, wv Version, wok, wlocked bool) {
		t.Helper()
		k, v, ok, locked, err := s.Stamp(p, held)
		if err != nil || ok != wok || locked != wlocked || (ok && (k != wk || v != wv)) {
			t.Errorf("Stamp of %s = %v, %v, ok %v, writeLocked %v, err %v; want %v, %v, ok %v, writeLocked %v", what, k, v, ok, locked, err, wk, wv, wok, wlocked)
		}
	}
	check("a vertex", vc[0], nil, Vertex, vv, true, false)
	check("an edge", ec[0], nil, Edge, ev, true, false)
	check("a continuation block", vc[1], nil, 0, 0, false, false)
	check("no block", s.BlockAt(0, testConfig.Blocks+1), nil, 0, 0, false, false)
	held := txn.NewLockSet(s.Locks())
	if err := held.Lock(uint64(vc[0]), s.LockAddr(vc[0]), txn.Write); err != nil {
		t.Fatal(err)
	}
	check("a write-locked vertex", vc[0], nil, Vertex, vv, true, true)
	check("a vertex whose lock the caller holds", vc[0], held, Vertex, vv, true, false)
	check("an unlocked edge, with held", ec[0], held, Edge, ev, true, false)
	if err := held.ReleaseAll(); err != nil {
		t.Fatal(err)
	}
	check("a vertex unlocked again", vc[0], nil, Vertex, vv, true, false)
}

// TestReadLockedHolder: a Read of a holder another transaction has locked
// for writing fails transaction-critical; one that holds the lock itself
// (Request.Held) reads it.
func TestReadLockedHolder(t *testing.T) {
	s := newStore(t, testConfig)
	want := pattern(500, 3)
	chain, _ := mustPut(t, s, Vertex, want)
	held := txn.NewLockSet(s.Locks())
	if err := held.Lock(uint64(chain[0]), s.LockAddr(chain[0]), txn.Write); err != nil {
		t.Fatal(err)
	}
	defer held.ReleaseAll()
	if _, ok, err := readImg(s, chain[0], &Request{}); ok || !errors.Is(err, gdi.ErrTransactionCritical) {
		t.Errorf("Read of a write-locked holder: ok %v, err %v; want ErrTransactionCritical", ok, err)
	}
	if img := mustRead(t, s, chain[0], Request{Held: held}); !bytes.Equal(img.Bytes, want) || img.Stamped {
		t.Errorf("Read by the lock holder: bytes equal %v, Stamped %v; want the image, unstamped", bytes.Equal(img.Bytes, want), img.Stamped)
	}
}

// TestUIDHolderRoundTrip: the UID of a block on any rank decodes back to
// it; Holder rejects 0, UIDs of another tag, and UIDs of no block.
func TestUIDHolderRoundTrip(t *testing.T) {
	onRanks(t, 2, testConfig, func(_ rma.Comm, s *Store) error {
		for target := range s.Size() {
			p, err := s.Acquire(target)
			if err != nil {
				return err
			}
			u := s.UID(p)
			if p.Rank() != target || u>>48 != uint64(testConfig.Tag) || int(u>>32&0xffff) != target || int(u&0xffffffff) != s.BlockIndex(p) {
				return fmt.Errorf("UID of %v (block %d of rank %d) = %#x", p, s.BlockIndex(p), target, u)
			}
			for _, k := range []Kind{Vertex, Edge} {
				if q, err := s.Holder(u, k); err != nil || q != p {
					return fmt.Errorf("Holder(UID(%v) = %#x, %v) = %v, %v", p, u, k, q, err)
				}
			}
		}
		tag := uint64(testConfig.Tag) << 48
		for _, c := range []struct {
			u    uint64
			want gdi.Code
		}{
			{0, gdi.ErrUID},
			{uint64(testConfig.Tag+1)<<48 | 1, gdi.ErrObjectMismatch},
			{tag | uint64(testConfig.Blocks+1), gdi.ErrUID},
			{tag, gdi.ErrUID},                 // block 0 is no block
			{tag | 2<<32 | 1, gdi.ErrUID},     // rank 2 of 2
			{tag | 1<<32 | 1<<31, gdi.ErrUID}, // far past the pool
		} {
			if p, err := s.Holder(c.u, Vertex); !errors.Is(err, c.want) {
				return fmt.Errorf("Holder(%#x) = %v, %v; want %v", c.u, p, err, c.want)
			}
		}
		return nil
	})
}

// TestUIDHoldersOnOtherRanks: holders written by one rank on another's
// blocks read the same from every rank.
func TestUIDHoldersOnOtherRanks(t *testing.T) {
	uids := make([][]uint64, 2)
	onRanks(t, 2, testConfig, func(comm rma.Comm, s *Store) error {
		other := 1 - s.Rank()
		img := pattern(700, byte(s.Rank()))
		chain, v, err := put(s, other, Edge, Parts{Head: img, Refs: -1})
		if err != nil {
			return err
		}
		uids[s.Rank()] = []uint64{s.UID(chain[0]), uint64(v)}
		if err := comm.Barrier(); err != nil {
			return err
		}
		for r := range 2 {
			p, err := s.Holder(uids[r][0], Edge)
			if err != nil {
				return err
			}
			got, ok, err := readImg(s, p, &Request{Mode: Chain})
			want := pattern(700, byte(r))
			if !ok || err != nil || !bytes.Equal(got.Bytes, want) || got.Version != Version(uids[r][1]) || got.Version.Rank() != r || p.Rank() != 1-r {
				return fmt.Errorf("rank %d reading the holder rank %d wrote on rank %d: ok %v, err %v, bytes equal %v, version %v", s.Rank(), r, p.Rank(), ok, err, bytes.Equal(got.Bytes, want), got.Version)
			}
			for _, b := range got.Chain {
				if b.Rank() != 1-r {
					return fmt.Errorf("chain %v of a holder acquired on rank %d", got.Chain, 1-r)
				}
			}
		}
		return nil
	})
}

// scan returns the primaries ScanPrimaries finds.
func scan(t *testing.T, s *Store, k Kind) []bgdl.DPtr {
	t.Helper()
	var got []bgdl.DPtr
	if err := s.ScanPrimaries(0, k, func(p bgdl.DPtr) error { got = append(got, p); return nil }); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestScanPrimariesHighWaterRelease: ScanPrimaries finds exactly the
// primary blocks of the kind asked, up to the high-water mark, which
// Acquire raises; Release clears the marker.
func TestScanPrimariesHighWaterRelease(t *testing.T) {
	s := newStore(t, testConfig)
	var vertices, edges []bgdl.DPtr
	top := 0 // the highest block acquired
	for i, l := range []int{10, 600, 30, 300, 1200, 5} {
		k := Kind(i % 2)
		chain, _ := mustPut(t, s, k, pattern(l, byte(i)))
		for _, b := range chain {
			if hw, err := s.HighWater(0); err != nil || hw < s.BlockIndex(b) {
				t.Fatalf("high-water mark %d (%v) below acquired block %d", hw, err, s.BlockIndex(b))
			}
			top = max(top, s.BlockIndex(b))
		}
		if k == Vertex {
			vertices = append(vertices, chain[0])
		} else {
			edges = append(edges, chain[0])
		}
	}
	if got := scan(t, s, Vertex); !slices.Equal(got, vertices) {
		t.Errorf("vertex scan = %v, want %v", got, vertices)
	}
	if got := scan(t, s, Edge); !slices.Equal(got, edges) {
		t.Errorf("edge scan = %v, want %v", got, edges)
	}
	// A primary block past the mark (never acquired) is not scanned. The
	// mark may be ahead of the blocks acquired (hwStep): it is set to the
	// highest, as recovery does.
	if err := s.SetHighWater(top); err != nil {
		t.Fatal(err)
	}
	hw, _ := s.HighWater(0)
	beyond := s.BlockAt(0, hw+5)
	if err := s.writeImage(Vertex, 1, []bgdl.DPtr{beyond}, Parts{Head: []byte("x"), Refs: -1}, Dirty{}, nil); err != nil {
		t.Fatal(err)
	}
	if got := scan(t, s, Vertex); slices.Contains(got, beyond) {
		t.Errorf("vertex scan finds %v, past the high-water mark %d", beyond, hw)
	}
	if err := s.RaiseHighWater(0, hw+5); err != nil {
		t.Fatal(err)
	}
	if got := scan(t, s, Vertex); !slices.Contains(got, beyond) {
		t.Errorf("vertex scan misses %v, below the raised high-water mark", beyond)
	}
	if err := s.clear(beyond); err != nil {
		t.Fatal(err)
	}
	// Release clears the marker: the holder is gone for reads and scans.
	if err := s.Release(vertices[1]); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := readImg(s, vertices[1], &Request{}); ok || err != nil {
		t.Errorf("Read of a released primary block: ok %v, err %v; want not found", ok, err)
	}
	want := slices.Delete(slices.Clone(vertices), 1, 2)
	if got := scan(t, s, Vertex); !slices.Equal(got, want) {
		t.Errorf("vertex scan after a Release and a Clear = %v, want %v", got, want)
	}
}

// wantFences returns the fences of the continuation blocks of img, whose
// references from refs on a walk of cd finds: where in each block the
// first entry that starts there begins, NoFence if none does.
func wantFences(t *testing.T, s *Store, img []byte, refs int, cd layout.Codec) []uint16 {
	t.Helper()
	var starts []int
	for at := refs; at < len(img); {
		_, size, ok := cd.Number(img[at:])
		if !ok {
			t.Fatalf("test image: no entry at %d", at)
		}
		starts = append(starts, at)
		at += size
	}
	var out []uint16
	for off := firstBytes; off < len(img); off += contBytes {
		f := uint16(NoFence)
		if i, _ := slices.BinarySearch(starts, off); i < len(starts) && starts[i] < off+contBytes {
			f = uint16(starts[i] - off)
		}
		out = append(out, f)
	}
	return out
}

// TestFencesOfMatchRead: the fences Write puts in the continuation blocks
// of a long vertex image, which Read returns, are FencesOf's, and mark the
// first entry starting in each block; an image given Head then Tail (the
// references) has the same; fences passed to Write are written as they
// are; short images and edges have none.
func TestFencesOfMatchRead(t *testing.T) {
	s := newStore(t, testConfig)
	chain, err := acquire(s, 0, 12)
	if err != nil {
		t.Fatal(err)
	}
	p := chain[0]
	// The head fills block 1 (NoFence); an entry starts right at the
	// start of block 4 (fence 0).
	img, refs := vertexImage(s, p, 460, 200, firstBytes+3*contBytes)
	chain = chain[:s.BlocksFor(len(img))]
	if len(chain) <= MinFenced+2 {
		t.Fatalf("test image takes %d blocks only", len(chain))
	}
	want := wantFences(t, s, img, refs, s.Codec(p))
	if want[0] != NoFence || want[3] != 0 || !slices.ContainsFunc(want, func(f uint16) bool { return f != NoFence && f != 0 }) {
		t.Fatalf("test image: fences %v; want NoFence first, 0 at block 4, and others", want)
	}
	whole, split := Parts{Head: img, Refs: refs}, Parts{Head: img[:refs], Tail: img[refs:], Refs: refs}
	if got := s.FencesOf(p, whole); !slices.Equal(got, want) {
		t.Errorf("FencesOf = %v, want %v", got, want)
	}
	if got := s.FencesOf(p, split); !slices.Equal(got, want) {
		t.Errorf("FencesOf of Head and Tail = %v, want %v", got, want)
	}
	for _, parts := range []Parts{whole, split} {
		if _, err := rewrite(s, Vertex, chain, parts); err != nil {
			t.Fatal(err)
		}
		if got := mustRead(t, s, p, Request{}); !slices.Equal(got.Fences, want) || !bytes.Equal(got.Bytes, img) {
			t.Errorf("fences read back = %v, want %v (bytes equal %v)", got.Fences, want, bytes.Equal(got.Bytes, img))
		}
	}
	given := make([]uint16, len(chain)-1)
	for i := range given {
		given[i] = uint16(i + 1)
	}
	if err := s.writeImage(Vertex, 99, chain, whole, Dirty{}, given); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, s, p, Request{}); !slices.Equal(got.Fences, given) {
		t.Errorf("fences passed to Write read back as %v, want %v", got.Fences, given)
	}
	// An edge image of as many blocks has no entries: every fence is
	// NoFence. A short vertex image has no fences read.
	if got := s.FencesOf(p, Parts{Head: img, Refs: -1}); len(got) != len(chain)-1 || slices.ContainsFunc(got, func(f uint16) bool { return f != NoFence }) {
		t.Errorf("FencesOf an edge image = %v, want NoFence only", got)
	}
	short, srefs := vertexImage(s, p, 20, 60, 0)
	if s.BlocksFor(len(short)) > MinFenced {
		t.Fatalf("test image of %d bytes is not short", len(short))
	}
	if _, err := rewrite(s, Vertex, chain[:s.BlocksFor(len(short))], Parts{Head: short, Refs: srefs}); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, s, p, Request{}); got.Fences != nil || !bytes.Equal(got.Bytes, short) {
		t.Errorf("a read of an image of %d blocks has fences %v, want none", s.BlocksFor(len(short)), got.Fences)
	}
}

// TestConcurrentReadsSeeWholeImages: readers that race a writer, which
// writes images A and B (of different lengths, over several blocks) in
// turn under the holder's write lock, see A or B whole, with the version
// it was written with, or a transaction-critical error, never a mix.
func TestConcurrentReadsSeeWholeImages(t *testing.T) {
	s := newStore(t, testConfig)
	imgs := [2][]byte{pattern(firstBytes+4*contBytes-7, 0xaa), pattern(firstBytes+7*contBytes-3, 0x55)}
	chain, err := acquire(s, 0, s.BlocksFor(len(imgs[1])))
	if err != nil {
		t.Fatal(err)
	}
	p := chain[0]
	var versions sync.Map // Version → index in imgs
	v, _ := s.NextVersion()
	versions.Store(v, 0)
	if err := s.writeImage(Edge, v, chain[:s.BlocksFor(len(imgs[0]))], Parts{Head: imgs[0], Refs: -1}, Dirty{}, nil); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var seen [2]atomic.Int64
	var busy atomic.Int64
	check := func(img Image, how string) error {
		i, known := versions.Load(img.Version)
		if !known {
			return fmt.Errorf("%s: version %v was never written", how, img.Version)
		}
		w := imgs[i.(int)]
		if !bytes.Equal(img.Bytes, w) || img.Length != len(w) || (img.Chain != nil && !slices.Equal(img.Chain, chain[:s.BlocksFor(len(w))])) {
			return fmt.Errorf("%s: a torn image of %d bytes (length %d), version %v of image %d (%d bytes), chain %v", how, len(img.Bytes), img.Length, img.Version, i, len(w), img.Chain)
		}
		seen[i.(int)].Add(1)
		return nil
	}
	read := func(rq Request, prev Image, how string) (Image, bool) {
		var img Image
		var ok bool
		var err error
		if rq.Mode&On != 0 {
			img, ok, err = readAfter(s, p, rq, prev)
		} else {
			img, ok, err = readImg(s, p, &rq)
		}
		switch {
		case errors.Is(err, gdi.ErrTransactionCritical):
			busy.Add(1)
			return img, false
		case err != nil || (!ok && rq.Mode&On == 0):
			t.Errorf("%s: ok %v, err %v", how, ok, err)
			stop.Store(true)
			return img, false
		}
		return img, ok
	}
	var wg sync.WaitGroup
	for r := range 4 {
		wg.Go(func() {
			for ; !stop.Load(); runtime.Gosched() { // the writer runs on one P too
				if r%2 == 0 {
					if img, ok := read(Request{Mode: Chain}, Image{}, "Chain read"); ok {
						if err := check(img, "Chain read"); err != nil {
							t.Error(err)
							stop.Store(true)
						}
					}
					continue
				}
				pre, ok := read(Request{Mode: Prefix}, Image{}, "Prefix read")
				if !ok {
					continue
				}
				if img, ok := read(Request{Mode: On}, pre, "read On"); ok {
					if err := check(img, "read After a prefix"); err != nil {
						t.Error(err)
						stop.Store(true)
					}
				}
			}
		})
	}
	// At least 400 writes, and on until the readers have seen both
	// images (or 2 s have passed).
	deadline := time.Now().Add(2 * time.Second)
	for i := 0; !stop.Load() && (i < 400 || seen[0].Load() == 0 || seen[1].Load() == 0) && time.Now().Before(deadline); i++ {
		which := (i + 1) % 2
		a := s.LockAddr(p)
		if err := txn.Lock(s.Locks(), a.Rank, a.Off, txn.Write); err != nil {
			t.Error(err)
			break
		}
		v, err := s.NextVersion()
		if err == nil {
			versions.Store(v, which)
			err = s.writeImage(Edge, v, chain[:s.BlocksFor(len(imgs[which]))], Parts{Head: imgs[which], Refs: -1}, Dirty{}, nil)
		}
		txn.Unlock(s.Locks(), a.Rank, a.Off, txn.Write)
		if err != nil {
			t.Error(err)
			break
		}
		runtime.Gosched()
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("reads of A %d, of B %d, busy %d", seen[0].Load(), seen[1].Load(), busy.Load())
	if seen[0].Load() == 0 || seen[1].Load() == 0 {
		t.Errorf("readers saw A %d times and B %d times; want both", seen[0].Load(), seen[1].Load())
	}
}

// TestUsedBlocksRebuildPool: UsedBlocks lists exactly the blocks of the
// holders' chains and the highest commit count; RebuildPool from that
// list gives a pool whose next blocks are none of them, and a high-water
// mark at the highest one.
func TestUsedBlocksRebuildPool(t *testing.T) {
	s := newStore(t, testConfig)
	var want []uint32
	for _, n := range []int{10, firstBytes + 3*contBytes, 1} {
		chain, _ := mustPut(t, s, Vertex, pattern(n, byte(n)))
		for _, p := range chain {
			want = append(want, uint32(s.BlockIndex(p)))
		}
	}
	stray, err := s.Acquire(0) // taken, but no holder's: free after the rebuild
	if err != nil {
		t.Fatal(err)
	}
	used, maxCount, err := s.UsedBlocks()
	if err != nil {
		t.Fatal(err)
	}
	var got []uint32
	for b := used[0]; len(b) >= 4; b = b[4:] {
		got = append(got, binary.LittleEndian.Uint32(b))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || maxCount[0] != 3 {
		t.Fatalf("UsedBlocks: blocks %v, max count %d; want %v, 3", got, maxCount[0], want)
	}
	if err := s.RebuildPool(used); err != nil {
		t.Fatal(err)
	}
	if hw, _ := s.HighWater(0); hw != int(want[len(want)-1]) {
		t.Errorf("high-water mark %d after the rebuild, want %d", hw, want[len(want)-1])
	}
	for range 64 - len(want) {
		p, err := s.Acquire(0)
		if err != nil {
			t.Fatalf("the pool has fewer free blocks than it should after the rebuild (stray block %v): %v", stray, err)
		}
		if slices.Contains(want, uint32(s.BlockIndex(p))) {
			t.Fatalf("the rebuilt pool hands out block %d, which a holder uses", s.BlockIndex(p))
		}
	}
}
