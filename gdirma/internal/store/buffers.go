package store

import (
	"math/bits"
	"sync"

	"github.com/gdi-go/gdi/internal/invariants"
)

// Image buffers. Reading a long vertex whole (for its edge references)
// needs a buffer the size of its image, which the records decoded from it
// use until the transaction ends; on graphs with hubs these are most of
// the bytes a transaction allocates, and zeroing and collecting them cost
// more than reading them. So readers that say so (Request.Pool) get them
// from a pool, and give them back with PutImages when nothing uses them
// any more.
type imagePool [48]sync.Pool // by size class: capacity 1<<class

// MinPooled is the smallest image read into a pooled buffer. Images that
// span two blocks of the usual sizes are pooled too: an edge query on an
// ordinary vertex then allocates only its result.
const MinPooled = 256

func (p *imagePool) get(l int) *[]byte {
	c := bits.Len(uint(l - 1))
	if b, ok := p[c].Get().(*[]byte); ok {
		*b = (*b)[:l]
		return b
	}
	b := make([]byte, l, 1<<c)
	return &b
}

// PutImages gives back buffers a Read put in Request.Pool. Under
// invariants they are filled with garbage first, so that an image still
// used would show it.
func (s *Store) PutImages(bufs []*[]byte) {
	for _, b := range bufs {
		if invariants.Enabled {
			for i := range *b {
				(*b)[i] = 0xa5
			}
		}
		s.images[bits.Len(uint(cap(*b)-1))].Put(b)
	}
}

// imageBuf returns a buffer of l bytes for an image of request rq: its
// Small room if it fits, otherwise pooledBuf's.
func (s *Store) imageBuf(l int, rq *Request) []byte {
	if l <= len(rq.Small) {
		return rq.Small[:l]
	}
	return s.pooledBuf(l, rq.Pool)
}

// pooledBuf returns a buffer of l bytes for an image: from the pool,
// appended to *pool, if pool is set and the image is not small.
func (s *Store) pooledBuf(l int, pool *[]*[]byte) []byte {
	if pool == nil || l < MinPooled {
		return make([]byte, l)
	}
	b := s.images.get(l)
	*pool = append(*pool, b)
	return *b
}

// BlockBuf returns a buffer of one block; PutBlockBuf gives it back.
func (s *Store) BlockBuf() *[]byte {
	if b, ok := s.bufs.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, s.bs)
	return &b
}

func (s *Store) PutBlockBuf(b *[]byte) { s.bufs.Put(b) }
