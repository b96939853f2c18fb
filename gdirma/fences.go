package gdirma

import (
	"sort"

	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// Fences (store.NoFence): while the references of a record keep the
// layout they were read in, record.rawFind uses the fences of the blocks
// it was read from to search by halving the blocks, then walks at most
// one block's worth of entries.

// walkFrom returns the offset in raw from which a walk looking for
// reference n may start: the fence of the last block whose first live
// entry has a number not above n, found by halving the blocks, or 0.
func (r *record) walkFrom(n layout.Number) int {
	fences := r.fences()
	if !r.edit.on || len(fences) == 0 {
		return 0
	}
	k := sort.Search(len(fences), func(j int) bool {
		at, ok := r.fenceAt(j)
		if !ok {
			// No entry starts in the block: it holds labels and
			// properties, before the references, or the end of the last
			// one.
			return at > 0
		}
		for b := r.raw[at:]; len(b) > 0; {
			e, size, ok := r.cd.Number(b)
			if !ok {
				break
			}
			if e != 0 || b[0] != layout.RfDead {
				return e > n
			}
			b = b[size:]
		}
		return true // only tombstones from here on
	})
	if k == 0 {
		return 0
	}
	if at, ok := r.fenceAt(k - 1); ok {
		return at
	}
	return 0 // a block before the references
}

// fenceAt returns the offset in raw of the fence of continuation block
// j+1 of the image r was read from. If no entry starts in the block, ok
// is false and at is where the block starts, relative to raw.
func (r *record) fenceAt(j int) (at int, ok bool) {
	bs := int(r.cd.BS)
	at = bs - store.PrimaryHeader + j*(bs-store.ContHeader) - int(r.rawOff)
	f := r.long.fences[j]
	if f == store.NoFence {
		return at, false
	}
	at += int(f)
	return at, at >= 0 && at < len(r.raw)
}
