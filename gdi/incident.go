package gdi

// IncidentEdge is an edge of a vertex, as IncidentEdger reports it.
type IncidentEdge struct {
	UID       EdgeUID
	Direction DirectionType
	// Other is the vertex at the other end of the edge: the vertex itself
	// for a loop.
	Other VertexUID
	// IsOrigin and IsTarget tell whether the vertex is the origin and the
	// target of the edge (both for a loop).
	IsOrigin, IsTarget bool
}

// IncidentEdger is an optional interface of a VertexHolder (an extension
// of the binding). IncidentEdges(o, c) returns, in one call, what Edges(o,
// c) followed by AssociateEdge, Vertices and Direction on every edge
// would: the edges in the order of Edges, each once. Reading the edges of
// many vertices, as analytics do, needs no holder per edge then. Its errors
// are those of Edges.
//
// Callers discover it with a type assertion and fall back to Edges where
// a backend lacks it.
type IncidentEdger interface {
	IncidentEdges(o Orientation, c Constraint) ([]IncidentEdge, error)
}
