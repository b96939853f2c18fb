package gdi

import "fmt"

// VertexUID is an internal vertex UID: it names one vertex of one database
// for the duration of the transaction in which it was obtained. It is a
// plain 64-bit value whose bits belong to the backend (GDI-RMA puts a rank
// and an offset in it), so it can be sent to other ranks, for example to
// spread work in a collective read transaction, and used there with
// Transaction.AssociateVertex in the same collective transaction.
//
// Backends never hand out the zero VertexUID, so it can mean "none". A UID
// used after its transaction ended, or one that names no vertex, returns
// ErrUID (or ErrObjectMismatch if the backend can tell that it belongs to
// another database).
type VertexUID uint64

func (u VertexUID) String() string { return fmt.Sprintf("v%#x", uint64(u)) }

// Holder is what vertex and edge holders have in common: labels and
// properties. All methods are local, may be called only while the holder's
// transaction is open, and may return a transaction-critical error (see
// IsTransactionCritical). Changes become visible to other transactions at
// commit, when explicit indexes are updated as well.
//
// Errors shared by all methods: ErrVertex or ErrEdge for a holder that was
// freed or whose transaction ended; ErrLabel or ErrPropertyType for a
// freed, null or unknown handle; ErrObjectMismatch for a handle of another
// database; ErrReadOnlyTransaction for a write in a collective read
// transaction; ErrReadOnlyPropertyType for a write of a degree property.
type Holder interface {
	// AddLabel adds l. Adding a label the object has, or LabelNone, does
	// nothing. If another object already has l and the same
	// application-level ID, the label is not added and ErrNonUniqueID is
	// returned.
	AddLabel(l Label) error
	// RemoveLabel removes l. Removing a label the object lacks, or
	// LabelNone, does nothing. If the object is left without labels and
	// another object without labels has the same application-level ID, the
	// label is removed and WarnNonUniqueID is returned.
	RemoveLabel(l Label) error
	// Labels returns the labels of the object, in no particular order.
	Labels() ([]Label, error)

	// AddProperty adds a property of type p with value v. v must suit p
	// (see PropertyTypeInfo.CheckValue). If p is single entity and the
	// object has a property of type p, it returns ErrPropertyTypeExists.
	// If the object has the same (p, v) pair, it does nothing.
	AddProperty(p PropertyType, v Value) error
	// PropertyTypes returns the property types of which the object has at
	// least one property, each once, in no particular order. The degree
	// types are not included; PropertyTypeID is, if the object has an ID.
	PropertyTypes() ([]PropertyType, error)
	// Properties returns the values of all properties of type p, in no
	// particular order; none (and no error) if there are none. For the
	// degree types of a vertex it returns one Uint64 value.
	Properties(p PropertyType) ([]Value, error)
	// RemoveProperties removes all properties of type p; none is no error.
	RemoveProperties(p PropertyType) error
	// RemoveProperty removes the property (p, v) if the object has it, and
	// otherwise does nothing. v must equal the stored value exactly (==).
	RemoveProperty(p PropertyType, v Value) error
	// UpdateProperty replaces the value of the property of single-entity
	// type p with v. ErrWrongType if p is multiple entity, ErrNoProperty if
	// the object has no property of type p.
	UpdateProperty(p PropertyType, v Value) error
	// UpdateSpecificProperty replaces the property (p, old) with (p, new).
	// ErrNoProperty if the object has no property (p, old);
	// ErrPropertyExists if it already has (p, new).
	UpdateSpecificProperty(p PropertyType, old, new Value) error
	// SetProperty sets the property of single-entity type p to v, adding
	// it if the object has none. ErrWrongType if p is multiple entity.
	SetProperty(p PropertyType, v Value) error
}

// VertexHolder is a vertex as seen by one transaction on one rank: the
// specification's temporary vertex object. It is created by
// Transaction.CreateVertex or Transaction.AssociateVertex and is valid only
// until its transaction commits or aborts, or until Free; afterwards every
// method returns ErrVertex. It must not be used by several goroutines at
// once, nor shared with other ranks (share its UID instead).
//
// A VertexHolder is an interface value; backends implement it with a
// pointer type, so holders are comparable and usable as map keys. Two
// holders of the same vertex in one transaction may or may not be ==.
type VertexHolder interface {
	Holder

	// UID returns the internal UID of the vertex, valid in this
	// transaction. For a vertex created in this transaction it is the UID
	// the vertex will have once committed. (Not in the specification,
	// which offers no way to get the UID of a holder.)
	UID() (VertexUID, error)

	// Free deletes the vertex at commit, together with all its edges, and
	// invalidates this holder and any EdgeHolder of those edges in the
	// transaction at once.
	Free() error

	// Edges returns the UIDs of the edges of the vertex that match the
	// orientation o and satisfy the constraint c (nil: no constraint).
	// Every matching edge appears once, a loop included. ErrEdgeOrientation
	// for an invalid o; ErrStale for a stale c; ErrConstraint for a freed
	// c.
	Edges(o Orientation, c Constraint) ([]EdgeUID, error)
	// Neighbors returns the UIDs of the vertices at the other end of the
	// edges that Edges(o, c) returns, each vertex once. A loop makes the
	// vertex its own neighbour.
	Neighbors(o Orientation, c Constraint) ([]VertexUID, error)
}
