package gdirma

import (
	"encoding/binary"

	"github.com/gdi-go/gdi/gdi"
)

// The edge references of a vertex image are written relative to the
// vertex, so that the common ones are small. Each is a flags byte and the
// fields the flags ask for:
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
// A lightweight edge without a label takes 3 bytes in its origin's holder
// and 9 in its target's, against 37 for a flat record of every field.
//
// A removed reference can also be left in place as a tombstone (dead):
// the flags byte rfDead (a direction without an end, which no reference
// has) and a byte giving the tombstone's whole length, 2 to 255, then
// that many bytes less two of anything. next and head skip tombstones,
// number reports each as an entry of number 0, so a reference can be removed from a long image without moving the ones
// after it, and the commit writes back only the block it was in (see
// record.edit).
const (
	rfDir    = 0x03
	rfOrigin = 0x04
	rfTarget = 0x08
	rfLabel  = 0x10
	rfHolder = 0x20
	rfSlot   = 0x40
	rfOther  = 0x80

	rfDead = 0x01
)

// deadRun returns the length of the tombstones at the start of b; ok is
// false if one is malformed.
func deadRun(b []byte) (n int, ok bool) {
	for n < len(b) && b[n] == rfDead {
		if n+1 >= len(b) || b[n+1] < 2 || int(b[n+1]) > len(b)-n {
			return 0, false
		}
		n += int(b[n+1])
	}
	return n, true
}

// kill turns b, one or more whole entries (references or tombstones) at
// least 2 bytes long, into tombstones.
func kill(b []byte) {
	for len(b) > 0 {
		l := min(len(b), 255)
		if len(b)-l == 1 {
			l-- // leave no single byte behind
		}
		b[0], b[1] = rfDead, byte(l)
		b = b[l:]
	}
}

// refCodec encodes and decodes the edge references of vertex self; base is
// the number of its slot 0 (lightNumber(self, 0)), bs the block size.
type refCodec struct{ self, base, bs uint64 }

func (st *store) codec(v uint64) refCodec {
	return refCodec{self: v, base: st.lightNumber(v, 0), bs: uint64(st.bs)}
}

// slotOf reports whether edge n is numbered after the vertex whose slot 0
// is base.
func slotOf(n, base uint64) bool { return isLight(n) && n&^maxSlot == base }

// append appends the reference x to edge n.
func (c refCodec) append(b []byte, n uint64, x edgeRef) []byte {
	f := byte(x.dir) & rfDir
	var other uint64
	if x.dir != 0 {
		if x.origin == c.self {
			f |= rfOrigin
			other = x.target
		}
		if x.target == c.self {
			f |= rfTarget
			other = x.origin
		}
	}
	if x.label != 0 {
		f |= rfLabel
	}
	if x.holder != 0 {
		f |= rfHolder
	}
	otherNeeded := x.dir != 0 && f&(rfOrigin|rfTarget) != rfOrigin|rfTarget
	switch {
	case slotOf(n, c.base):
		f |= rfSlot
	case otherNeeded && isLight(n) && x.origin == other && c.vertexOf(n) == other:
		f |= rfOther
		otherNeeded = false
	}
	b = append(b, f)
	if f&rfSlot != 0 {
		b = binary.LittleEndian.AppendUint16(b, uint16(n))
	} else {
		b = binary.LittleEndian.AppendUint64(b, n)
	}
	if otherNeeded {
		b = binary.LittleEndian.AppendUint64(b, other)
	}
	if f&rfLabel != 0 {
		b = binary.LittleEndian.AppendUint32(b, x.label)
	}
	if f&rfHolder != 0 {
		b = binary.LittleEndian.AppendUint64(b, x.holder)
	}
	return b
}

// next decodes the reference at the start of b. ok is false if b is
// malformed.
func (c refCodec) next(b []byte) (n uint64, x edgeRef, rest []byte, ok bool) {
	if len(b) > 0 && b[0] == rfDead {
		d, ok := deadRun(b)
		if !ok {
			return 0, x, nil, false
		}
		b = b[d:]
	}
	if len(b) < 1 {
		return 0, x, nil, false
	}
	f := b[0]
	size, explicit := refSize(f)
	x.dir = gdi.DirectionType(f & rfDir)
	ends := f & (rfOrigin | rfTarget)
	if len(b) < size || (x.dir != 0 && ends == 0) {
		return 0, x, nil, false
	}
	rest, b = b[size:], b[1:]
	if f&rfSlot != 0 {
		s := uint64(binary.LittleEndian.Uint16(b))
		if s == 0 {
			return 0, x, nil, false
		}
		n, b = c.base|s, b[2:]
	} else {
		n, b = binary.LittleEndian.Uint64(b), b[8:]
	}
	if x.dir != 0 {
		other := c.self
		switch {
		case explicit:
			other, b = binary.LittleEndian.Uint64(b), b[8:]
		case f&rfOther != 0 && ends != rfOrigin|rfTarget:
			// The number names the other end's slot.
			other = c.vertexOf(n)
		}
		x.origin, x.target = other, other
		if f&rfOrigin != 0 {
			x.origin = c.self
		}
		if f&rfTarget != 0 {
			x.target = c.self
		}
	}
	if f&rfLabel != 0 {
		x.label, b = binary.LittleEndian.Uint32(b), b[4:]
	}
	if f&rfHolder != 0 {
		x.holder = binary.LittleEndian.Uint64(b)
	}
	return n, x, rest, true
}

// refSize returns the length of a reference whose flags byte is f, and
// whether it names its other end explicitly.
func refSize(f byte) (size int, explicit bool) {
	size = 1 + 8
	if f&rfSlot != 0 {
		size = 1 + 2
	}
	ends := f & (rfOrigin | rfTarget)
	explicit = f&rfDir != 0 && ends != rfOrigin|rfTarget && f&rfOther == 0
	if explicit {
		size += 8
	}
	if f&rfLabel != 0 {
		size += 4
	}
	if f&rfHolder != 0 {
		size += 8
	}
	return size, explicit
}

// head decodes the flags, the edge number and the label of the reference
// at the start of b, skipping its ends and holder: what a scan of edge
// numbers by orientation and label needs. The vertex is the edge's origin
// if f&rfOrigin is set, its target if f&rfTarget is. ok is false if b is
// malformed.
func (c refCodec) head(b []byte) (n uint64, f byte, label uint32, rest []byte, ok bool) {
	if len(b) > 0 && b[0] == rfDead {
		d, ok := deadRun(b)
		if !ok {
			return 0, 0, 0, nil, false
		}
		b = b[d:]
	}
	n, size, ok := c.number(b)
	if !ok {
		return 0, 0, 0, nil, false
	}
	rest = b[size:]
	f = b[0]
	if (f&rfDir != 0 && f&(rfOrigin|rfTarget) == 0) || (f&rfSlot != 0 && n == c.base) {
		return 0, 0, 0, nil, false // no end is this vertex, or slot 0
	}
	if f&rfLabel != 0 {
		at := size - 4
		if f&rfHolder != 0 {
			at -= 8
		}
		label = binary.LittleEndian.Uint32(b[at:])
	}
	return n, f, label, rest, true
}

// refSizes is refSize of every flags byte; for a tombstone, the least
// length of one.
var refSizes = func() (t [256]uint8) {
	for f := range t {
		size, _ := refSize(byte(f))
		t[f] = uint8(size)
	}
	t[rfDead] = 2
	return t
}()

// lightRefSizes is refSize of the flags bytes of references numbered
// after their vertex or its other end and without a holder: those of
// lightweight edges, whose label, if any, is their last 4 bytes. It is 0
// for any other flags byte (and for a tombstone).
var lightRefSizes = func() (t [256]uint8) {
	for f := range t {
		if b := byte(f); b != rfDead && b&rfHolder == 0 && b&(rfSlot|rfOther) != 0 {
			t[f] = refSizes[f]
		}
	}
	return t
}()

// number returns the edge number and the length of the reference at the
// start of b, for walks that look for one number. ok is false if b is
// malformed. A tombstone is an entry of number 0, which no edge has.
func (c refCodec) number(b []byte) (n uint64, size int, ok bool) {
	if len(b) < 1 {
		return 0, 0, false
	}
	f := b[0]
	size = int(refSizes[f])
	if len(b) < size {
		return 0, 0, false
	}
	if f == rfDead {
		size = int(b[1])
		return 0, size, size >= 2 && size <= len(b)
	}
	if f&rfSlot != 0 {
		return c.base | uint64(binary.LittleEndian.Uint16(b[1:])), size, true
	}
	return binary.LittleEndian.Uint64(b[1:]), size, true
}

// vertexOf returns the vertex a lightweight edge n is numbered after.
func (c refCodec) vertexOf(n uint64) uint64 {
	rank, b := n>>48&0x7fff, n>>16&0xffffffff
	return rank<<48 | b*c.bs
}
