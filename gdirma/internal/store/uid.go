package store

import (
	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
)

// UIDs carry the database tag (16 bits), the rank (16 bits) and the block
// number (32 bits) of a holder's primary block.

// Tag is the database's tag.
func (s *Store) Tag() uint16 { return s.tag }

// UID is the UID of holder p. (Bits written out: callers that build edge
// UIDs stay small enough to inline.)
func (s *Store) UID(p bgdl.DPtr) uint64 {
	return uint64(s.tag)<<48 | uint64(p)>>48<<32 | uint64(p)&(1<<48-1)/uint64(s.bs)
}

// LightUID is the first word of the UID of lightweight edge n: the UID of
// the vertex it is numbered after (layout.LightNumber), found without a
// division.
func (s *Store) LightUID(n layout.Number) uint64 {
	return uint64(s.tag)<<48 | uint64(n>>48&0x7fff)<<32 | uint64(n>>16&0xffffffff) // layout.LightParts, inlined
}

// Holder decodes a UID of this database into the primary block it names
// (which may hold no holder of kind k; Read finds out).
func (s *Store) Holder(u uint64, k Kind) (bgdl.DPtr, error) {
	switch {
	case u == 0:
		return 0, gdi.Errorf(gdi.ErrUID, "zero %v UID", k)
	case uint16(u>>48) != s.tag:
		return 0, gdi.Errorf(gdi.ErrObjectMismatch, "%v UID %#x of another database", k, u)
	}
	rank, b := int(u>>32&0xffff), int(u&0xffffffff)
	if rank >= s.size || b < 1 || b > s.pool.Blocks() {
		return 0, gdi.Errorf(gdi.ErrUID, "%v UID %#x names no block", k, u)
	}
	return s.BlockAt(rank, b), nil
}
