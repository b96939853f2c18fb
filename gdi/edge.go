package gdi

import "fmt"

// EdgeUID is an internal edge UID: it names one edge of one database for
// the duration of the transaction in which it was obtained. It is a plain
// 128-bit value whose bits belong to the backend (GDI-RMA stores edges
// with their origin vertex and uses that vertex and a slot), so it can be
// sent to other ranks like a VertexUID. Backends never hand out the zero
// EdgeUID. A stale or unknown UID returns ErrUID.
type EdgeUID [2]uint64

func (u EdgeUID) String() string { return fmt.Sprintf("e%#x.%#x", u[0], u[1]) }

// IsZero reports whether u is the zero EdgeUID.
func (u EdgeUID) IsZero() bool { return u == EdgeUID{} }

// DirectionType tells whether an edge is directed.
type DirectionType uint8

// Direction types. The zero DirectionType is invalid (ErrState).
const (
	Directed   DirectionType = iota + 1 // GDI_EDGE_DIRECTED: from origin to target
	Undirected                          // GDI_EDGE_UNDIRECTED
)

// Valid reports whether d is Directed or Undirected.
func (d DirectionType) Valid() bool { return d == Directed || d == Undirected }

func (d DirectionType) String() string {
	switch d {
	case Directed:
		return "GDI_EDGE_DIRECTED"
	case Undirected:
		return "GDI_EDGE_UNDIRECTED"
	}
	return fmt.Sprintf("DirectionType(%d)", uint8(d))
}

// Orientation selects edges of a vertex by how they touch it. It is a
// bitwise OR of the three flags, at least one of them.
type Orientation uint8

// Orientation flags.
const (
	// EdgeIncoming keeps directed edges whose target is the vertex.
	EdgeIncoming Orientation = 1 << iota
	// EdgeOutgoing keeps directed edges whose origin is the vertex.
	EdgeOutgoing
	// EdgeUndirected keeps undirected edges.
	EdgeUndirected

	// EdgeAll keeps every edge.
	EdgeAll = EdgeIncoming | EdgeOutgoing | EdgeUndirected
)

// Valid returns ErrEdgeOrientation unless o is a non-empty combination of
// the three flags.
func (o Orientation) Valid() error {
	if o == 0 || o&^EdgeAll != 0 {
		return Errorf(ErrEdgeOrientation, "orientation %#x", uint8(o))
	}
	return nil
}

// Matches reports whether an edge of direction d, of which the vertex is
// the origin (isOrigin) and/or the target (isTarget), is kept by o. A
// directed loop is both incoming and outgoing.
func (o Orientation) Matches(d DirectionType, isOrigin, isTarget bool) bool {
	switch d {
	case Undirected:
		return o&EdgeUndirected != 0 && (isOrigin || isTarget)
	case Directed:
		return (o&EdgeOutgoing != 0 && isOrigin) || (o&EdgeIncoming != 0 && isTarget)
	}
	return false
}

func (o Orientation) String() string {
	s := ""
	for _, f := range []struct {
		o    Orientation
		name string
	}{{EdgeIncoming, "GDI_EDGE_INCOMING"}, {EdgeOutgoing, "GDI_EDGE_OUTGOING"}, {EdgeUndirected, "GDI_EDGE_UNDIRECTED"}} {
		if o&f.o != 0 {
			if s != "" {
				s += "|"
			}
			s += f.name
		}
	}
	if o&^EdgeAll != 0 || s == "" {
		return fmt.Sprintf("Orientation(%#x)", uint8(o))
	}
	return s
}

// EdgeHolder is an edge as seen by one transaction on one rank: the
// specification's temporary edge object. It is created by
// Transaction.CreateEdge or Transaction.AssociateEdge and is valid only
// until its transaction ends, until Free, or until one of its vertices is
// freed in the transaction; afterwards every method returns ErrEdge. The
// rules of VertexHolder on goroutines, sharing and comparability apply.
//
// Edges may have labels and properties (the Holder methods); labels and
// properties on edges are part of the model even where a backend stores
// label-less edges more cheaply.
type EdgeHolder interface {
	Holder

	// UID returns the internal UID of the edge, valid in this transaction.
	// (Not in the specification.)
	UID() (EdgeUID, error)

	// Free deletes the edge at commit and invalidates this holder at once.
	Free() error

	// Vertices returns the origin and target of the edge. For an undirected
	// edge the order is arbitrary but stays the same while the edge is
	// unchanged.
	Vertices() (origin, target VertexUID, err error)
	// Direction returns whether the edge is directed.
	Direction() (DirectionType, error)

	// SetOrigin makes v the origin (for an undirected edge: the end that
	// Vertices reports first). ErrObjectMismatch if v belongs to another
	// transaction.
	SetOrigin(v VertexHolder) error
	// SetTarget makes v the target (for an undirected edge: the end that
	// Vertices reports second).
	SetTarget(v VertexHolder) error
	// SetDirection makes the edge directed or undirected (ErrState for
	// another value).
	SetDirection(d DirectionType) error
}
