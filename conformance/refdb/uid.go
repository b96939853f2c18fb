package refdb

import "github.com/gdi-go/gdi/gdi"

// Internal UIDs name a store and an object number in it. A VertexUID keeps
// the store number in its high bits and the object number in the low
// objectBits; an EdgeUID keeps the store number in its first word and the
// object number in its second. Object numbers start at 1 and store numbers
// at 1, so no UID is zero.
const objectBits = 40

func vertexUID(store uint32, n uint64) gdi.VertexUID {
	return gdi.VertexUID(uint64(store)<<objectBits | n)
}

func edgeUID(store uint32, n uint64) gdi.EdgeUID {
	return gdi.EdgeUID{uint64(store), n}
}

// splitVertexUID returns the store and object number of u.
func splitVertexUID(u gdi.VertexUID) (store uint32, n uint64) {
	return uint32(uint64(u) >> objectBits), uint64(u) & (1<<objectBits - 1)
}

// splitEdgeUID returns the store and object number of u; ok is false if
// u cannot be a UID of this backend.
func splitEdgeUID(u gdi.EdgeUID) (store uint32, n uint64, ok bool) {
	if u[0] > 1<<32-1 {
		return 0, 0, false
	}
	return uint32(u[0]), u[1], true
}
