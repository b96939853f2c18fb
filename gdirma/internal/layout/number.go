package layout

import "github.com/gdi-go/gdi/bgdl"

// Object numbers. A vertex, and an edge with a holder of its own, is
// numbered by the DPtr of its primary block. A lightweight edge (no holder)
// is numbered after its origin vertex and a slot unique among that
// vertex's edges:
//
//	bit 63       1: numbered after its origin
//	bits 48-62   rank of the origin's primary block
//	bits 16-47   block number of the origin's primary block
//	bits 0-15    slot (1 to 65535)
//
// so its EdgeUID is {UID of the origin, slot}, and the number alone says
// where the edge's references live.
type Number uint64

const (
	LightBit = Number(1) << 63
	MaxSlot  = 1<<16 - 1
	// MaxLightRanks bounds the ranks whose vertices can number edges
	// after themselves: the rank must fit 15 bits.
	MaxLightRanks = 1 << 15
)

// NumberOf is the number of the object whose holder's primary block is p.
func NumberOf(p bgdl.DPtr) Number { return Number(p) }

// Holder is the primary block of the holder that numbers n (a vertex, or
// an edge numbered by its holder); n must not be light.
func (n Number) Holder() bgdl.DPtr { return bgdl.DPtr(n) }

// IsLight reports whether n is numbered after its origin.
func IsLight(n Number) bool { return n&LightBit != 0 }

// Slot is the slot of n, numbered after its origin.
func Slot(n Number) int { return int(n & MaxSlot) }

// SlotOf reports whether edge n is numbered after the vertex whose slot 0
// is base.
func SlotOf(n, base Number) bool { return IsLight(n) && n&^MaxSlot == base }

// LightNumber is the number of the edge in slot slot of vertex v, with
// blocks of bs bytes.
func LightNumber(v Number, slot, bs int) Number {
	p := v.Holder()
	return LightBit | Number(p.Rank())<<48 | Number(p.Offset()/bs)<<16 | Number(slot)
}

// LightOrigin is the number of the vertex light edge n is numbered after.
func LightOrigin(n Number, bs int) Number {
	rank, b := LightParts(n)
	return Number(rank)<<48 | Number(b*bs)
}

// LightParts are the rank and the block number of the primary block of
// the vertex light edge n is numbered after.
func LightParts(n Number) (rank, block int) { return int(n >> 48 & 0x7fff), int(n >> 16 & 0xffffffff) }
