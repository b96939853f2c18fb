package refdb

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// A subconstraint is a conjunction of label and property conditions; a
// constraint is a disjunction of such conjunctions. Conditions store
// labels and property types by object number.
//
// Staleness is not recorded but derived: a label condition is stale once
// its label is freed (numbers are never reused), a property condition once
// its property type is freed or updated, which it tells by the version of
// the type it remembers. A conjunction is stale if one of its conditions
// is, a disjunction if one of its conjunctions is.

type labelCond struct {
	label uint32
	op    gdi.Op
}

type propCond struct {
	ptype   uint32
	op      gdi.Op
	value   gdi.Value
	version int
}

type conjunction struct {
	labels []labelCond
	props  []propCond
}

func (c conjunction) clone() conjunction {
	return conjunction{slices.Clone(c.labels), slices.Clone(c.props)}
}

// The staleness tests read the catalog: the callers hold mu.

func (db *Database) labelCondStale(x labelCond) bool {
	return x.label != noLabel && !db.cat.hasLabel(x.label)
}

func (db *Database) propCondStale(x propCond) bool {
	v, ok := db.cat.ptypeVersion(x.ptype)
	return !ok || v != x.version
}

func (db *Database) conjunctionStale(c conjunction) bool {
	return slices.ContainsFunc(c.labels, db.labelCondStale) || slices.ContainsFunc(c.props, db.propCondStale)
}

// dnf returns the formula of a disjunction, for gdi's evaluation, with
// this rank's handles. The caller holds mu.
func (db *Database) dnf(cs []conjunction) gdi.DNF {
	d := make(gdi.DNF, len(cs))
	for i, c := range cs {
		for _, x := range c.labels {
			d[i].Labels = append(d[i].Labels, gdi.LabelCondition{Label: db.labelHandle(x.label), Op: x.op})
		}
		for _, x := range c.props {
			d[i].Properties = append(d[i].Properties, gdi.PropertyCondition{PropertyType: db.ptypeHandle(x.ptype), Op: x.op, Value: x.value})
		}
	}
	return d
}
