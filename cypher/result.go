package cypher

import (
	"github.com/gdi-go/gdi/cypher/value"
)

// Result is the outcome of a statement: the columns (none when the
// statement ends with an updating clause) and the rows, one value per
// column. The notation of every node and relationship in the rows is
// taken before the statement commits, so Format prints them as the
// statement saw them, deleted ones included.
type Result struct {
	Columns []string
	Rows    [][]value.Value
	// Plan is, for EXPLAIN, the plan's lines, which Rows also hold as
	// strings in the column "plan"; nil otherwise.
	Plan  []string
	nodes map[value.NodeID]string
	rels  map[value.RelID]string
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
	if s, ok := p.r.nodes[n.ID]; ok {
		return s
	}
	return value.Format(value.NodeValue(n), nil)
}

func (p resultPrinter) Relationship(x value.Relationship) string {
	if s, ok := p.r.rels[x.ID]; ok {
		return s
	}
	return value.Format(value.RelValue(x), nil)
}

// snapshotResult records the notation of every node and relationship in
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
	note, err := s.notation(id)
	put(&r.nodes, id, note)
	return err
}

func (s *store) snapshotRel(r *Result, id value.RelID) error {
	if _, ok := r.rels[id]; ok {
		return nil
	}
	note, err := s.notation(id)
	put(&r.rels, id, note)
	return err
}
