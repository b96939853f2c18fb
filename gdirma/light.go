package gdirma

import "github.com/gdi-go/gdi/gdirma/internal/layout"

// Lightweight edges. An edge with at most one label and no properties has
// no holder of its own: it exists only as the references its two end
// vertices keep of it (direction, ends, label), and is numbered after its
// origin (layout.LightNumber). When it needs more — a property, a second
// label — the transaction gives it a holder of its own and records the
// holder in the references; the edge keeps its number and UID. If the
// vertex it is numbered after stops being one of its ends (SetOrigin),
// that vertex keeps a stub reference (direction 0) naming the holder, so
// the number still leads to the edge; only if that vertex is deleted does
// the edge take the number of its holder (the old number is an alias for
// the rest of the transaction). Edges created when all slots of the
// origin are taken are numbered by their holder from the start.

// lightOK reports whether edges can be numbered after their origin.
func (st *graph) lightOK() bool { return st.Size() <= layout.MaxLightRanks }

func (st *graph) lightNumber(v layout.Number, slot int) layout.Number {
	return layout.LightNumber(v, slot, st.BlockSize())
}

// lightOrigin returns the number of the origin vertex of light edge n.
func (st *graph) lightOrigin(n layout.Number) layout.Number {
	return layout.LightOrigin(n, st.BlockSize())
}
