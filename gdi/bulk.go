package gdi

// BulkLoader is implemented by a Database that can load a whole graph at
// once, collectively, without transactions (an extension of the binding).
// It is found by type assertion, like Checkpointer:
//
//	if b, ok := db.(gdi.BulkLoader); ok {
//		err = b.BulkLoad(src)
//	}
//
// BulkLoad is collective and needs a quiet database: ErrConsistency if any
// rank has an open transaction, and no rank may open one until it
// returns. Every rank passes the same BulkSource except for what Edges
// or FullEdges emits: the same number of vertices, edge labels and
// direction, and a Vertex that describes the same vertex for the same
// number on every rank. The result is the graph that transactions creating
// the same vertices and edges would build, up to the UIDs chosen. Invalid
// input (an unknown label or property type, a value its type does not
// admit, two values of a single-entity property type, an ID given as an
// edge's property, an edge end out of range, an ID given twice under one
// label) fails on every rank with the spec's error code; a load that
// failed may leave part of the graph loaded.
type BulkLoader interface {
	BulkLoad(src BulkSource) error
}

// BulkSource describes a graph for BulkLoader.BulkLoad.
type BulkSource struct {
	// Vertices is the number of vertices; they are numbered 0 to
	// Vertices-1, numbers that exist only during the load.
	Vertices uint64
	// Vertex describes vertex x into v, whose slices it may reuse. The
	// backend calls it once for each vertex, on a rank of its choice.
	Vertex func(x uint64, v *BulkVertex) error
	// Edges calls emit for each edge of the calling rank's share (rank out
	// of size ranks): its origin and target vertex numbers and its label,
	// an index into EdgeLabels, or -1 for an edge without a label. The
	// shares of the ranks are disjoint. A non-nil error of emit must be
	// returned.
	Edges func(rank, size int, emit func(origin, target uint64, label int) error) error
	// EdgeLabels are the labels edges may have.
	EdgeLabels []Label
	// FullEdges, if set instead of Edges, calls emit for each edge of the
	// calling rank's share as Edges does, but with any number of labels
	// and any properties (BulkEdge); EdgeLabels are then not used. An
	// edge with at most one label and no property is stored as Edges
	// stores it; any other is a heavyweight edge, a holder of its own.
	// emit keeps nothing of e once it returns.
	FullEdges func(rank, size int, emit func(e *BulkEdge) error) error
	// Direction is the direction of every edge.
	Direction DirectionType
	// RoundEdges, if not 0, bounds the edges a rank hands to the backend
	// in one step, so that a backend that exchanges edges between ranks
	// keeps its buffers small. It must be the same on every rank.
	RoundEdges int
}

// BulkVertex is a vertex of a BulkSource.
type BulkVertex struct {
	ID         []byte // application-level ID, none if empty
	Labels     []Label
	Properties []BulkProperty // in this order after the ID
}

// BulkProperty is a property of a BulkVertex.
type BulkProperty struct {
	Type  PropertyType
	Value Value
}

// BulkEdge is an edge of a BulkSource's FullEdges.
type BulkEdge struct {
	Origin, Target uint64 // vertex numbers
	Labels         []Label
	// Properties may be of any type edges may have but the ID
	// (PropertyTypeID): edges loaded in bulk have no application-level
	// ID.
	Properties []BulkProperty
}
