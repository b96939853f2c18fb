package gdirma

import (
	"errors"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// dropLead is how much of a continuation block the walk reads: its
// header and, at the fences most blocks have, the number of the first
// entry.
const dropLead = 64

// dropReader reads the image of a vertex by pieces.
type dropReader struct {
	st     *graph
	cd     layout.Codec
	length int
	first  int // image bytes in the primary block
	// prefix is what the transaction read of the image, from the start
	// of the primary block: bytes within it are not read again.
	prefix []byte
	// chain, fences, firsts and fresh keep their room from plan to plan
	// (dropPlans), so that walking a hub seldom grows them.
	chain []bgdl.DPtr // blocks known so far, primary first
	next  bgdl.DPtr   // the block after the last in chain, Null at the end
	// whole is set once chain lists every block: walked to its end, or
	// recalled from the memo and found to have the chain sum.
	whole bool
	// The fence and number of the first entry of block i (0 if unknown)
	// are fences[i] and firsts[i] if fresh[i], read by this reader;
	// known.firsts[i] is the memo's number, which may be out of date.
	fences []uint16
	firsts []layout.Number
	fresh  []bool
	known  *knownChain // what the memo had, nil if nothing; shared, not changed
	// hint is the block known guesses for entry hintFor, if set: the
	// caller guessed it already (Transaction.dropSparse).
	hint    int
	hintFor layout.Number
	// learned is set if the reader knows more than the memo: it walked
	// the chain, or found the memo's guesses out of date.
	learned bool
	// fetched counts the reads since the caller last checked the lock
	// word (Transaction.dropSparse): none, and what the reader used was
	// all got with the prefix read, and checked with it.
	fetched int
	// blocks are the blocks read whole, by index in chain: a few per
	// vertex, so a list beats a map.
	blocks []readBlock
	spare  [][]byte       // block buffers of an earlier plan, for reuse
	lead   [dropLead]byte // what walk reads of a block
}

// readBlock is block i of a chain, read whole.
type readBlock struct {
	i int
	b []byte
}

// errTorn reports bytes that make no sense: read while a writer changed
// them, unless the lock word says none did.
var errTorn = errors.New("inconsistent image")

// blockOf returns the block index holding image offset off and the
// offset of that byte in the block.
func (d *dropReader) blockOf(off int) (int, int) {
	if off < d.first {
		return 0, store.PrimaryHeader + off
	}
	c := d.st.BlockSize() - store.ContHeader
	return 1 + (off-d.first)/c, store.ContHeader + (off-d.first)%c
}

// startOf returns the image offset at which block i's data begins.
func (d *dropReader) startOf(i int) int {
	if i == 0 {
		return 0
	}
	return d.first + (i-1)*(d.st.BlockSize()-store.ContHeader)
}

// firstOf is the best known number of the first entry of block i: read,
// else guessed, else 0.
func (d *dropReader) firstOf(i int) layout.Number {
	switch {
	case i < len(d.fresh) && d.fresh[i]:
		return d.firsts[i]
	case d.known != nil && i < len(d.known.firsts):
		return d.known.firsts[i]
	}
	return 0
}

// note records what b, the start of block i of the chain (dropLead bytes
// or more), says: its fence, the number of its first entry and, if the
// chain is whole, that the block after it is the one listed.
func (d *dropReader) note(i int, b []byte) error {
	fence, ok := store.ContOf(b)
	if !ok {
		return errTorn
	}
	var num layout.Number
	if fence != store.NoFence && store.ContHeader+int(fence) < len(b) {
		if e, _, ok := d.cd.Number(b[store.ContHeader+int(fence):]); ok {
			num = e // 0 for a tombstone: unknown
		}
	}
	if d.whole {
		want := bgdl.Null
		if i+1 < len(d.chain) {
			want = d.chain[i+1]
		}
		if store.NextOf(b) != want {
			return errTorn
		}
	}
	for len(d.fresh) <= i {
		d.fences, d.firsts, d.fresh = append(d.fences, 0), append(d.firsts, 0), append(d.fresh, false)
	}
	d.fences[i], d.firsts[i], d.fresh[i] = fence, num, true
	return nil
}

// walk reads the start of continuation blocks until block i is known, or
// the chain ends.
func (d *dropReader) walk(i int) error {
	buf := d.lead[:min(dropLead, d.st.BlockSize())]
	for len(d.chain) <= i && d.next != 0 {
		next := d.next
		if !d.st.Valid(next) || len(d.chain) >= d.st.BlocksFor(d.length) {
			return errTorn
		}
		if err := d.st.Get(buf, next, 0); err != nil {
			return err
		}
		d.fetched++
		d.chain = append(d.chain, next)
		if err := d.note(len(d.chain)-1, buf); err != nil {
			return err
		}
		d.next, d.learned = store.NextOf(buf), true
	}
	if d.next == 0 && len(d.chain) == d.st.BlocksFor(d.length) {
		d.whole = true
	}
	return nil
}

// readLead reads the start of block i of a whole chain, unless it was
// read.
func (d *dropReader) readLead(i int) error {
	if i == 0 || (i < len(d.fresh) && d.fresh[i]) {
		return nil
	}
	buf := d.lead[:min(dropLead, d.st.BlockSize())]
	if err := d.st.Get(buf, d.chain[i], 0); err != nil {
		return err
	}
	d.fetched++
	d.learned = true
	return d.note(i, buf)
}

// block returns block i whole, reading it on first use.
func (d *dropReader) block(i int) ([]byte, error) {
	for _, rb := range d.blocks {
		if rb.i == i {
			return rb.b, nil
		}
	}
	if err := d.walk(i); err != nil {
		return nil, err
	}
	if i >= len(d.chain) {
		return nil, errTorn
	}
	b := d.spareBlock(d.st.BlockSize())
	if err := d.st.Get(b, d.chain[i], 0); err != nil {
		return nil, err
	}
	d.fetched++
	return b, d.keep(i, b)
}

// keep adds b, block i of the chain read whole, to the blocks read.
func (d *dropReader) keep(i int, b []byte) error {
	d.blocks = append(d.blocks, readBlock{i, b})
	if i == 0 {
		return nil
	}
	return d.note(i, b[:min(dropLead, len(b))])
}

// spareBlock returns room for a block of bs bytes, one of an earlier
// plan's if it has any.
func (d *dropReader) spareBlock(bs int) []byte {
	if k := len(d.spare) - 1; k >= 0 && len(d.spare[k]) == bs {
		b := d.spare[k]
		d.spare = d.spare[:k]
		return b
	}
	return make([]byte, bs)
}

// start makes d the reader of vertex n from h, a prefix read of it,
// knowing no more of its chain than h does.
func (d *dropReader) start(n layout.Number, h *restHint) {
	d.next, d.whole, d.learned = h.Next, false, false
	d.chain, d.fences, d.firsts, d.fresh = append(d.chain[:0], n.Holder()), append(d.fences[:0], 0), append(d.firsts[:0], 0), append(d.fresh[:0], true)
	d.known = nil
	if len(h.Chain) > 1 { // the part read spans blocks: the walk starts after them
		d.chain = append(d.chain, h.Chain[1:]...)
		d.fences = append(d.fences, h.Fences...)
		for range h.Chain[1:] {
			d.firsts, d.fresh = append(d.firsts, 0), append(d.fresh, true)
		}
	}
}

// recall takes the chain of a vertex from k, what the memo has of it (nil
// for nothing), if it has the chain sum that h, the prefix read, found:
// as remembered, cut short, or walked on from its last block (the memo
// keeps the part of a chain a drop walked, and the hub may have grown).
// It reports whether the chain is whole; if not, the caller starts the
// reader afresh.
func (d *dropReader) recall(k *knownChain, h *restHint) (bool, error) {
	if k == nil || h.ChainSum == 0 || len(h.Chain) > 1 || len(k.chain) < 2 {
		return false, nil
	}
	d.chain = append(d.chain[:0], k.chain...)
	d.known = k
	need := d.st.BlocksFor(d.length)
	if len(d.chain) == need {
		d.whole, d.next = k.sum == h.ChainSum, bgdl.Null
		return d.whole, nil
	}
	if len(d.chain) > need {
		d.chain = d.chain[:need]
	} else {
		// Walked in part, or grown: the blocks remembered lead on.
		d.next, d.chain = d.chain[len(d.chain)-1], d.chain[:len(d.chain)-1]
		if err := d.walk(need); err != nil || !d.whole {
			return false, err
		}
	}
	d.whole, d.next = store.ChainSum(d.chain) == h.ChainSum, bgdl.Null
	return d.whole, nil
}

// startFor returns the block the search for entry e starts in: the last
// one whose first entry is known to be at most e, 0 if none. Walking a
// chain, it reads on as far as blocks start below e; in a whole chain, it
// tries the block the memo guesses, and else halves the blocks.
func (d *dropReader) startFor(e layout.Number) (int, error) {
	if !d.whole {
		start := 0
		for i := 1; ; i++ {
			if err := d.walk(i); err != nil {
				return 0, err
			}
			if i >= len(d.chain) {
				return start, nil
			}
			if f := d.firstOf(i); f != 0 {
				if f > e {
					return start, nil
				}
				start = i
			}
		}
	}
	below := func(i int) bool { f := d.firstOf(i); return f != 0 && f <= e }
	guess := 0
	switch {
	case d.known == nil:
	case d.hintFor == e && d.hint != 0:
		guess = min(d.hint, len(d.chain)-1)
	default:
		guess = min(d.known.guess(e), len(d.chain)-1)
	}
	switch {
	case guess > 0:
		if _, err := d.block(guess); err != nil {
			return 0, err
		}
		if below(guess) {
			return guess, nil
		}
		d.learned = true
	case d.firstOf(1) > e:
		// Before the first continuation block, as far as the memo
		// knows: from the start, the search reads that block anyway.
		return 0, nil
	}
	// Firsts rise along the chain but for unknown ones (0): a block found
	// below e starts at or before e's entry, whichever it is.
	lo, hi := 0, len(d.chain)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if err := d.readLead(mid); err != nil {
			return 0, err
		}
		if below(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// bytesAt returns up to k image bytes from offset off on, fewer at the
// end of the image. They may be the reader's own: callers do not change
// them.
func (d *dropReader) bytesAt(off, k int) ([]byte, error) {
	k = min(k, d.length-off)
	if off+k <= len(d.prefix) {
		return d.prefix[off : off+k], nil
	}
	if i, at := d.blockOf(off); at+k <= d.st.BlockSize() {
		// Within one block, most often: its bytes, not a copy.
		b, err := d.block(i)
		if err != nil {
			return nil, err
		}
		return b[at : at+k], nil
	}
	out := make([]byte, 0, k)
	for len(out) < k {
		i, at := d.blockOf(off + len(out))
		b, err := d.block(i)
		if err != nil {
			return nil, err
		}
		out = append(out, b[at:min(len(b), at+k-len(out))]...)
	}
	return out, nil
}

// patch adds the patches that write b at image offset off.
func (d *dropReader) patch(p *dropPlan, off int, b []byte) {
	for len(b) > 0 {
		i, at := d.blockOf(off)
		k := min(len(b), d.st.BlockSize()-at)
		p.patches = append(p.patches, store.Patch{At: d.chain[i], Off: at, B: b[:k]})
		off, b = off+k, b[k:]
	}
}

// pieceAt returns how many image bytes from offset off on lie in one
// piece: in the prefix read, or else in the block of off.
func (d *dropReader) pieceAt(off int) int {
	if off < len(d.prefix) {
		return len(d.prefix) - off
	}
	_, at := d.blockOf(off)
	return d.st.BlockSize() - at
}
