package value

import (
	"fmt"
	"unsafe"
)

// NodeID is the identity of a node, filled in by the engine and opaque to
// this package: it has the shape of gdi.VertexUID, so the engine converts
// with NodeID(uid). Two nodes are equal exactly when their NodeIDs are; the
// sort order among nodes is the numeric order of the IDs, which is
// arbitrary but stable within a transaction.
type NodeID uint64

// RelID is the identity of a relationship, with the shape of gdi.EdgeUID
// (convert with RelID(uid)). Relationships are equal exactly when their
// RelIDs are, and ordered by the IDs compared word by word.
type RelID [2]uint64

// Node is a reference to a node of the graph. Its labels and properties
// live in the engine, which looks them up by ID (property access n.k,
// labels(n), printing through a Printer).
type Node struct {
	ID NodeID
}

// Relationship is a reference to a relationship. Start and End are the
// nodes it goes from and to; they take no part in equality or order but let
// a Path know the direction in which each of its relationships is traversed.
type Relationship struct {
	ID         RelID
	Start, End NodeID
}

// Path is a walk: Nodes[0], Rels[0], Nodes[1], …, Rels[k-1], Nodes[k], with
// len(Nodes) == len(Rels)+1. A path of length zero is a single node.
type Path struct {
	Nodes []Node
	Rels  []Relationship
}

// Len returns the length of the path, its number of relationships.
func (p Path) Len() int { return len(p.Rels) }

// Forward reports whether p.Rels[i] is traversed from its Start to its End
// (always true for a loop).
func (p Path) Forward(i int) bool {
	r := p.Rels[i]
	return r.Start == p.Nodes[i].ID && r.End == p.Nodes[i+1].ID
}

// NewPath checks that nodes and rels alternate into a walk (each
// relationship joins the nodes around it, in either direction) and returns
// the Path value. It keeps the slices.
func NewPath(nodes []Node, rels []Relationship) (Value, error) {
	if len(nodes) != len(rels)+1 {
		return Null, fmt.Errorf("value: a path needs one node more than relationships, got %d nodes and %d relationships", len(nodes), len(rels))
	}
	for i, r := range rels {
		a, b := nodes[i].ID, nodes[i+1].ID
		if !(r.Start == a && r.End == b) && !(r.Start == b && r.End == a) {
			return Null, fmt.Errorf("value: relationship %d of the path does not join nodes %d and %d", i, i, i+1)
		}
	}
	return Value{kind: KindPath, ptr: unsafe.Pointer(&Path{Nodes: nodes, Rels: rels})}, nil
}
