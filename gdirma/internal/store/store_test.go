package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
	"github.com/gdi-go/gdi/txn"
)

// Tests of the store on rma/local. Blocks are 256 bytes unless a test
// says otherwise: a primary block holds 224 image bytes, a continuation
// block 240.

var testConfig = Config{Tag: 7, BlockSize: 256, Blocks: 64, DHTBuckets: 16, DHTEntries: 64, MaxIDKey: 32}

const (
	firstBytes = 256 - PrimaryHeader // image bytes in a primary block
	contBytes  = 256 - ContHeader    // image bytes in a continuation block
)

// newStore returns a Store on one local rank, freed when t ends. The rank
// waits for the test to end, so that the test goroutine may use t.Fatal.
func newStore(t *testing.T, c Config) *Store {
	t.Helper()
	ready := make(chan *Store, 1)
	done := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- local.Run(1, func(comm rma.Comm) error {
			s, err := New(comm, c)
			ready <- s
			if err != nil {
				return err
			}
			<-done
			return s.Free()
		})
	}()
	s := <-ready
	if s == nil {
		t.Fatalf("New: %v", <-errc)
	}
	t.Cleanup(func() {
		close(done)
		if err := <-errc; err != nil {
			t.Errorf("Free: %v", err)
		}
	})
	return s
}

// onRanks runs fn on a Store of each of n local ranks; fn reports
// failures as errors (t.Fatal must not end a rank's goroutine).
func onRanks(t *testing.T, n int, c Config, fn func(comm rma.Comm, s *Store) error) {
	t.Helper()
	err := local.Run(n, func(comm rma.Comm) error {
		s, err := New(comm, c)
		if err != nil {
			return err
		}
		ferr := fn(comm, s)
		if err := comm.Barrier(); err != nil { // no rank frees while others work
			return errors.Join(ferr, err)
		}
		return errors.Join(ferr, s.Free())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// pattern returns n bytes that differ from those of another seed.
func pattern(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7+i/251) ^ seed
	}
	return b
}

// acquire takes n blocks of rank target.
func acquire(s *Store, target, n int) ([]bgdl.DPtr, error) {
	chain := make([]bgdl.DPtr, n)
	for i := range chain {
		p, err := s.Acquire(target)
		if err != nil {
			return nil, err
		}
		chain[i] = p
	}
	return chain, nil
}

// put writes img as a new holder of kind k on fresh blocks of rank target.
func put(s *Store, target int, k Kind, img Parts) ([]bgdl.DPtr, Version, error) {
	chain, err := acquire(s, target, s.BlocksFor(img.Len()))
	if err != nil {
		return nil, 0, err
	}
	v, err := s.NextVersion()
	if err != nil {
		return nil, 0, err
	}
	return chain, v, s.writeImage(k, v, chain, img, Dirty{}, nil)
}

func mustPut(t *testing.T, s *Store, k Kind, img []byte) ([]bgdl.DPtr, Version) {
	t.Helper()
	chain, v, err := put(s, 0, k, Parts{Head: img, Refs: -1})
	if err != nil {
		t.Fatalf("writing a holder of %d bytes: %v", len(img), err)
	}
	return chain, v
}

// readImg is Read returning the image.
func readImg(s *Store, p bgdl.DPtr, rq *Request) (Image, bool, error) {
	var img Image
	ok, err := s.Read(p, rq, &img)
	return img, ok, err
}

// readAfter is a Read On from prev, a Prefix read made before.
func readAfter(s *Store, p bgdl.DPtr, rq Request, prev Image) (Image, bool, error) {
	rq.Mode |= On
	ok, err := s.Read(p, &rq, &prev)
	return prev, ok, err
}

func mustReadOn(t *testing.T, s *Store, p bgdl.DPtr, rq Request, prev Image) Image {
	t.Helper()
	img, ok, err := readAfter(s, p, rq, prev)
	if err != nil || !ok {
		t.Fatalf("Read On (%v, mode %d): ok %v, err %v; want the rest", p, rq.Mode, ok, err)
	}
	return img
}

func mustRead(t *testing.T, s *Store, p bgdl.DPtr, rq Request) Image {
	t.Helper()
	img, ok, err := readImg(s, p, &rq)
	if err != nil || !ok {
		t.Fatalf("Read(%v, mode %d): ok %v, err %v; want a holder", p, rq.Mode, ok, err)
	}
	return img
}

// rewrite writes img over holder chain under its write lock, as a commit
// does, with a new version.
func rewrite(s *Store, k Kind, chain []bgdl.DPtr, img Parts) (Version, error) {
	a := s.LockAddr(chain[0])
	if err := txn.Lock(s.Locks(), a.Rank, a.Off, txn.Write); err != nil {
		return 0, err
	}
	defer txn.Unlock(s.Locks(), a.Rank, a.Off, txn.Write)
	v, err := s.NextVersion()
	if err != nil {
		return 0, err
	}
	return v, s.writeImage(k, v, chain, img, Dirty{}, nil)
}

// vertexImage returns a vertex image for holder p: a head with a property
// of propLen bytes, degrees, and references to n edges (some with labels,
// some wide, one a tombstone), and where the references begin. If align
// is past the head, a tombstone before it makes an entry start there.
func vertexImage(s *Store, p bgdl.DPtr, propLen, n, align int) (img []byte, refs int) {
	img = layout.AppendHead(nil, []uint32{3, 9}, []layout.Property{{Ptype: 5, Value: gdi.Bytes(pattern(propLen, 0x5a))}})
	img = layout.AppendDegrees(img, [3]uint64{uint64(n), 0, uint64(n)})
	refs = len(img)
	cd := s.Codec(p)
	for i := 1; i <= n; i++ {
		x := layout.Ref{Dir: gdi.Directed, Origin: layout.NumberOf(p), Target: layout.NumberOf(s.BlockAt(0, 1+i%50))}
		if i%3 == 0 {
			x.Label = uint32(i)
		}
		if i%7 == 0 {
			x.Holder = layout.NumberOf(s.BlockAt(0, 2+i%40)) // the wide form
		}
		if gap := align - len(img); gap >= 2 && gap <= 60 {
			img = append(img, make([]byte, gap)...)
			layout.Kill(img[len(img)-gap:])
		}
		at := len(img)
		img = cd.Append(img, layout.LightNumber(layout.NumberOf(p), i, s.BlockSize()), x)
		if i == n/2 {
			layout.Kill(img[at:]) // a tombstone is an entry too
		}
	}
	return img, refs
}

// TestWriteReadRoundTrip: what Write writes, Read gives back whole, with
// its kind, version, length and chain; a Prefix read gives the part in
// the primary block, Single iff that is all of it.
func TestWriteReadRoundTrip(t *testing.T) {
	s := newStore(t, testConfig)
	for i, l := range []int{0, 1, firstBytes, firstBytes + 1, firstBytes + contBytes, 240 + 3*240, firstBytes + (MinFenced+3)*contBytes + 17} {
		k := Kind(i % 2)
		want := pattern(l, byte(i))
		chain, v := mustPut(t, s, k, want)
		if len(chain) != s.BlocksFor(l) {
			t.Fatalf("BlocksFor(%d) = %d", l, len(chain))
		}
		img := mustRead(t, s, chain[0], Request{})
		if !bytes.Equal(img.Bytes, want) || img.Kind != k || img.Version != v || img.Length != l || img.Chain != nil || !img.Whole() {
			t.Errorf("len %d: Whole read gives %d bytes (equal %v), kind %v, version %v, length %d, chain %v; want %v, %v, %d",
				l, len(img.Bytes), bytes.Equal(img.Bytes, want), img.Kind, img.Version, img.Length, img.Chain, k, v, l)
		}
		img = mustRead(t, s, chain[0], Request{Mode: Chain})
		if !bytes.Equal(img.Bytes, want) || !slices.Equal(img.Chain, chain) {
			t.Errorf("len %d: Chain read gives chain %v, want %v (bytes equal %v)", l, img.Chain, chain, bytes.Equal(img.Bytes, want))
		}
		img = mustRead(t, s, chain[0], Request{Mode: Prefix})
		if !bytes.Equal(img.Bytes, want[:min(l, firstBytes)]) || img.Single != (l <= firstBytes) || img.Length != l || img.Version != v || img.Kind != k {
			t.Errorf("len %d: Prefix read gives %d bytes, Single %v, length %d; want the first %d, Single %v",
				l, len(img.Bytes), img.Single, img.Length, min(l, firstBytes), l <= firstBytes)
		}
		checkSmallRoom(t, s, chain[0], want)
	}
}

// checkSmallRoom: a Whole read copies an image that fits in Request.Small
// there, and one that does not elsewhere, leaving the room alone.
func checkSmallRoom(t *testing.T, s *Store, p bgdl.DPtr, want []byte) {
	t.Helper()
	for _, room := range []int{len(want), len(want) - 1} {
		if room < 1 {
			continue
		}
		small := bytes.Repeat([]byte{0xee}, room)
		img := mustRead(t, s, p, Request{Small: small})
		inRoom := &img.Bytes[0] == &small[0]
		if !bytes.Equal(img.Bytes, want) || inRoom != (room >= len(want)) || (!inRoom && small[0] != 0xee) {
			t.Errorf("len %d, room %d: Whole read gives equal bytes %v, in the room %v (room's first byte %#x)",
				len(want), room, bytes.Equal(img.Bytes, want), inRoom, small[0])
		}
	}
}

// TestPartsCopyAtAndSplitWrite: an image given as Head and Tail, split
// anywhere, is copied (CopyAt) and written as the same bytes.
func TestPartsCopyAtAndSplitWrite(t *testing.T) {
	s := newStore(t, testConfig)
	want := pattern(5*contBytes, 0x33)
	chain, _ := mustPut(t, s, Edge, want)
	for _, cut := range []int{0, 1, 15, firstBytes - 1, firstBytes, firstBytes + 1, 700, len(want) - 1, len(want)} {
		parts := Parts{Head: want[:cut], Tail: want[cut:], Refs: -1}
		for _, off := range []int{0, 1, cut - 1, cut, cut + 1, firstBytes, len(want) - 3, len(want)} {
			if off < 0 || off > len(want) {
				continue
			}
			for _, size := range []int{1, 16, contBytes, len(want)} {
				dst := make([]byte, size)
				n := parts.CopyAt(dst, off)
				wn := copy(make([]byte, size), want[off:])
				if n != wn || !bytes.Equal(dst[:n], want[off:off+wn]) {
					t.Fatalf("cut %d: CopyAt(%d bytes, off %d) copies %d bytes %x, want %d bytes %x", cut, size, off, n, dst[:n], wn, want[off:off+wn])
				}
			}
		}
		if _, err := rewrite(s, Edge, chain, parts); err != nil {
			t.Fatal(err)
		}
		if img := mustRead(t, s, chain[0], Request{}); !bytes.Equal(img.Bytes, want) {
			t.Errorf("cut %d: the image written from Head and Tail reads back different", cut)
		}
	}
}

// TestReadNoPrimaryIsNotFound: Read of a block that is no primary block,
// or of a DPtr that names no block, reports ok false and no error; so does
// a block Acquire hands out, whatever it held before.
func TestReadNoPrimaryIsNotFound(t *testing.T) {
	s := newStore(t, testConfig)
	chain, _ := mustPut(t, s, Vertex, pattern(600, 1))
	bad, _ := bgdl.MakeDPtr(0, s.BlockSize()+8)
	for _, p := range []bgdl.DPtr{bgdl.Null, bad, s.BlockAt(0, 0), s.BlockAt(0, testConfig.Blocks+1), s.BlockAt(1, 1), chain[1], chain[2]} {
		for _, mode := range []Mode{Whole, Prefix, Chain} {
			if img, ok, err := readImg(s, p, &Request{Mode: mode}); ok || err != nil {
				t.Errorf("Read(%v, mode %d) = %d bytes, ok %v, err %v; want not found", p, mode, len(img.Bytes), ok, err)
			}
		}
	}
	// A primary block released is no primary block any more, neither
	// free nor once Acquire hands it out again.
	p := chain[0]
	if err := s.Release(p); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := readImg(s, p, &Request{}); ok || err != nil {
		t.Errorf("Read of a released block: ok %v, err %v; want not found (Release clears the marker)", ok, err)
	}
	q, err := s.Acquire(0)
	if err != nil || q != p {
		t.Fatalf("Acquire after Release(%v) = %v, %v; the test expects the pool to hand it back", p, q, err)
	}
	if _, ok, err := readImg(s, q, &Request{}); ok || err != nil {
		t.Errorf("Read of a freshly acquired block: ok %v, err %v; want not found", ok, err)
	}
}

// TestDirtyWriteSkipsCleanBlocks: a Write with a Dirty span writes the
// primary block and the continuation blocks the span touches, and leaves
// the others as they are.
func TestDirtyWriteSkipsCleanBlocks(t *testing.T) {
	s := newStore(t, testConfig)
	old := pattern(firstBytes+4*contBytes, 1) // blocks: [0,224) [224,464) [464,704) [704,944) [944,1184)
	chain, _ := mustPut(t, s, Edge, old)
	// Garbage in blocks 1 and 3, which the write must not touch: if it
	// rewrote them, the garbage would be gone.
	garbage := bytes.Repeat([]byte{0xee}, contBytes)
	for _, b := range []int{1, 3} {
		if err := s.Put(garbage, chain[b], ContHeader); err != nil {
			t.Fatal(err)
		}
	}
	img := slices.Clone(old)
	copy(img[0:8], "new head")
	copy(img[500:510], "0123456789") // in block 2
	v2, err := s.NextVersion()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.writeImage(Edge, v2, chain, Parts{Head: img, Refs: -1}, Dirty{Some: true, Head: 8, Lo: 500, Hi: 510}, nil); err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(img)
	copy(want[firstBytes:], garbage)
	copy(want[firstBytes+2*contBytes:], garbage)
	got := mustRead(t, s, chain[0], Request{Mode: Chain})
	if got.Version != v2 || !slices.Equal(got.Chain, chain) {
		t.Errorf("after a dirty write: version %v, chain %v; want %v, %v", got.Version, got.Chain, v2, chain)
	}
	for b, r := range [][2]int{{0, firstBytes}, {firstBytes, 464}, {464, 704}, {704, 944}, {944, len(img)}} {
		if !bytes.Equal(got.Bytes[r[0]:r[1]], want[r[0]:r[1]]) {
			t.Errorf("block %d (image bytes %v) after a write dirty in [500,510) only: %s", b, r,
				map[bool]string{true: "was rewritten, though clean", false: "misses the change"}[b == 1 || b == 3])
		}
	}
}

// TestDirtyCovers: a Dirty span covers the bytes before Head and those in
// [Lo, Hi); the zero Dirty covers everything.
func TestDirtyCovers(t *testing.T) {
	d := Dirty{Some: true, Head: 10, Lo: 100, Hi: 110}
	for _, c := range []struct {
		from, to int
		want     bool
	}{{0, 5, true}, {9, 50, true}, {10, 100, false}, {50, 101, true}, {109, 200, true}, {110, 200, false}, {200, 300, false}} {
		if got := d.Covers(c.from, c.to); got != c.want {
			t.Errorf("%+v.Covers(%d, %d) = %v, want %v", d, c.from, c.to, got, c.want)
		}
	}
	if !(Dirty{}).Covers(1000, 2000) {
		t.Error("the zero Dirty does not cover everything")
	}
}

// TestPatchHeadAndBlocks: PatchHead and PatchBlocks change bytes in place
// and set the version; Read sees both.
func TestPatchHeadAndBlocks(t *testing.T) {
	s := newStore(t, testConfig)
	want := pattern(600, 4)
	chain, v1 := mustPut(t, s, Vertex, want)
	p := chain[0]
	v2, _ := s.NextVersion()
	if err := s.patchHead(p, v2, []byte("HEADPATCH")); err != nil {
		t.Fatal(err)
	}
	copy(want, "HEADPATCH")
	if img := mustRead(t, s, p, Request{}); img.Version != v2 || img.Version == v1 || !bytes.Equal(img.Bytes, want) {
		t.Errorf("after PatchHead: version %v (was %v, want %v), bytes equal %v", img.Version, v1, v2, bytes.Equal(img.Bytes, want))
	}
	v3, _ := s.NextVersion()
	patches := []Patch{{At: chain[1], Off: ContHeader + 5, B: []byte("abc")}, {At: chain[2], Off: ContHeader, B: []byte("xyz")}, {At: p, Off: PrimaryHeader + 100, B: []byte("P")}}
	if err := s.InstallPatches(v3, []Patched{{p, patches}}); err != nil {
		t.Fatal(err)
	}
	copy(want[firstBytes+5:], "abc")
	copy(want[firstBytes+contBytes:], "xyz")
	copy(want[100:], "P")
	if img := mustRead(t, s, p, Request{}); img.Version != v3 || !bytes.Equal(img.Bytes, want) {
		t.Errorf("after PatchBlocks: version %v (want %v), bytes equal %v", img.Version, v3, bytes.Equal(img.Bytes, want))
	}
	if _, v, ok, _, err := s.Stamp(p, nil); !ok || err != nil || v != v3 {
		t.Errorf("Stamp after PatchBlocks: version %v, ok %v, err %v; want %v", v, ok, err, v3)
	}
}

// shortHeadImage is a vertex image of n bytes whose head and degrees
// take its first few bytes, then filler.
func shortHeadImage(n int) []byte {
	img := layout.AppendHead(nil, []uint32{1, 2}, []layout.Property{{Ptype: 3, Value: gdi.Bytes([]byte("abc"))}})
	img = layout.AppendDegrees(img, [3]uint64{0, 0, 0})
	return append(img, pattern(n-len(img), 9)...)
}

// TestReadAfterPrefixRest: a Whole read On from a Prefix read gives
// the whole image and its chain; if a writer wrote the holder in between,
// it reports ok false. With 512-byte blocks the prefix is cut after
// PrefixLead bytes, and the rest of the primary block is read too.
func TestReadAfterPrefixRest(t *testing.T) {
	for _, bs := range []int{256, 512} {
		t.Run(fmt.Sprint("bs=", bs), func(t *testing.T) {
			c := testConfig
			c.BlockSize = bs
			s := newStore(t, c)
			want := shortHeadImage(6 * bs)
			chain, v := mustPut(t, s, Vertex, want)
			p := chain[0]
			pre := mustRead(t, s, p, Request{Mode: Prefix})
			wantPre := bs - PrimaryHeader
			if bs > 2*PrefixLead {
				wantPre = PrefixLead - PrimaryHeader
			}
			if len(pre.Bytes) != wantPre || !bytes.Equal(pre.Bytes, want[:len(pre.Bytes)]) || pre.Single || !pre.Stamped {
				t.Fatalf("Prefix read: %d bytes (prefix %v), Single %v, Stamped %v; want the first %d", len(pre.Bytes), bytes.HasPrefix(want, pre.Bytes), pre.Single, pre.Stamped, wantPre)
			}
			img, ok, err := readAfter(s, p, Request{}, pre)
			if !ok || err != nil || !bytes.Equal(img.Bytes, want) || !slices.Equal(img.Chain, chain) || img.Version != v || img.Length != len(want) {
				t.Errorf("Read After a prefix: ok %v, err %v, bytes equal %v, chain %v (want %v), version %v (want %v)", ok, err, bytes.Equal(img.Bytes, want), img.Chain, chain, img.Version, v)
			}
			pre = mustRead(t, s, p, Request{Mode: Prefix})
			if _, err := rewrite(s, Vertex, chain, Parts{Head: shortHeadImage(6 * bs), Refs: -1}); err != nil {
				t.Fatal(err)
			}
			if img, ok, err := readAfter(s, p, Request{}, pre); ok || err != nil {
				t.Errorf("Read After a prefix that a writer overtook: ok %v, err %v, %d bytes; want ok false", ok, err, len(img.Bytes))
			}
		})
	}
}

// TestReadAfterPrefixOn: a Prefix read On from a Prefix read of an
// image whose head spans blocks reads on block by block until the head
// and degrees are whole, and no further; a Whole read after that gives
// the rest. A writer in between makes it report ok false.
func TestReadAfterPrefixOn(t *testing.T) {
	s := newStore(t, testConfig)
	chain, err := acquire(s, 0, 12)
	if err != nil {
		t.Fatal(err)
	}
	p := chain[0]
	want, refs := vertexImage(s, p, 700, 140, 0) // the head ends in block 3
	chain = chain[:s.BlocksFor(len(want))]
	if len(chain) < 6 || len(chain) > 12 {
		t.Fatalf("test image of %d bytes takes %d blocks", len(want), len(chain))
	}
	parts := Parts{Head: want, Refs: refs}
	v, _ := s.NextVersion()
	if err := s.writeImage(Vertex, v, chain, parts, Dirty{}, nil); err != nil {
		t.Fatal(err)
	}
	fences := s.FencesOf(p, parts)
	pre := mustRead(t, s, p, Request{Mode: Prefix})
	if layout.PrefixHolds(pre.Bytes) {
		t.Fatal("test image: the primary block holds the head")
	}
	on := mustReadOn(t, s, p, Request{Mode: Prefix}, pre)
	n := len(on.Chain)
	if !bytes.HasPrefix(want, on.Bytes) || !layout.PrefixHolds(on.Bytes) || on.Whole() || on.Single {
		t.Fatalf("read on: %d bytes, a prefix %v, holds the head %v, whole %v; want a prefix holding the head", len(on.Bytes), bytes.HasPrefix(want, on.Bytes), layout.PrefixHolds(on.Bytes), on.Whole())
	}
	if len(on.Bytes) != firstBytes+(n-1)*contBytes || layout.PrefixHolds(on.Bytes[:len(on.Bytes)-contBytes]) {
		t.Errorf("read on: %d bytes over %d blocks; want whole blocks, none more than the head needs", len(on.Bytes), n)
	}
	if !slices.Equal(on.Chain, chain[:n]) || !slices.Equal(on.Fences, fences[:n-1]) || on.Next != chain[n] {
		t.Errorf("read on: chain %v fences %v next %v; want %v %v %v", on.Chain, on.Fences, on.Next, chain[:n], fences[:n-1], chain[n])
	}
	whole := mustReadOn(t, s, p, Request{}, on)
	if !bytes.Equal(whole.Bytes, want) || !slices.Equal(whole.Chain, chain) || !slices.Equal(whole.Fences, fences) || whole.Version != v {
		t.Errorf("Whole read after reading on: bytes equal %v, chain %v, fences %v, version %v; want %v %v %v", bytes.Equal(whole.Bytes, want), whole.Chain, whole.Fences, whole.Version, chain, fences, v)
	}
	pre = mustRead(t, s, p, Request{Mode: Prefix})
	if _, err := rewrite(s, Vertex, chain, parts); err != nil {
		t.Fatal(err)
	}
	if img, ok, err := readAfter(s, p, Request{Mode: Prefix}, pre); ok || err != nil {
		t.Errorf("reading on from a prefix that a writer overtook: ok %v, err %v, %d bytes; want ok false", ok, err, len(img.Bytes))
	}
}

// writeImage is write of img over chain, unchecked.
func (s *Store) writeImage(k Kind, v Version, chain []bgdl.DPtr, img Parts, dirty Dirty, fences []uint16) error {
	return s.write(&Plan{Kind: k, Holder: chain[0], Chain: chain, Image: img, Dirty: dirty, Fences: fences}, v)
}
