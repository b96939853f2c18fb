package layout

import "github.com/gdi-go/gdi/gdi"

// Ref is what a vertex holder keeps of each incident edge: enough to
// answer orientation and neighbour queries and degrees without reading the
// edge's own holder (the paper's lightweight edge information).
type Ref struct {
	Dir            gdi.DirectionType
	Origin, Target Number
	Label          uint32 // the label of a lightweight edge, 0 if none
	// Holder of an edge numbered after its origin that has become
	// heavyweight; 0 otherwise.
	Holder Number
}

// Stub reports whether x only names the holder of an edge numbered after
// this vertex, which is no longer one of its ends.
func (x Ref) Stub() bool { return x.Dir == 0 }

// Lightweight reports whether reference x, of edge n, holds all of it.
func (x Ref) Lightweight(n Number) bool { return IsLight(n) && x.Holder == 0 }
