package layout

import (
	"encoding/binary"

	"github.com/gdi-go/gdi/gdi"
)

// The edge references of a vertex image are written relative to the
// vertex, so that the common ones are small. Each is a flags byte and the
// fields the flags ask for. The wide form, for any reference:
//
//	flags     bits 0-1 direction (0: a stub, which names a holder only),
//	          bit 2 the vertex is the origin, bit 3 it is the target,
//	          bit 4 a label follows, bit 5 a holder follows,
//	          bit 6 the edge is numbered after this vertex, bit 7 it is
//	          numbered after its other end
//	number    2 bytes (the slot) with bit 6, else 8 bytes
//	other end 8 bytes, unless the edge is a loop (bits 2 and 3) or bit 7
//	          says it is the vertex the number names
//	label     4 bytes, with bit 4
//	holder    8 bytes, with bit 5
//
// The compact form, for a lightweight edge that is no loop, numbered after
// its origin (as lightweight edges are), whose other end lies in the first
// 2^24 blocks of its rank, and is on this vertex's rank or one of the
// first 256. Its direction bits are both set (3 is no direction), and the
// other bits say:
//
//	flags     bit 2 the vertex is the origin (the edge is numbered after
//	          it), bit 3 it is the target (numbered after the other end):
//	          exactly one is set; bit 4 a label follows; bit 5 the edge is
//	          undirected; bit 6 the slot takes 2 bytes, not 1; bit 7 the
//	          other end's rank follows
//	slot      1 or 2 bytes, never 0
//	rank      1 byte, with bit 7; else the other end is on this rank
//	block     3 bytes, the other end's block on its rank
//	label     4 bytes, with bit 4
//
// The edge number is then the slot after this vertex (bit 2) or after the
// other end (bit 3). A lightweight edge without a label between two
// vertices of one rank takes 5 bytes at each end, against 11 at its origin
// and 9 at its target in the wide form, and 37 in a flat record of every
// field: a vertex of 32 such edges fits a block of 256 bytes.
//
// Bits 2 to 4 mean the same in both forms. Code that reads flags bytes
// goes through RefNorm, which gives the wide flags of a compact reference.
//
// A removed reference can also be left in place as a tombstone (dead):
// the flags byte RfDead (a direction without an end, which no reference
// has) and a byte giving the tombstone's whole length, 2 to 255, then
// that many bytes less two of anything. Next and Head skip tombstones,
// Number reports each as an entry of number 0, so a reference can be
// removed from a long image without moving the ones after it, and the
// commit writes back only the block it was in.
const (
	RfDir    = 0x03
	RfOrigin = 0x04
	RfTarget = 0x08
	RfLabel  = 0x10
	RfHolder = 0x20
	RfSlot   = 0x40
	RfOther  = 0x80

	RfDead = 0x01

	// The compact form: both direction bits, and in place of the
	// holder, slot and other-end bits of the wide form, these.
	RfCompact    = RfDir
	RfUndirected = 0x20
	RfWideSlot   = 0x40
	RfRank       = 0x80
)

// DeadRun returns the length of the tombstones at the start of b; ok is
// false if one is malformed.
func DeadRun(b []byte) (n int, ok bool) {
	for n < len(b) && b[n] == RfDead {
		if n+1 >= len(b) || b[n+1] < 2 || int(b[n+1]) > len(b)-n {
			return 0, false
		}
		n += int(b[n+1])
	}
	return n, true
}

// Kill turns b, one or more whole entries (references or tombstones) at
// least 2 bytes long, into tombstones.
func Kill(b []byte) {
	for len(b) > 0 {
		l := min(len(b), 255)
		if len(b)-l == 1 {
			l-- // leave no single byte behind
		}
		b[0], b[1] = RfDead, byte(l)
		b = b[l:]
	}
}

// Codec encodes and decodes the edge references of vertex Self; Base is
// the number of its slot 0 (LightNumber(Self, 0, BS)), BS the block size.
type Codec struct {
	Self, Base Number
	BS         uint64
}

// Append appends the reference x to edge n.
func (c Codec) Append(b []byte, n Number, x Ref) []byte {
	if out, ok := c.AppendCompact(b, n, x); ok {
		return out
	}
	f := byte(x.Dir) & RfDir
	var other Number
	if x.Dir != 0 {
		if x.Origin == c.Self {
			f |= RfOrigin
			other = x.Target
		}
		if x.Target == c.Self {
			f |= RfTarget
			other = x.Origin
		}
	}
	if x.Label != 0 {
		f |= RfLabel
	}
	if x.Holder != 0 {
		f |= RfHolder
	}
	otherNeeded := x.Dir != 0 && f&(RfOrigin|RfTarget) != RfOrigin|RfTarget
	switch {
	case SlotOf(n, c.Base):
		f |= RfSlot
	case otherNeeded && IsLight(n) && x.Origin == other && c.VertexOf(n) == other:
		f |= RfOther
		otherNeeded = false
	}
	b = append(b, f)
	if f&RfSlot != 0 {
		b = binary.LittleEndian.AppendUint16(b, uint16(n))
	} else {
		b = binary.LittleEndian.AppendUint64(b, uint64(n))
	}
	if otherNeeded {
		b = binary.LittleEndian.AppendUint64(b, uint64(other))
	}
	if f&RfLabel != 0 {
		b = binary.LittleEndian.AppendUint32(b, x.Label)
	}
	if f&RfHolder != 0 {
		b = binary.LittleEndian.AppendUint64(b, uint64(x.Holder))
	}
	return b
}

// AppendCompact appends the reference x to edge n in the compact form, if
// it has one.
func (c Codec) AppendCompact(b []byte, n Number, x Ref) ([]byte, bool) {
	if x.Holder != 0 || !x.Dir.Valid() || !IsLight(n) {
		return b, false
	}
	f := byte(RfCompact)
	var other Number
	switch {
	case x.Origin == c.Self && x.Target != c.Self && SlotOf(n, c.Base):
		f, other = f|RfOrigin, x.Target
	case x.Target == c.Self && x.Origin != c.Self && c.VertexOf(n) == x.Origin:
		f, other = f|RfTarget, x.Origin
	default:
		return b, false
	}
	slot, rank, off := n&MaxSlot, other>>48, other&(1<<48-1)
	bs := Number(c.BS)
	blk := off / bs
	if slot == 0 || off%bs != 0 || blk >= 1<<24 || (rank != c.Self>>48 && rank > 0xff) {
		return b, false
	}
	if x.Dir == gdi.Undirected {
		f |= RfUndirected
	}
	if slot > 0xff {
		f |= RfWideSlot
	}
	if rank != c.Self>>48 {
		f |= RfRank
	}
	if x.Label != 0 {
		f |= RfLabel
	}
	b = append(b, f)
	if slot > 0xff {
		b = binary.LittleEndian.AppendUint16(b, uint16(slot))
	} else {
		b = append(b, byte(slot))
	}
	if f&RfRank != 0 {
		b = append(b, byte(rank))
	}
	b = append(b, byte(blk), byte(blk>>8), byte(blk>>16))
	if x.Label != 0 {
		b = binary.LittleEndian.AppendUint32(b, x.Label)
	}
	return b, true
}

// Compact decodes the Compact reference at the start of b, which holds
// all of it (RefSizes): its edge number and its other end. ok is false if
// it is malformed.
func (c Codec) Compact(b []byte) (n, other Number, ok bool) {
	f := b[0]
	ends := f & (RfOrigin | RfTarget)
	slot, i := Number(b[1]), 2
	if f&RfWideSlot != 0 {
		slot, i = Number(binary.LittleEndian.Uint16(b[1:])), 3
	}
	rank := c.Self >> 48
	if f&RfRank != 0 {
		rank, i = Number(b[i]), i+1
	}
	blk := Number(b[i]) | Number(b[i+1])<<8 | Number(b[i+2])<<16
	if slot == 0 || ends == 0 || ends == RfOrigin|RfTarget {
		return 0, 0, false
	}
	other = rank<<48 | blk*Number(c.BS)
	if ends == RfOrigin {
		return c.Base | slot, other, true
	}
	return LightBit | rank<<48 | blk<<16 | slot, other, true
}

// Next decodes the reference at the start of b. ok is false if b is
// malformed.
func (c Codec) Next(b []byte) (n Number, x Ref, rest []byte, ok bool) {
	if len(b) > 0 && b[0] == RfDead {
		d, ok := DeadRun(b)
		if !ok {
			return 0, x, nil, false
		}
		b = b[d:]
	}
	if len(b) < 1 {
		return 0, x, nil, false
	}
	f := b[0]
	size, explicit := RefSize(f)
	if len(b) < size {
		return 0, x, nil, false
	}
	if f&RfDir == RfCompact {
		n, other, ok := c.Compact(b)
		if !ok {
			return 0, x, nil, false
		}
		x.Dir = gdi.Directed
		if f&RfUndirected != 0 {
			x.Dir = gdi.Undirected
		}
		x.Origin, x.Target = other, c.Self
		if f&RfOrigin != 0 {
			x.Origin, x.Target = c.Self, other
		}
		if f&RfLabel != 0 {
			x.Label = binary.LittleEndian.Uint32(b[size-4:])
		}
		return n, x, b[size:], true
	}
	x.Dir = gdi.DirectionType(f & RfDir)
	ends := f & (RfOrigin | RfTarget)
	if x.Dir != 0 && ends == 0 {
		return 0, x, nil, false
	}
	rest, b = b[size:], b[1:]
	if f&RfSlot != 0 {
		s := Number(binary.LittleEndian.Uint16(b))
		if s == 0 {
			return 0, x, nil, false
		}
		n, b = c.Base|s, b[2:]
	} else {
		n, b = Number(binary.LittleEndian.Uint64(b)), b[8:]
	}
	if x.Dir != 0 {
		other := c.Self
		switch {
		case explicit:
			other, b = Number(binary.LittleEndian.Uint64(b)), b[8:]
		case f&RfOther != 0 && ends != RfOrigin|RfTarget:
			// The number names the other end's slot.
			other = c.VertexOf(n)
		}
		x.Origin, x.Target = other, other
		if f&RfOrigin != 0 {
			x.Origin = c.Self
		}
		if f&RfTarget != 0 {
			x.Target = c.Self
		}
	}
	if f&RfLabel != 0 {
		x.Label, b = binary.LittleEndian.Uint32(b), b[4:]
	}
	if f&RfHolder != 0 {
		x.Holder = Number(binary.LittleEndian.Uint64(b))
	}
	return n, x, rest, true
}

// RefSize returns the length of a reference whose flags byte is f, and
// whether it names its other end explicitly.
func RefSize(f byte) (size int, explicit bool) {
	if f&RfDir == RfCompact {
		size = 1 + 1 + 3
		if f&RfWideSlot != 0 {
			size++
		}
		if f&RfRank != 0 {
			size++
		}
		if f&RfLabel != 0 {
			size += 4
		}
		return size, false
	}
	size = 1 + 8
	if f&RfSlot != 0 {
		size = 1 + 2
	}
	ends := f & (RfOrigin | RfTarget)
	explicit = f&RfDir != 0 && ends != RfOrigin|RfTarget && f&RfOther == 0
	if explicit {
		size += 8
	}
	if f&RfLabel != 0 {
		size += 4
	}
	if f&RfHolder != 0 {
		size += 8
	}
	return size, explicit
}

// Head decodes the flags, the edge number and the label of the reference
// at the start of b, skipping its ends and holder: what a scan of edge
// numbers by orientation and label needs. The vertex is the edge's origin
// if f&rfOrigin is set, its target if f&rfTarget is. ok is false if b is
// malformed.
func (c Codec) Head(b []byte) (n Number, f byte, label uint32, rest []byte, ok bool) {
	if len(b) > 0 && b[0] == RfDead {
		d, ok := DeadRun(b)
		if !ok {
			return 0, 0, 0, nil, false
		}
		b = b[d:]
	}
	n, size, ok := c.Number(b)
	if !ok {
		return 0, 0, 0, nil, false
	}
	rest = b[size:]
	f = RefNorm[b[0]]
	if (f&RfDir != 0 && f&(RfOrigin|RfTarget) == 0) || (f&RfSlot != 0 && n == c.Base) {
		return 0, 0, 0, nil, false // no end is this vertex, or slot 0
	}
	if f&RfLabel != 0 {
		at := size - 4
		if f&RfHolder != 0 {
			at -= 8
		}
		label = binary.LittleEndian.Uint32(b[at:])
	}
	return n, f, label, rest, true
}

// RefSizes is RefSize of every flags byte; for a tombstone, the least
// length of one.
var RefSizes = func() (t [256]uint8) {
	for f := range t {
		size, _ := RefSize(byte(f))
		t[f] = uint8(size)
	}
	t[RfDead] = 2
	return t
}()

// RefNorm maps the flags byte of a compact reference to the flags byte
// of the wide form of the same reference, without its holder bit (it has
// none): direction, ends, label, and rfSlot or rfOther for the edge
// numbered after this vertex or the other end. Other flags bytes, and
// compact ones without exactly one end (malformed), map to themselves.
var RefNorm = func() (t [256]byte) {
	for i := range t {
		f := byte(i)
		t[i] = f
		ends := f & (RfOrigin | RfTarget)
		if f&RfDir != RfCompact || ends == 0 || ends == RfOrigin|RfTarget {
			continue
		}
		g := byte(gdi.Directed) | ends | f&RfLabel
		if f&RfUndirected != 0 {
			g = byte(gdi.Undirected) | ends | f&RfLabel
		}
		if ends == RfOrigin {
			g |= RfSlot
		} else {
			g |= RfOther
		}
		t[i] = g
	}
	return t
}()

// LightRefSizes is RefSize of the flags bytes of references numbered
// after their vertex or its other end and without a holder: those of
// lightweight edges, whose label, if any, is their last 4 bytes. It is 0
// for any other flags byte (and for a tombstone).
var LightRefSizes = func() (t [256]uint8) {
	for f := range t {
		if b := RefNorm[f]; b != RfDead && b&RfDir != RfCompact && b&RfHolder == 0 && b&(RfSlot|RfOther) != 0 {
			t[f] = RefSizes[f]
		}
	}
	return t
}()

// Number returns the edge Number and the length of the reference at the
// start of b, for walks that look for one Number. ok is false if b is
// malformed. A tombstone is an entry of Number 0, which no edge has.
func (c Codec) Number(b []byte) (n Number, size int, ok bool) {
	if len(b) < 1 {
		return 0, 0, false
	}
	f := b[0]
	size = int(RefSizes[f])
	if len(b) < size {
		return 0, 0, false
	}
	if f == RfDead {
		size = int(b[1])
		return 0, size, size >= 2 && size <= len(b)
	}
	if f&RfDir == RfCompact {
		n, _, ok = c.Compact(b)
		return n, size, ok
	}
	if f&RfSlot != 0 {
		return c.Base | Number(binary.LittleEndian.Uint16(b[1:])), size, true
	}
	return Number(binary.LittleEndian.Uint64(b[1:])), size, true
}

// VertexOf returns the vertex a lightweight edge n is numbered after.
func (c Codec) VertexOf(n Number) Number {
	rank, b := n>>48&0x7fff, n>>16&0xffffffff
	return rank<<48 | b*Number(c.BS)
}
