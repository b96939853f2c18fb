package store

import (
	"slices"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
)

// Reads that go on from a Prefix read (Mode On). Both read only the
// blocks the read before did not, and both check the lock word stamp of
// the read before: a writer that came in between makes them report ok
// false, and the caller reads the holder afresh. The image is changed
// only if ok.

// readOn reads on from prefix, a Prefix read of holder p that holds its
// primary block whole but not all its labels, properties and degrees:
// block by block, until they are whole or the image ends. ok is false if
// a writer came in meanwhile, or the blocks make no sense (the caller
// then reads the holder whole, and finds out).
func (s *Store) readOn(p bgdl.DPtr, prefix *Image, pool *[]*[]byte) (ok bool, err error) {
	c := s.bs - ContHeader
	have := len(prefix.Bytes)
	if have != min(prefix.Length, s.bs-PrimaryHeader) || !prefix.Stamped {
		return false, nil // a prefix cut short, which PrefixHolds would have read on
	}
	keepFences := s.BlocksFor(prefix.Length) > MinFenced
	img := *prefix
	img.Chain, img.Fences = []bgdl.DPtr{p}, nil
	buf := s.pooledBuf(min(img.Length, have+2*c), pool) // room for most heads
	copy(buf, prefix.Bytes)
	bp := s.BlockBuf()
	defer s.PutBlockBuf(bp)
	blk := *bp
	for !layout.PrefixHolds(buf[:have]) && have < img.Length {
		next := img.Next
		if next == 0 || !s.Valid(next) || len(img.Chain) >= s.BlocksFor(img.Length) {
			return false, nil
		}
		k := min(c, img.Length-have)
		if err := s.Get(blk[:ContHeader+k], next, 0); err != nil {
			return false, err
		}
		fence, ok := ContOf(blk)
		if !ok {
			return false, nil
		}
		if have+k > len(buf) {
			grown := s.pooledBuf(min(img.Length, 2*len(buf)+k), pool)
			copy(grown, buf[:have])
			buf = grown
		}
		copy(buf[have:], blk[ContHeader:ContHeader+k])
		have += k
		img.Chain = append(img.Chain, next)
		if keepFences {
			img.Fences = append(img.Fences, fence)
		}
		img.Next = NextOf(blk)
	}
	if valid, err := s.StillValid(p, img.Stamp); err != nil || !valid {
		return false, err
	}
	img.Bytes, img.Single = buf[:have], false
	*prefix = img
	return true, nil
}

// readRest reads the rest of holder p's image after *img, a Prefix read
// which holds its first bytes, and lists its blocks.
func (s *Store) readRest(p bgdl.DPtr, rq *Request, img *Image) (ok bool, err error) {
	h := img
	out := Image{Kind: h.Kind, Version: h.Version, Length: h.Length, Next: h.Next, Stamp: h.Stamp, Stamped: true, ChainSum: h.ChainSum}
	out.Bytes = s.pooledBuf(h.Length, rq.Pool) // not Small: h.Bytes may be there
	have := copy(out.Bytes, h.Bytes)
	if first := min(h.Length, s.bs-PrimaryHeader); have < first {
		err = s.Get(out.Bytes[have:first], p, PrimaryHeader+have)
		have = first
	}
	out.Chain = append(rq.Chain[:0], p)
	if len(h.Chain) > 1 { // the prefix spans blocks (readOn)
		out.Chain = append(rq.Chain[:0], h.Chain...)
		out.Fences = slices.Clone(h.Fences)
	}
	if err == nil {
		err = s.readConts(p, &out, have, true)
	}
	// As in Read, a torn copy's errors do not count.
	if valid, verr := s.StillValid(p, h.Stamp); verr != nil || !valid {
		return false, verr
	}
	if err != nil {
		return false, err
	}
	*img = out
	return true, nil
}
