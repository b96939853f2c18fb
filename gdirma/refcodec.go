package gdirma

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
// goes through refNorm, which gives the wide flags of a compact reference.
//
// A removed reference can also be left in place as a tombstone (dead):
// the flags byte rfDead (a direction without an end, which no reference
// has) and a byte giving the tombstone's whole length, 2 to 255, then
// that many bytes less two of anything. next and head skip tombstones,
// number reports each as an entry of number 0, so a reference can be
// removed from a long image without moving the ones after it, and the
// commit writes back only the block it was in (see record.edit).
const (
	rfDir    = 0x03
	rfOrigin = 0x04
	rfTarget = 0x08
	rfLabel  = 0x10
	rfHolder = 0x20
	rfSlot   = 0x40
	rfOther  = 0x80

	rfDead = 0x01

	// The compact form: both direction bits, and in place of the
	// holder, slot and other-end bits of the wide form, these.
	rfCompact    = rfDir
	rfUndirected = 0x20
	rfWideSlot   = 0x40
	rfRank       = 0x80
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
	if out, ok := c.appendCompact(b, n, x); ok {
		return out
	}
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

// appendCompact appends the reference x to edge n in the compact form, if
// it has one.
func (c refCodec) appendCompact(b []byte, n uint64, x edgeRef) ([]byte, bool) {
	if x.holder != 0 || !x.dir.Valid() || !isLight(n) {
		return b, false
	}
	f := byte(rfCompact)
	var other uint64
	switch {
	case x.origin == c.self && x.target != c.self && slotOf(n, c.base):
		f, other = f|rfOrigin, x.target
	case x.target == c.self && x.origin != c.self && c.vertexOf(n) == x.origin:
		f, other = f|rfTarget, x.origin
	default:
		return b, false
	}
	slot, rank, off := n&maxSlot, other>>48, other&(1<<48-1)
	blk := off / c.bs
	if slot == 0 || off%c.bs != 0 || blk >= 1<<24 || (rank != c.self>>48 && rank > 0xff) {
		return b, false
	}
	if x.dir == gdi.Undirected {
		f |= rfUndirected
	}
	if slot > 0xff {
		f |= rfWideSlot
	}
	if rank != c.self>>48 {
		f |= rfRank
	}
	if x.label != 0 {
		f |= rfLabel
	}
	b = append(b, f)
	if slot > 0xff {
		b = binary.LittleEndian.AppendUint16(b, uint16(slot))
	} else {
		b = append(b, byte(slot))
	}
	if f&rfRank != 0 {
		b = append(b, byte(rank))
	}
	b = append(b, byte(blk), byte(blk>>8), byte(blk>>16))
	if x.label != 0 {
		b = binary.LittleEndian.AppendUint32(b, x.label)
	}
	return b, true
}

// compact decodes the compact reference at the start of b, which holds
// all of it (refSizes): its edge number and its other end. ok is false if
// it is malformed.
func (c refCodec) compact(b []byte) (n, other uint64, ok bool) {
	f := b[0]
	ends := f & (rfOrigin | rfTarget)
	slot, i := uint64(b[1]), 2
	if f&rfWideSlot != 0 {
		slot, i = uint64(binary.LittleEndian.Uint16(b[1:])), 3
	}
	rank := c.self >> 48
	if f&rfRank != 0 {
		rank, i = uint64(b[i]), i+1
	}
	blk := uint64(b[i]) | uint64(b[i+1])<<8 | uint64(b[i+2])<<16
	if slot == 0 || ends == 0 || ends == rfOrigin|rfTarget {
		return 0, 0, false
	}
	other = rank<<48 | blk*c.bs
	if ends == rfOrigin {
		return c.base | slot, other, true
	}
	return lightBit | rank<<48 | blk<<16 | slot, other, true
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
	if len(b) < size {
		return 0, x, nil, false
	}
	if f&rfDir == rfCompact {
		n, other, ok := c.compact(b)
		if !ok {
			return 0, x, nil, false
		}
		x.dir = gdi.Directed
		if f&rfUndirected != 0 {
			x.dir = gdi.Undirected
		}
		x.origin, x.target = other, c.self
		if f&rfOrigin != 0 {
			x.origin, x.target = c.self, other
		}
		if f&rfLabel != 0 {
			x.label = binary.LittleEndian.Uint32(b[size-4:])
		}
		return n, x, b[size:], true
	}
	x.dir = gdi.DirectionType(f & rfDir)
	ends := f & (rfOrigin | rfTarget)
	if x.dir != 0 && ends == 0 {
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
	if f&rfDir == rfCompact {
		size = 1 + 1 + 3
		if f&rfWideSlot != 0 {
			size++
		}
		if f&rfRank != 0 {
			size++
		}
		if f&rfLabel != 0 {
			size += 4
		}
		return size, false
	}
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
	f = refNorm[b[0]]
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

// refNorm maps the flags byte of a compact reference to the flags byte
// of the wide form of the same reference, without its holder bit (it has
// none): direction, ends, label, and rfSlot or rfOther for the edge
// numbered after this vertex or the other end. Other flags bytes, and
// compact ones without exactly one end (malformed), map to themselves.
var refNorm = func() (t [256]byte) {
	for i := range t {
		f := byte(i)
		t[i] = f
		ends := f & (rfOrigin | rfTarget)
		if f&rfDir != rfCompact || ends == 0 || ends == rfOrigin|rfTarget {
			continue
		}
		g := byte(gdi.Directed) | ends | f&rfLabel
		if f&rfUndirected != 0 {
			g = byte(gdi.Undirected) | ends | f&rfLabel
		}
		if ends == rfOrigin {
			g |= rfSlot
		} else {
			g |= rfOther
		}
		t[i] = g
	}
	return t
}()

// lightRefSizes is refSize of the flags bytes of references numbered
// after their vertex or its other end and without a holder: those of
// lightweight edges, whose label, if any, is their last 4 bytes. It is 0
// for any other flags byte (and for a tombstone).
var lightRefSizes = func() (t [256]uint8) {
	for f := range t {
		if b := refNorm[f]; b != rfDead && b&rfDir != rfCompact && b&rfHolder == 0 && b&(rfSlot|rfOther) != 0 {
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
	if f&rfDir == rfCompact {
		n, _, ok = c.compact(b)
		return n, size, ok
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
