package index

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/txn"
)

// Op is one change of a batch for Apply: an insert of (Key, Val), or its
// delete if Delete is set.
type Op struct {
	Delete bool
	Key    []byte
	Val    uint64
}

func (f *Forest) checkKey(k []byte) error {
	if len(k) > f.l.maxKey {
		return fmt.Errorf("%w: %d bytes, at most %d", ErrKey, len(k), f.l.maxKey)
	}
	return nil
}

// Insert adds (key, val) to rank's part of t. It reports false, and changes
// nothing, if the entry is present already.
func (f *Forest) Insert(t Tree, rank int, key []byte, val uint64) (added bool, err error) {
	if err := f.checkKey(key); err != nil {
		return false, err
	}
	s, p, err := f.begin(t, rank)
	if err != nil {
		return false, err
	}
	before := p
	added, err = f.insert(s, rank, &p, key, val)
	err = f.end(s, t, rank, before, p, err)
	return added && err == nil, err
}

// Delete removes (key, val) from rank's part of t. It reports whether the
// entry was there.
func (f *Forest) Delete(t Tree, rank int, key []byte, val uint64) (found bool, err error) {
	if err := f.checkKey(key); err != nil {
		return false, err
	}
	s, p, err := f.begin(t, rank)
	if err != nil {
		return false, err
	}
	before := p
	found, err = f.delete(s, rank, &p, key, val)
	err = f.end(s, t, rank, before, p, err)
	return found && err == nil, err
}

// Apply carries out ops in order on rank's part of t, holding the part's
// lock once for all of them. Inserts of present entries and deletes of
// absent ones are no-ops. A key that is too long fails the batch before
// anything changes; an error in the middle (ErrFull) leaves the ops before
// the failing one applied and the rest not.
func (f *Forest) Apply(t Tree, rank int, ops []Op) error {
	for i := range ops {
		if err := f.checkKey(ops[i].Key); err != nil {
			return fmt.Errorf("op %d: %w", i, err)
		}
	}
	s, p, err := f.begin(t, rank)
	if err != nil {
		return err
	}
	before := p
	for i := range ops {
		if ops[i].Delete {
			_, err = f.delete(s, rank, &p, ops[i].Key, ops[i].Val)
		} else {
			_, err = f.insert(s, rank, &p, ops[i].Key, ops[i].Val)
		}
		if err != nil {
			err = fmt.Errorf("op %d of %d: %w", i, len(ops), err)
			break
		}
	}
	return f.end(s, t, rank, before, p, err)
}

// begin takes the write lock of rank's part of t and reads the part. On
// success the caller must call end.
func (f *Forest) begin(t Tree, rank int) (*scratch, part, error) {
	s := f.getScratch()
	p, err := f.open(s, t, rank, txn.Write)
	if err != nil {
		f.scratchs.Put(s)
		return nil, part{}, err
	}
	return s, p, nil
}

// end stores the part's root and count if they changed from before, even
// if the operation failed part way, and releases the lock. It returns err
// joined with its own errors.
func (f *Forest) end(s *scratch, t Tree, rank int, before, p part, err error) error {
	if p != before {
		err = errors.Join(err, f.writeDir(s, t, rank, p))
	}
	f.scratchs.Put(s)
	return errors.Join(err, f.unlock(t, rank, txn.Write))
}

// descend reads the nodes from p's root to the leaf where (k, v) belongs
// into s.path and returns the depth of the leaf.
func (f *Forest) descend(s *scratch, rank int, p *part, k []byte, v uint64) (int, error) {
	ptr := p.root
	for d := 0; d < maxDepth; d++ {
		lv := f.pathBuf(s, d)
		lv.ptr = ptr
		if err := f.readNode(lv.buf, rank, ptr); err != nil {
			return 0, err
		}
		if nodeKind(lv.buf) == kindLeaf {
			return d, nil
		}
		lv.idx = f.l.upperBound(lv.buf, f.l.innerSlot, nodeCount(lv.buf), k, v)
		ptr = f.l.child(lv.buf, lv.idx)
	}
	return 0, fmt.Errorf("%w: tree on rank %d deeper than %d", ErrCorrupt, rank, maxDepth)
}

// insert adds (k, v) to the part p; the caller holds its write lock.
func (f *Forest) insert(s *scratch, rank int, p *part, k []byte, v uint64) (bool, error) {
	l := &f.l
	if p.root.IsNull() {
		ptr, err := f.acquire(rank)
		if err != nil {
			return false, err
		}
		buf := f.spareBuf(s, 0)
		setHeader(buf, kindLeaf, 1)
		setLink(buf, bgdl.Null)
		l.setEntry(buf, l.leafSlot, 0, k, v, bgdl.Null)
		if err := f.putNode(buf, ptr); err != nil {
			return false, err
		}
		if err := f.data.Flush(rank); err != nil {
			return false, err
		}
		p.root, p.count = ptr, 1
		return true, nil
	}
	h, err := f.descend(s, rank, p, k, v)
	if err != nil {
		return false, err
	}
	leaf := s.path[h].buf
	n := nodeCount(leaf)
	pos := l.lowerBound(leaf, l.leafSlot, n, k, v)
	if pos < n && compare(key(leaf, l.leafSlot, pos), l.val(leaf, l.leafSlot, pos), k, v) == 0 {
		return false, nil
	}
	if n < l.leafCap {
		openAt(leaf, l.leafSlot, n, pos)
		l.setEntry(leaf, l.leafSlot, pos, k, v, bgdl.Null)
		setCount(leaf, n+1)
		if err := f.putNode(leaf, s.path[h].ptr); err != nil {
			return false, err
		}
		if err := f.data.Flush(rank); err != nil {
			return false, err
		}
		p.count++
		return true, nil
	}

	// The leaf splits, and so does every full node above it. Take all the
	// blocks that needs first, so that running out changes nothing.
	need := 1
	d := h - 1
	for ; d >= 0 && nodeCount(s.path[d].buf) == l.innerCap; d-- {
		need++
	}
	if d < 0 {
		need++ // a new root
	}
	s.fresh = s.fresh[:0]
	for range need {
		ptr, err := f.acquire(rank)
		if err != nil {
			for _, q := range s.fresh {
				err = errors.Join(err, f.pool.Release(q))
			}
			return false, err
		}
		s.fresh = append(s.fresh, ptr)
	}

	// An insert at the right end of the part splits every node so that the
	// left one stays full: keys added in ascending order, as in a bulk
	// load, then fill nodes instead of leaving them half empty.
	rightmost := pos == n
	for d := range h {
		rightmost = rightmost && s.path[d].idx == nodeCount(s.path[d].buf)
	}

	// Split the leaf: the upper part moves to a new leaf linked after it.
	// The leaf buffer has room for one slot beyond a node.
	openAt(leaf, l.leafSlot, n, pos)
	l.setEntry(leaf, l.leafSlot, pos, k, v, bgdl.Null)
	total := n + 1
	left := total / 2
	if rightmost {
		left = n
	}
	right := f.spareBuf(s, 0)
	setHeader(right, kindLeaf, total-left)
	setLink(right, link(leaf))
	copy(right[hdrSize:], leaf[slotOff(l.leafSlot, left):slotOff(l.leafSlot, total)])
	setLink(leaf, s.fresh[0])
	setCount(leaf, left)
	errs := []error{f.putNode(leaf, s.path[h].ptr), f.putNode(right, s.fresh[0])}
	// The separator to push up is the first entry of the new node. It
	// aliases a buffer that is not written again in this insert.
	sepK, sepV, sepP := key(right, l.leafSlot, 0), l.val(right, l.leafSlot, 0), s.fresh[0]
	used := 1
	done := false
	for d := h - 1; d >= 0 && !done; d-- {
		buf, c := s.path[d].buf, s.path[d].idx
		pn := nodeCount(buf)
		openAt(buf, l.innerSlot, pn, c)
		l.setEntry(buf, l.innerSlot, c, sepK, sepV, sepP)
		pn++
		if pn <= l.innerCap {
			setCount(buf, pn)
			errs = append(errs, f.putNode(buf, s.path[d].ptr))
			done = true
			break
		}
		// Split the inner node: separator mid goes up, the children right
		// of it move to a new node.
		mid := pn / 2
		if rightmost {
			mid = pn - 2 // the new node gets one separator, two children
		}
		rb := f.spareBuf(s, used)
		setHeader(rb, kindInner, pn-mid-1)
		setLink(rb, l.child(buf, mid+1))
		copy(rb[hdrSize:], buf[slotOff(l.innerSlot, mid+1):slotOff(l.innerSlot, pn)])
		setCount(buf, mid)
		errs = append(errs, f.putNode(buf, s.path[d].ptr), f.putNode(rb, s.fresh[used]))
		sepK, sepV, sepP = key(buf, l.innerSlot, mid), l.val(buf, l.innerSlot, mid), s.fresh[used]
		used++
	}
	if !done {
		// The root split: a new root holds the old one and its sibling.
		rb := f.spareBuf(s, used)
		setHeader(rb, kindInner, 1)
		setLink(rb, p.root)
		l.setEntry(rb, l.innerSlot, 0, sepK, sepV, sepP)
		errs = append(errs, f.putNode(rb, s.fresh[used]))
		p.root = s.fresh[used]
	}
	errs = append(errs, f.data.Flush(rank))
	if err := errors.Join(errs...); err != nil {
		return false, err
	}
	p.count++
	return true, nil
}

// acquire takes a node block of rank, reporting exhaustion as ErrFull.
func (f *Forest) acquire(rank int) (bgdl.DPtr, error) {
	ptr, err := f.pool.Acquire(rank)
	if errors.Is(err, bgdl.ErrExhausted) {
		return bgdl.Null, fmt.Errorf("%w: no free node on rank %d: %w", ErrFull, rank, err)
	}
	return ptr, err
}

// delete removes (k, v) from the part p; the caller holds its write lock.
// Nodes are not merged; a part that becomes empty frees all its nodes.
func (f *Forest) delete(s *scratch, rank int, p *part, k []byte, v uint64) (bool, error) {
	if p.root.IsNull() {
		return false, nil
	}
	h, err := f.descend(s, rank, p, k, v)
	if err != nil {
		return false, err
	}
	l := &f.l
	leaf := s.path[h].buf
	n := nodeCount(leaf)
	pos := l.lowerBound(leaf, l.leafSlot, n, k, v)
	if pos == n || compare(key(leaf, l.leafSlot, pos), l.val(leaf, l.leafSlot, pos), k, v) != 0 {
		return false, nil
	}
	if p.count == 1 {
		root := p.root
		p.root, p.count = bgdl.Null, 0
		return true, f.freeTree(rank, root)
	}
	closeAt(leaf, l.leafSlot, n, pos)
	setCount(leaf, n-1)
	if err := f.putNode(leaf, s.path[h].ptr); err != nil {
		return false, err
	}
	if err := f.data.Flush(rank); err != nil {
		return false, err
	}
	p.count--
	return true, nil
}

// Scan calls fn for the entries of rank's part of t with lo ≤ key ≤ hi, in
// order of key and then value, until fn returns false. A nil lo or hi leaves
// that end open. fn must not keep key after it returns, and must not change
// the same part (it would wait for its own lock, and fail with ErrBusy).
// Scan holds the part's read lock throughout, so writers to the part wait
// for it.
func (f *Forest) Scan(t Tree, rank int, lo, hi []byte, fn func(key []byte, val uint64) bool) (err error) {
	if fn == nil {
		return fmt.Errorf("index: Scan without a function: %w", rma.ErrArgument)
	}
	s := f.getScratch()
	p, err := f.open(s, t, rank, txn.Read)
	f.scratchs.Put(s)
	if err != nil {
		return err
	}
	bp := f.bufs.Get().(*[]byte)
	err = f.scan(*bp, rank, p.root, lo, hi, fn)
	f.bufs.Put(bp)
	return errors.Join(err, f.unlock(t, rank, txn.Read))
}

// scan walks from the first entry ≥ (lo, 0) along the leaves, reading
// every node into buf.
func (f *Forest) scan(buf []byte, rank int, ptr bgdl.DPtr, lo, hi []byte, fn func([]byte, uint64) bool) error {
	if ptr.IsNull() {
		return nil
	}
	l := &f.l
	for d := 0; ; d++ {
		if d == maxDepth {
			return fmt.Errorf("%w: tree on rank %d deeper than %d", ErrCorrupt, rank, maxDepth)
		}
		if err := f.readNode(buf, rank, ptr); err != nil {
			return err
		}
		if nodeKind(buf) == kindLeaf {
			break
		}
		c := 0
		if lo != nil {
			c = l.upperBound(buf, l.innerSlot, nodeCount(buf), lo, 0)
		}
		ptr = l.child(buf, c)
	}
	i := 0
	if lo != nil {
		i = l.lowerBound(buf, l.leafSlot, nodeCount(buf), lo, 0)
	}
	for leaves := 1; ; leaves++ {
		for n := nodeCount(buf); i < n; i++ {
			k := key(buf, l.leafSlot, i)
			if hi != nil && bytes.Compare(k, hi) > 0 {
				return nil
			}
			if !fn(k, l.val(buf, l.leafSlot, i)) {
				return nil
			}
		}
		ptr = link(buf)
		if ptr.IsNull() {
			return nil
		}
		if leaves > f.pool.Blocks() {
			return fmt.Errorf("%w: leaf chain on rank %d longer than the rank's nodes", ErrCorrupt, rank)
		}
		if err := f.readNode(buf, rank, ptr); err != nil {
			return err
		}
		if nodeKind(buf) != kindLeaf {
			return fmt.Errorf("%w: leaf link to inner node %v", ErrCorrupt, ptr)
		}
		i = 0
	}
}
