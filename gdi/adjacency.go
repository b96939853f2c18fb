package gdi

import "iter"

// AdjacencyScanner is an optional interface of a Transaction (an extension
// of the binding) for analytics that read a whole graph. In a collective
// read transaction, ScanLocalAdjacency(idx, fn) calls fn once for every
// vertex of index idx whose home is the calling rank, with what
// LocalVerticesOfIndex(idx, nil) followed by AssociateVertex,
// Properties(PropertyTypeID) and IncidentEdger.IncidentEdges(EdgeAll,
// nil) on each vertex would give, in an order of the backend's choosing
// (gdirma's: the order of its blocks). No holder is made per vertex or
// edge, so a backend can serve it by reading its storage in order.
//
// The LocalAdjacency given to fn, and its slices, are valid only until fn
// returns. An error of fn stops the scan and is returned. Outside a
// collective read transaction it returns ErrTransaction; an invalid index
// is ErrIndex.
//
// Callers discover it with a type assertion and fall back to the calls
// above where a backend lacks it.
type AdjacencyScanner interface {
	ScanLocalAdjacency(idx Index, fn func(v *LocalAdjacency) error) error
}

// LocalAdjacency is one vertex as AdjacencyScanner reports it.
type LocalAdjacency struct {
	UID VertexUID
	// ID is the raw value of the vertex's application-level ID
	// (PropertyTypeID), nil if it has none.
	ID []byte
	// Edges are its incident edges.
	Edges []IncidentEdge
}

// KeyedAdjacencyScanner is an optional interface of a Transaction (an
// extension of the binding), beside AdjacencyScanner, for backends that
// number the vertices of each rank densely in their storage. In a
// collective read transaction, ScanLocalKeyed(idx, fn) hands fn what
// ScanLocalAdjacency would, but with keys instead of UIDs: every vertex
// its key on its home rank, and every edge the home rank and the key of
// its other end. The keys of the vertices whose home is rank r are below
// KeyLimit(r), one each, and do not change while the transaction is open.
// fn sees the vertices in ascending order of key. A reader numbers the
// vertices with arrays indexed by key then, where UIDs would have to be
// hashed, and can write their adjacency as the scan goes. Errors are
// those of ScanLocalAdjacency; KeyLimit of a rank out of range is
// ErrArgument.
type KeyedAdjacencyScanner interface {
	KeyLimit(rank int) (uint64, error)
	ScanLocalKeyed(idx Index, fn func(v *KeyedAdjacency) error) error
}

// KeyedAdjacency is one vertex as KeyedAdjacencyScanner reports it.
type KeyedAdjacency struct {
	Key uint64
	ID  []byte // as in LocalAdjacency
	// Degree is the vertex's degree as PropertyTypeDegree gives it (its
	// edges, a loop twice), known without ranging over Edges.
	Degree uint64
	// Edges yields the vertex's incident edges, decoding each as it is
	// handed out: a reader that stops early, or never ranges over them,
	// does not pay for the rest. Like the rest of the KeyedAdjacency it
	// is valid only until fn returns. A corrupt edge ends the iteration,
	// and the scan (or read) returns its error once fn has returned.
	Edges iter.Seq[KeyedEdge]
}

// KeyedAdjacencyReader is an optional interface of a Transaction, beside
// KeyedAdjacencyScanner, for algorithms that visit a few vertices per
// step, such as a breadth-first search run straight on the storage. In a
// collective read transaction, ReadLocalKeyed(key, fn) calls fn once with
// the vertex of key key, which must be one that ScanLocalKeyed handed out
// on the calling rank in this transaction; its ID is nil (the scan gave
// it). A key that can name no vertex of the calling rank is ErrArgument
// (a backend may check against its storage rather than KeyLimit), a key
// of no vertex ErrVertex; other errors are those of ScanLocalKeyed.
type KeyedAdjacencyReader interface {
	KeyedAdjacencyScanner
	ReadLocalKeyed(key uint64, fn func(v *KeyedAdjacency) error) error
}

// KeyedEdge is an edge of a KeyedAdjacency: where its other end lives,
// its direction, whether the vertex is its origin and its target, and
// where its own holder lives.
type KeyedEdge struct {
	Home               int
	Key                uint64
	Direction          DirectionType
	IsOrigin, IsTarget bool
	// HolderHome and HolderKey name the holder of the edge's labels and
	// properties, as KeyedEdgePropertyScanner hands it out on that rank;
	// HolderKey is 0 for an edge that has no holder of its own (one of
	// gdirma's lightweight edges, which has no properties).
	HolderHome int
	HolderKey  uint64
}

// KeyedEdgePropertyScanner is an optional interface of a Transaction,
// beside KeyedAdjacencyScanner, for analytics that read a property of
// every edge, such as a weight. In a collective read transaction,
// ScanLocalEdgeProperty(pt, fn) calls fn once for every edge holder on
// the calling rank, in ascending key order, with its key (as
// KeyedEdge.HolderKey names it) and the edge's values of pt, none if it
// has none; vals is valid only until fn returns. An invalid property
// type is ErrPropertyType; other errors are those of ScanLocalKeyed.
type KeyedEdgePropertyScanner interface {
	ScanLocalEdgeProperty(pt PropertyType, fn func(key uint64, vals []Value) error) error
}
