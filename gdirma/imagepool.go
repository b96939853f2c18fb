package gdirma

import (
	"math/bits"
	"sync"

	"github.com/gdi-go/gdi/internal/invariants"
)

// Image buffers. Reading a long vertex whole (for its edge references)
// needs a buffer the size of its image, which the records decoded from it
// use until the transaction ends; on graphs with hubs these are most of
// the bytes a transaction allocates, and zeroing and collecting them cost
// more than reading them. So transactions take them from an imagePool and
// give them back when they end (Transaction.end), when no record of theirs
// is used any more: nothing a transaction returns refers to a record's
// bytes (property values, for one, are copied out of the image).
type imagePool [48]sync.Pool // by size class: capacity 1<<class

// minPooledImage is the smallest image read into a pooled buffer. Images
// that span two blocks of the usual sizes are pooled too: an edge query
// on an ordinary vertex then allocates only its result.
const minPooledImage = 256

// get returns a buffer of length l.
func (p *imagePool) get(l int) *[]byte {
	c := bits.Len(uint(l - 1))
	if b, ok := p[c].Get().(*[]byte); ok {
		*b = (*b)[:l]
		return b
	}
	b := make([]byte, l, 1<<c)
	return &b
}

// put gives back buffers from get. Under invariants they are filled with
// garbage first, so that a record still used would show it.
func (p *imagePool) put(bufs []*[]byte) {
	for _, b := range bufs {
		if invariants.Enabled {
			for i := range *b {
				(*b)[i] = 0xa5
			}
		}
		p[bits.Len(uint(cap(*b)-1))].Put(b)
	}
}
