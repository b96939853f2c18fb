package store

import (
	"encoding/binary"
	"errors"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Block layout (see the package doc).
const (
	markerPrimary = uint64(0x4744495052494d00)  // "GDIPRIM\x00" | kind
	markerCont    = uint64(0x47444943_4f4e0000) // "GDICON" | fence
	// PrimaryHeader and ContHeader are the bytes before the image in a
	// primary and in a continuation block.
	PrimaryHeader = 32
	ContHeader    = 16
	// PrefixLead is how much of a primary block a prefix read gets first.
	PrefixLead = 128
	// Offsets of the words of a primary block.
	nextWord    = 8
	versionWord = 16
	lengthWord  = 24
)

// IsPrimary reports whether blk, a block read from its start, is the
// primary block of a holder of kind k.
func IsPrimary(blk []byte, k Kind) bool {
	return binary.LittleEndian.Uint64(blk) == markerPrimary|uint64(k)
}

// PrimaryOf returns, if blk (a block read from its start, at least
// PrimaryHeader bytes) is a primary block, the kind, version and image
// length of its holder.
func PrimaryOf(blk []byte) (k Kind, v Version, length int, ok bool) {
	m := binary.LittleEndian.Uint64(blk)
	if m&^0xff != markerPrimary {
		return 0, 0, 0, false
	}
	return Kind(m & 0xff), Version(binary.LittleEndian.Uint64(blk[versionWord:])),
		int(binary.LittleEndian.Uint64(blk[lengthWord:]) & lengthMask), true
}

// ContOf returns, if blk (a block read from its start, at least
// ContHeader bytes) is a continuation block, its fence.
func ContOf(blk []byte) (fence uint16, ok bool) {
	m := binary.LittleEndian.Uint64(blk)
	return uint16(m), m&^0xffff == markerCont
}

// NextOf is the block after blk in its chain, Null at the end.
func NextOf(blk []byte) bgdl.DPtr { return bgdl.DPtr(binary.LittleEndian.Uint64(blk[nextWord:])) }

// Valid reports whether p names a block of the pool.
func (s *Store) Valid(p bgdl.DPtr) bool { return s.pool.Valid(p) }

// BlockIndex is the number of block p on its rank.
func (s *Store) BlockIndex(p bgdl.DPtr) int { return p.Offset() / s.bs }

// BlockAt is block b of rank.
func (s *Store) BlockAt(rank, b int) bgdl.DPtr {
	p, _ := bgdl.MakeDPtr(rank, b*s.bs) // fits: the pool made it
	return p
}

// BlocksFor is the number of blocks an image of l bytes needs.
func (s *Store) BlocksFor(l int) int {
	if l <= s.bs-PrimaryHeader {
		return 1
	}
	c := s.bs - ContHeader
	return 1 + (l-(s.bs-PrimaryHeader)+c-1)/c
}

// Get reads len(buf) bytes of block p from offset off on.
func (s *Store) Get(buf []byte, p bgdl.DPtr, off int) error {
	if err := s.data.Get(buf, p.Rank(), p.Offset()+off); err != nil {
		return Internal(err)
	}
	return Internal(s.data.Flush(p.Rank()))
}

// Put writes buf into block p from offset off on.
func (s *Store) Put(buf []byte, p bgdl.DPtr, off int) error {
	if err := s.data.Put(buf, p.Rank(), p.Offset()+off); err != nil {
		return Internal(err)
	}
	return Internal(s.data.Flush(p.Rank()))
}

// Prefetch starts loading the first k bytes of block p into the cache,
// where the data window can (rma.Prefetcher), and returns at once: a read
// of them a little later then need not wait for memory.
func (s *Store) Prefetch(p bgdl.DPtr, k int) {
	if s.pf != nil && s.Valid(p) {
		s.pf.Prefetch(p.Rank(), p.Offset(), k)
	}
}

// CanPrefetch reports whether Prefetch does anything.
func (s *Store) CanPrefetch() bool { return s.pf != nil }

// Prefetcher is the data window's rma.Prefetcher, nil if it has none.
// SetPrefetcher replaces it, for tests that watch the hints; it must not
// be called while the Store is in use.
func (s *Store) Prefetcher() rma.Prefetcher     { return s.pf }
func (s *Store) SetPrefetcher(p rma.Prefetcher) { s.pf = p }

// Acquire takes a block, from rank target if it has one, else from the
// other ranks in turn, and raises its rank's high-water mark to it. Its
// marker word is not a primary block's: Release cleared it, or the block
// was never used.
func (s *Store) Acquire(target int) (bgdl.DPtr, error) {
	for i := range s.size {
		r := (target + i) % s.size
		p, err := s.pool.Acquire(r)
		if errors.Is(err, bgdl.ErrExhausted) {
			continue
		}
		if err != nil {
			return 0, Internal(err)
		}
		return p, s.RaiseHighWater(r, s.BlockIndex(p))
	}
	return 0, gdi.Errorf(gdi.ErrNoMemory, "gdirma: no free block on any rank (%d blocks of %d bytes per rank)", s.pool.Blocks(), s.bs)
}

// Release clears the marker of block p and gives it back to the pool.
func (s *Store) Release(p bgdl.DPtr) error {
	if err := s.data.AtomicPut(p.Rank(), p.Offset(), 0); err != nil {
		return Internal(err)
	}
	return Internal(s.pool.Release(p))
}

// ReleaseAll releases blocks, all of them even if one fails.
func (s *Store) ReleaseAll(blocks []bgdl.DPtr) error {
	var first error
	for _, b := range blocks {
		if err := s.Release(b); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// clear clears the marker of holder p's primary block: the holder is
// gone, though its blocks are not yet released.
func (s *Store) clear(p bgdl.DPtr) error {
	return Internal(s.data.AtomicPut(p.Rank(), p.Offset(), 0))
}

// A Glimpse is what a glance at the primary block of a holder saw, without
// a lock: the length of its image and the block after the primary one
// (Null if the image fits the primary block). It is a guess, which a later
// Read checks; OK is false if the length makes no sense.
type Glimpse struct {
	Length int
	Next   bgdl.DPtr
	OK     bool
}

// glimpseSize is the bytes of a primary block a glance reads: its next,
// version and length words.
const glimpseSize = lengthWord + 8 - nextWord

// Glance glances at the primary blocks of holders ps and appends a Glimpse
// of each to out. It issues a plain Get per holder and completes them with
// one flush (of their rank, or of all), so the glances of a vertex's
// neighbours take one round trip, not one each. A copy torn by a
// concurrent write is a wrong guess, as a stale one is.
func (s *Store) Glance(ps []bgdl.DPtr, out []Glimpse) ([]Glimpse, error) {
	bp := s.images.get(max(1, len(ps)) * glimpseSize)
	defer s.PutImages([]*[]byte{bp})
	buf := *bp
	var f flushSet
	for i, p := range ps {
		if !s.Valid(p) {
			continue
		}
		if err := s.data.Get(buf[i*glimpseSize:(i+1)*glimpseSize], p.Rank(), p.Offset()+nextWord); err != nil {
			return out, Internal(err)
		}
		f.add(p.Rank())
	}
	if err := f.flush(s.data); err != nil {
		return out, Internal(err)
	}
	for i, p := range ps {
		g := buf[i*glimpseSize:]
		l := binary.LittleEndian.Uint64(g[lengthWord-nextWord:]) & lengthMask
		if !s.Valid(p) || l >= uint64(s.pool.Blocks()*s.bs) {
			out = append(out, Glimpse{})
			continue
		}
		next := bgdl.Null // the next word names no block (checked.go)
		if int(l) > s.bs-PrimaryHeader {
			next = bgdl.DPtr(binary.LittleEndian.Uint64(g))
		}
		out = append(out, Glimpse{Length: int(l), Next: next, OK: true})
	}
	return out, nil
}
