package cypher

import (
	"github.com/gdi-go/gdi/cypher/value"
)

// Result is the outcome of a statement: the columns (none when the
// statement ends with an updating clause) and the rows, one value per
// column. The Element of every node and relationship in the rows is taken
// before the statement commits, so Format and Element give them as the
// statement saw them, deleted ones included.
type Result struct {
	Columns []string
	Rows    [][]value.Value
	// Plan is, for EXPLAIN, the plan's lines, which Rows also hold as
	// strings in the column "plan"; nil otherwise.
	Plan  []string
	nodes map[value.NodeID]Element
	rels  map[value.RelID]Element
}

// An Element is what a result holds of a node or a relationship besides
// its identity: a node's labels, or a relationship's type as its one
// label, and the properties.
type Element struct {
	Labels     []string
	Properties value.Map
}

// Element returns the element of v, a node or relationship in the rows;
// false for any other value.
func (r *Result) Element(v value.Value) (Element, bool) {
	var el Element
	var ok bool
	switch v.Kind() {
	case value.KindNode:
		el, ok = r.nodes[v.Node().ID]
	case value.KindRelationship:
		el, ok = r.rels[v.Relationship().ID]
	}
	return el, ok
}

// Format returns v, a value of the result, in the TCK notation: nodes
// (:A:B {k: 'v'}), relationships [:T {k: 1}], paths <(:A)-[:T]->(:B)>.
func (r *Result) Format(v value.Value) string { return value.Format(v, resultPrinter{r}) }

// Cell returns the TCK notation of the value in row i, column j.
func (r *Result) Cell(i, j int) string { return r.Format(r.Rows[i][j]) }

// Strings returns every row in the TCK notation.
func (r *Result) Strings() [][]string {
	out := make([][]string, len(r.Rows))
	for i, row := range r.Rows {
		out[i] = make([]string, len(row))
		for j, v := range row {
			out[i][j] = r.Format(v)
		}
	}
	return out
}

type resultPrinter struct{ r *Result }

func (p resultPrinter) Node(n value.Node) string {
	if el, ok := p.r.nodes[n.ID]; ok {
		return value.FormatNode(el.Labels, el.Properties, nil)
	}
	return value.Format(value.NodeValue(n), nil)
}

func (p resultPrinter) Relationship(x value.Relationship) string {
	if el, ok := p.r.rels[x.ID]; ok && len(el.Labels) == 1 {
		return value.FormatRelationship(el.Labels[0], el.Properties, nil)
	}
	return value.Format(value.RelValue(x), nil)
}

// snapshotResult records the element of every node and relationship in
// the rows of r.
func (s *store) snapshotResult(r *Result) error {
	for _, row := range r.Rows {
		for _, v := range row {
			if err := s.snapshotValue(r, v); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *store) snapshotValue(r *Result, v value.Value) error {
	switch v.Kind() {
	case value.KindNode:
		return s.snapshotNode(r, v.Node().ID)
	case value.KindRelationship:
		return s.snapshotRel(r, v.Relationship().ID)
	case value.KindPath:
		p := v.Path()
		for _, n := range p.Nodes {
			if err := s.snapshotNode(r, n.ID); err != nil {
				return err
			}
		}
		for _, x := range p.Rels {
			if err := s.snapshotRel(r, x.ID); err != nil {
				return err
			}
		}
	case value.KindList:
		for _, e := range v.List() {
			if err := s.snapshotValue(r, e); err != nil {
				return err
			}
		}
	case value.KindMap:
		for _, e := range v.Map().All() {
			if err := s.snapshotValue(r, e); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *store) snapshotNode(r *Result, id value.NodeID) error {
	if _, ok := r.nodes[id]; ok {
		return nil
	}
	el, err := s.element(id)
	put(&r.nodes, id, el)
	return err
}

func (s *store) snapshotRel(r *Result, id value.RelID) error {
	if _, ok := r.rels[id]; ok {
		return nil
	}
	el, err := s.element(id)
	put(&r.rels, id, el)
	return err
}
