package gdirma

import "github.com/gdi-go/gdi/bgdl"

// Lightweight edges. An edge with at most one label and no properties has
// no holder of its own: it exists only as the references its two end
// vertices keep of it (direction, ends, label). Its number is made from
// its origin vertex and a slot that is unique among that vertex's edges:
//
//	bit 63       1: numbered after its origin
//	bits 48-62   rank of the origin's primary block
//	bits 16-47   block number of the origin's primary block
//	bits 0-15    slot (1 to 65535)
//
// and its EdgeUID is {UID of the origin, slot}. When it needs more — a
// property, a second label — the transaction gives it a holder of its own
// and records the holder in the references; the edge keeps its number and
// UID. If the vertex it is numbered after stops being one of its ends
// (SetOrigin), that vertex keeps a stub reference (direction 0) naming the
// holder, so the number still leads to the edge; only if that vertex is
// deleted does the edge take the number of its holder (the old number is
// an alias for the rest of the transaction). Edges created when all slots
// of the origin are taken are numbered by their holder from the start.
const (
	lightBit      = uint64(1) << 63
	maxSlot       = 1<<16 - 1
	maxLightRanks = 1 << 15
)

func isLight(n uint64) bool { return n&lightBit != 0 }

// lightOK reports whether edges can be numbered after their origin: the
// rank must fit 15 bits.
func (st *store) lightOK() bool { return st.size <= maxLightRanks }

func (st *store) lightNumber(v uint64, slot int) uint64 {
	p := bgdl.DPtr(v)
	return lightBit | uint64(p.Rank())<<48 | uint64(p.Offset()/st.bs)<<16 | uint64(slot)
}

// lightOrigin returns the number of the origin vertex of light edge n.
func (st *store) lightOrigin(n uint64) uint64 {
	rank, b := int(n>>48&0x7fff), int(n>>16&0xffffffff)
	return uint64(rank)<<48 | uint64(b*st.bs)
}

func lightSlot(n uint64) int { return int(n & maxSlot) }

// lightUID is st.uid(st.lightOrigin(n)), the first word of the UID of
// light edge n, without a division: n holds the origin's block index.
func (st *store) lightUID(n uint64) uint64 {
	return uint64(st.tag)<<48 | (n>>48&0x7fff)<<32 | n>>16&0xffffffff
}
