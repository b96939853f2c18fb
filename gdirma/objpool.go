package gdirma

import (
	"sync"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/internal/invariants"
)

// Copies of holders. Every object a transaction reads costs it a
// loadedObj: the copy and its record, and for a vertex read whole the
// committed record its copy was made from (txObj.orig) and its blocks,
// about 900 bytes. Allocated afresh they are the bulk of what a read-only
// transaction allocates: fresh memory is cold memory, and what is
// allocated drives the collector. So transactions take them from a
// loadedPool and give them back when they end (Transaction.end).
//
// That is safe because nothing outlives a transaction that points into
// its copies. Holders are not part of a copy (Transaction.holders): a
// holder of an ended transaction fails on tx.open before it looks for
// one. Results are copied out: label and UID slices are made per call,
// property values are strings of their own (decodeHeadAt), and the bytes of
// images are pooled separately (store.Request.Pool) under the same rule.
type loadedPool struct{ p sync.Pool }

// poisonVersion marks records of copies given back, under invariants.
const poisonVersion = 0xdead_0b1e_c7ed_dead

// get returns a zeroed copy (but for the bytes of small), marked as
// pooled.
func (p *loadedPool) get() *loadedObj {
	c, ok := p.p.Get().(*loadedObj)
	if !ok {
		c = new(loadedObj)
	} else {
		// small is not cleared: only the bytes a read copies into it are
		// ever used.
		c.o, c.r, c.orig, c.chain = txObj{}, record{}, record{}, [4]bgdl.DPtr{}
	}
	c.o.room = c
	return c
}

// put gives back the copy o, which must come from get. Under invariants
// it is left poisoned until its next use: a transaction still reading it
// would find a deleted object of a version no holder has, and garbage in
// its small image.
// Giving back the same copy twice is a no-op.
func (p *loadedPool) put(o *txObj) {
	c := o.room
	if c == nil {
		return
	}
	o.room = nil
	if invariants.Enabled {
		c.o = txObj{deleted: true}
		c.r = record{version: poisonVersion, recordHead: recordHead{lbls: []uint32{^uint32(0)}}}
		c.orig = c.r
		for i := range c.small {
			c.small[i] = 0xa5 // as store.PutImages does
		}
	}
	p.p.Put(c)
}
