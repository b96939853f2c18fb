package cypher

import (
	"slices"
	"strings"

	"github.com/gdi-go/gdi/cypher/graph"
	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/cypher/value"
)

// names are the labels (relationship types included) and property keys a
// statement names, which Schema.Ensure makes before it runs.
type names struct {
	labels, keys []string
}

// collectNames walks a statement that writes and gathers, in first-seen
// order, every label and relationship type and every property key it
// names: in patterns, SET, REMOVE, property accesses, label predicates,
// and the keys of map literals and of map-valued parameters (they may
// become properties). A statement that only reads names nothing: a label
// or key the catalog lacks matches nothing and reads as null, so a read
// leaves the catalog as it was. Keys the mapping cannot name (with #,
// empty, too long) are left out: reading them gives null, writing them
// fails.
func collectNames(q *parse.Query, params map[string]value.Value) names {
	if !writes(q) {
		return names{}
	}
	var c nameCollector
	for _, part := range q.Parts {
		for _, cl := range part.Clauses {
			c.clause(cl)
			for _, e := range clauseExprs(cl) {
				parse.Walk(e, c.mapKeys)
			}
		}
	}
	for _, name := range sortedKeys(params) {
		c.valueKeys(params[name])
	}
	return names{labels: c.labels, keys: c.keys}
}

// writes reports whether q has an updating clause.
func writes(q *parse.Query) bool {
	for _, part := range q.Parts {
		for _, cl := range part.Clauses {
			switch cl.(type) {
			case *parse.Create, *parse.Set, *parse.Remove, *parse.Delete:
				return true
			}
		}
	}
	return false
}

type nameCollector struct {
	labels, keys []string
}

func (c *nameCollector) label(names ...string) {
	for _, n := range names {
		if n != "" && !slices.Contains(c.labels, n) {
			c.labels = append(c.labels, n)
		}
	}
}

func (c *nameCollector) key(k string) {
	if validKey(k) && !slices.Contains(c.keys, k) {
		c.keys = append(c.keys, k)
	}
}

// validKey reports whether the mapping can name the family of k.
func validKey(k string) bool {
	return k != "" && !strings.Contains(k, "#") && len(k) <= graph.MaxKey
}

func (c *nameCollector) clause(cl parse.Clause) {
	switch cl := cl.(type) {
	case *parse.Match:
		c.pattern(cl.Pattern)
	case *parse.Create:
		c.pattern(cl.Pattern)
	case *parse.Set:
		for _, it := range cl.Items {
			if sl, ok := it.(*parse.SetLabels); ok {
				c.label(sl.Labels...)
			}
		}
	case *parse.Remove:
		for _, it := range cl.Items {
			if rl, ok := it.(*parse.RemoveLabels); ok {
				c.label(rl.Labels...)
			}
		}
	}
	for _, e := range clauseExprs(cl) {
		parse.Walk(e, c.expr)
	}
}

func (c *nameCollector) pattern(p *parse.Pattern) {
	for _, part := range p.Parts {
		for _, n := range part.Nodes {
			c.label(n.Labels...)
			c.propertyMap(n.Properties)
		}
		for _, r := range part.Rels {
			c.label(r.Types...)
			c.propertyMap(r.Properties)
		}
	}
}

func (c *nameCollector) propertyMap(e parse.Expr) {
	if m, ok := e.(*parse.MapLit); ok {
		for _, en := range m.Entries {
			c.key(en.Key)
		}
	}
}

func (c *nameCollector) expr(e parse.Expr) {
	switch e := e.(type) {
	case *parse.PropertyAccess:
		c.key(e.Key)
	case *parse.LabelPredicate:
		c.label(e.Labels...)
	}
}

func (c *nameCollector) mapKeys(e parse.Expr) {
	if m, ok := e.(*parse.MapLit); ok {
		for _, en := range m.Entries {
			c.key(en.Key)
		}
	}
}

// valueKeys adds the keys of a map value and of the maps inside a list.
func (c *nameCollector) valueKeys(v value.Value) {
	switch v.Kind() {
	case value.KindMap:
		for _, k := range v.Map().Keys() {
			c.key(k)
		}
	case value.KindList:
		for _, e := range v.List() {
			c.valueKeys(e)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
