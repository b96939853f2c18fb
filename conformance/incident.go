package conformance

import (
	"fmt"

	"github.com/gdi-go/gdi/gdi"
)

var incidentCases = []Case{
	c("Edge/incident-edges-agree-with-edges", edgeIncident),
}

// edgeIncident: a backend with gdi.IncidentEdger answers IncidentEdges(o,
// c) as Edges(o, c) with AssociateEdge, Vertices and Direction per edge
// would: same edges in the same order, with their directions and ends.
// It is checked for every orientation, with and without a constraint, on
// loops, lightweight and heavyweight edges, both inside the transaction
// that makes them and once committed. A backend without it passes.
func edgeIncident(e *Env) {
	name := e.single("name", gdi.Char)
	knows, heavy := e.label("Knows"), e.label("Heavy")
	e.barrier()
	orientations := []gdi.Orientation{
		gdi.EdgeIncoming, gdi.EdgeOutgoing, gdi.EdgeUndirected,
		gdi.EdgeIncoming | gdi.EdgeOutgoing, gdi.EdgeAll,
	}
	constraints := []struct {
		what string
		c    gdi.Constraint
	}{
		{"none", nil},
		{"Knows", e.constraint(and(hasL(knows)))},
		{"not Knows", e.constraint(and(notL(knows)))},
	}
	check := func(tx gdi.Transaction, v gdi.VertexHolder, when string) {
		ie, ok := v.(gdi.IncidentEdger)
		if !ok {
			return
		}
		self := vuid(v)
		for _, o := range orientations {
			for _, c := range constraints {
				what := fmt.Sprintf("%s: IncidentEdges(%v, %s)", when, o, c.what)
				got := must(ie.IncidentEdges(o, c.c))
				want := must(v.Edges(o, c.c))
				if len(got) != len(want) {
					failf("%s: %d edges, Edges gives %d", what, len(got), len(want))
				}
				for i, eu := range want {
					h := must(tx.AssociateEdge(eu))
					orig, targ := must2(h.Vertices())
					d := must(h.Direction())
					other := orig
					if orig == self {
						other = targ
					}
					w := gdi.IncidentEdge{UID: eu, Direction: d, Other: other, IsOrigin: orig == self, IsTarget: targ == self}
					if got[i] != w {
						failf("%s: edge %d is %+v, want %+v", what, i, got[i], w)
					}
				}
			}
		}
		is(must1err(ie.IncidentEdges(0, nil)), gdi.ErrEdgeOrientation, "%s: IncidentEdges(0, nil)", when)
	}
	e.update(func(tx gdi.Transaction) {
		a := vertex(tx, e.id("a"), nil)
		b := vertex(tx, e.id("b"), nil)
		// Edges with at most one label and no property (lightweight in
		// gdirma), then ones with a property and two labels.
		light := func(d gdi.DirectionType, from, to gdi.VertexHolder, labels ...gdi.Label) {
			h := must(tx.CreateEdge(d, from, to))
			for _, l := range labels {
				okf(h.AddLabel(l), "AddLabel")
			}
		}
		light(gdi.Directed, a, b, knows)
		light(gdi.Directed, b, a)
		light(gdi.Undirected, a, b, knows)
		light(gdi.Undirected, b, a)
		light(gdi.Directed, a, a, knows)
		light(gdi.Undirected, a, a)
		edge(tx, gdi.Directed, a, b, name, "heavy", knows, heavy)
		edge(tx, gdi.Undirected, b, a, name, "heavy-und", heavy)
		edge(tx, gdi.Directed, a, a, name, "heavy-loop", knows, heavy)
		check(tx, a, "in the transaction")
		check(tx, b, "in the transaction")
	})
	e.view(func(tx gdi.Transaction) {
		check(tx, find(tx, gdi.LabelNone, e.id("a")), "committed")
		check(tx, find(tx, gdi.LabelNone, e.id("b")), "committed")
	})
}

// must1err returns the error of a call with one other result.
func must1err[T any](_ T, err error) error { return err }
