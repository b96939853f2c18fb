package refdb

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// kind is vertexKind or edgeKind; it indexes the per-kind tables of the
// store and of transactions.
type kind int

const vertexKind, edgeKind kind = 0, 1

var kindNames = [...]string{vertexKind: "vertex", edgeKind: "edge"}

func (k kind) String() string { return kindNames[k] }

// invalid is the code with which holders of the kind report misuse.
func (k kind) invalid() gdi.Code {
	return [...]gdi.Code{vertexKind: gdi.ErrVertex, edgeKind: gdi.ErrEdge}[k]
}

// record is a vertex or an edge as stored: its labels and properties, the
// rank it lives on (its home), and either its incident edges (a vertex) or
// its direction and ends (an edge). Labels are stored by object number.
//
// A record in the store is never changed in place while a transaction may
// hold it: a transaction changes a clone, and commit installs the clone.
type record struct {
	labels []uint32
	props  []property
	home   int

	edges []uint64 // vertex: incident edges, ascending, a loop once

	origin, target uint64            // edge
	dir            gdi.DirectionType // edge
}

// property is one (property type, value) pair of an object, the type by
// its object number.
type property struct {
	ptype uint32
	value gdi.Value
}

// clone returns a copy of r that shares nothing mutable with it.
func (r *record) clone() *record {
	c := *r
	c.labels = slices.Clone(r.labels)
	c.props = slices.Clone(r.props)
	c.edges = slices.Clone(r.edges)
	return &c
}

func (r *record) hasLabel(l uint32) bool { return slices.Contains(r.labels, l) }

// values returns the values of the properties of type p, in the order
// they were added.
func (r *record) values(p uint32) []gdi.Value {
	var vs []gdi.Value
	for _, x := range r.props {
		if x.ptype == p {
			vs = append(vs, x.value)
		}
	}
	return vs
}

func (r *record) hasProperty(p uint32, v gdi.Value) bool {
	return slices.Contains(r.props, property{p, v})
}

// ptypes returns the property types of r, each once.
func (r *record) ptypes() []uint32 {
	var ps []uint32
	for _, x := range r.props {
		if !slices.Contains(ps, x.ptype) {
			ps = append(ps, x.ptype)
		}
	}
	return ps
}

// appID returns the application-level ID of r, if it has one.
func (r *record) appID() (string, bool) {
	vs := r.values(gdi.PropertyTypeID.ID())
	if len(vs) == 0 {
		return "", false
	}
	return vs[0].RawString(), true
}

// removeProperties drops every property of type p.
func (r *record) removeProperties(p uint32) {
	r.props = slices.DeleteFunc(r.props, func(x property) bool { return x.ptype == p })
}

// removeProperty drops the pair (p, v) if r has it.
func (r *record) removeProperty(p uint32, v gdi.Value) {
	r.props = slices.DeleteFunc(r.props, func(x property) bool { return x == property{p, v} })
}

// ends returns the vertices an edge record joins (one for a loop).
func (r *record) ends() []uint64 {
	if r.origin == r.target {
		return []uint64{r.origin}
	}
	return []uint64{r.origin, r.target}
}

// addEdge and dropEdge keep the incident edge list of a vertex sorted.
func (r *record) addEdge(e uint64) {
	if i, found := slices.BinarySearch(r.edges, e); !found {
		r.edges = slices.Insert(r.edges, i, e)
	}
}

func (r *record) dropEdge(e uint64) {
	if i, found := slices.BinarySearch(r.edges, e); found {
		r.edges = slices.Delete(r.edges, i, i+1)
	}
}
