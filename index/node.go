package index

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/gdi-go/gdi/bgdl"
)

// Node layout. Every node is one block of the forest's pool:
//
//	bytes 0-3    number of entries (leaf) or separators (inner node)
//	byte  4      kind: kindLeaf or kindInner (0 marks a block that holds no node)
//	bytes 8-15   leaf: DPtr of the next leaf, or Null; inner: DPtr of child 0
//	bytes 16-    slots, each
//	               key length (4 bytes, then 4 bytes of padding)
//	               key bytes, padded to MaxKey rounded up to 8
//	               value (8 bytes)
//	               inner nodes only: DPtr of the child right of this separator
//
// All words are little-endian.
const (
	hdrSize   = 16
	kindLeaf  = 1
	kindInner = 2
	// maxDepth bounds a descent, so a damaged tree cannot loop a reader.
	// A tree of nodes with at least three children each reaches depth 41
	// only beyond 2^64 entries.
	maxDepth = 48
)

// layout is the geometry of nodes, derived from Config.
type layout struct {
	nodeSize  int
	maxKey    int
	keyPad    int // key bytes per slot
	leafSlot  int // bytes per leaf slot
	innerSlot int // bytes per inner slot
	leafCap   int // entries per leaf
	innerCap  int // separators per inner node
}

func newLayout(nodeSize, maxKey int) layout {
	l := layout{nodeSize: nodeSize, maxKey: maxKey, keyPad: (maxKey + 7) &^ 7}
	l.leafSlot = 16 + l.keyPad
	l.innerSlot = 24 + l.keyPad
	l.leafCap = (nodeSize - hdrSize) / l.leafSlot
	l.innerCap = (nodeSize - hdrSize) / l.innerSlot
	return l
}

// bufSize is the size of a node buffer: a node plus one slot, so that a
// full node can take one more entry in memory before it is split.
func (l *layout) bufSize() int { return l.nodeSize + l.innerSlot }

// stride is the slot size of a node of kind k.
func (l *layout) stride(kind byte) int {
	if kind == kindLeaf {
		return l.leafSlot
	}
	return l.innerSlot
}

func nodeKind(b []byte) byte   { return b[4] }
func nodeCount(b []byte) int   { return int(binary.LittleEndian.Uint32(b)) }
func setCount(b []byte, n int) { binary.LittleEndian.PutUint32(b, uint32(n)) }

func setHeader(b []byte, kind byte, n int) {
	clear(b[:8])
	setCount(b, n)
	b[4] = kind
}

// link is word 1: the next leaf of a leaf, child 0 of an inner node.
func link(b []byte) bgdl.DPtr       { return bgdl.DPtr(binary.LittleEndian.Uint64(b[8:])) }
func setLink(b []byte, p bgdl.DPtr) { binary.LittleEndian.PutUint64(b[8:], uint64(p)) }

func slotOff(stride, i int) int { return hdrSize + i*stride }

// key returns the key of slot i, aliasing b.
func key(b []byte, stride, i int) []byte {
	o := slotOff(stride, i)
	n := int(binary.LittleEndian.Uint32(b[o:]))
	return b[o+8 : o+8+n]
}

func (l *layout) val(b []byte, stride, i int) uint64 {
	return binary.LittleEndian.Uint64(b[slotOff(stride, i)+8+l.keyPad:])
}

// child returns child i (0 … count) of an inner node.
func (l *layout) child(b []byte, i int) bgdl.DPtr {
	if i == 0 {
		return link(b)
	}
	return bgdl.DPtr(binary.LittleEndian.Uint64(b[slotOff(l.innerSlot, i-1)+16+l.keyPad:]))
}

// setEntry writes (k, v) into slot i; for inner nodes also the child right
// of it.
func (l *layout) setEntry(b []byte, stride, i int, k []byte, v uint64, right bgdl.DPtr) {
	o := slotOff(stride, i)
	binary.LittleEndian.PutUint64(b[o:], uint64(len(k)))
	copy(b[o+8:o+8+l.keyPad], k)
	binary.LittleEndian.PutUint64(b[o+8+l.keyPad:], v)
	if stride == l.innerSlot {
		binary.LittleEndian.PutUint64(b[o+16+l.keyPad:], uint64(right))
	}
}

// openAt shifts slots i … n-1 one place right, making slot i free.
func openAt(b []byte, stride, n, i int) {
	copy(b[slotOff(stride, i+1):slotOff(stride, n+1)], b[slotOff(stride, i):slotOff(stride, n)])
}

// closeAt shifts slots i+1 … n-1 one place left, dropping slot i.
func closeAt(b []byte, stride, n, i int) {
	copy(b[slotOff(stride, i):slotOff(stride, n-1)], b[slotOff(stride, i+1):slotOff(stride, n)])
}

// compare orders entries by key bytes, then by value.
func compare(k1 []byte, v1 uint64, k2 []byte, v2 uint64) int {
	if c := bytes.Compare(k1, k2); c != 0 {
		return c
	}
	switch {
	case v1 < v2:
		return -1
	case v1 > v2:
		return 1
	}
	return 0
}

// lowerBound is the first slot of b (n slots) whose entry is ≥ (k, v).
func (l *layout) lowerBound(b []byte, stride, n int, k []byte, v uint64) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compare(key(b, stride, m), l.val(b, stride, m), k, v) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// upperBound is the first slot of b (n slots) whose entry is > (k, v). For
// an inner node it is the child whose range holds (k, v): child i holds the
// entries e with separator i-1 ≤ e < separator i.
func (l *layout) upperBound(b []byte, stride, n int, k []byte, v uint64) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compare(key(b, stride, m), l.val(b, stride, m), k, v) <= 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// check validates a node read from the window, so that a damaged or stray
// block yields ErrCorrupt instead of a panic.
func (l *layout) check(b []byte, p bgdl.DPtr) error {
	kind, n := nodeKind(b), nodeCount(b)
	var ok bool
	switch kind {
	case kindLeaf:
		ok = n <= l.leafCap
	case kindInner:
		ok = n >= 1 && n <= l.innerCap
	}
	if !ok {
		return fmt.Errorf("%w: node %v has kind %d and %d slots", ErrCorrupt, p, kind, n)
	}
	stride := l.stride(kind)
	for i := range n {
		if kl := binary.LittleEndian.Uint32(b[slotOff(stride, i):]); int(kl) > l.maxKey {
			return fmt.Errorf("%w: node %v slot %d has a key of %d bytes", ErrCorrupt, p, i, kl)
		}
	}
	return nil
}
