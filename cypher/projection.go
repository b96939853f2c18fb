package cypher

import (
	"strings"

	"github.com/gdi-go/gdi/cypher/check"
	"github.com/gdi-go/gdi/cypher/parse"
)

// projection plans WITH and RETURN:
//
//	[Aggregate] Project [Distinct] [Sort] [Skip] [Limit] [Filter] Cut
//
// Project writes the columns into their slots and keeps the incoming
// variables, which ORDER BY and the WHERE of WITH may still see; Cut
// leaves the columns alone.
func (p *planner) projection(pi *check.ProjectionInfo, pr *parse.Projection, where parse.Expr) error {
	var aggs []*aggSpec
	c := p.compiler()
	if pi.Aggregating {
		c.aggs = &aggs
	}
	var items, keys []expr
	var cols []int
	var names, keyNames []string
	for _, it := range pi.Items {
		f, err := c.compile(it.Expr)
		if err != nil {
			return err
		}
		items = append(items, f)
		names = append(names, it.Name)
		if pi.Aggregating && it.GroupingKey {
			keys, keyNames = append(keys, f), append(keyNames, it.Name)
		}
	}
	for _, it := range pi.Items {
		cols = append(cols, p.slots.of(it.Name))
	}
	sortOp, err := p.sort(c, pr.OrderBy)
	if err != nil {
		return err
	}
	if pi.Aggregating {
		p.add(&aggregateOp{keys: keys, keyNames: keyNames, aggs: aggs})
	}
	p.add(&projectOp{items: items, cols: cols, names: names})
	if pi.Distinct {
		p.add(&distinctOp{cols: cols})
	}
	if sortOp != nil {
		p.add(sortOp)
	}
	if err := p.skipLimit(pr); err != nil {
		return err
	}
	if where != nil {
		f, err := p.filter(where)
		if err != nil {
			return err
		}
		p.add(f)
	}
	p.add(&cutOp{cols: cols})
	return nil
}

func (p *planner) sort(c *compiler, items []*parse.SortItem) (operator, error) {
	if len(items) == 0 {
		return nil, nil
	}
	o := &sortOp{}
	var texts []string
	for _, s := range items {
		f, err := c.compile(s.Expr)
		if err != nil {
			return nil, err
		}
		o.keys = append(o.keys, f)
		o.desc = append(o.desc, s.Descending)
		t := parse.Format(s.Expr)
		if s.Descending {
			t += " DESC"
		}
		texts = append(texts, t)
	}
	o.text = strings.Join(texts, ", ")
	return o, nil
}

func (p *planner) skipLimit(pr *parse.Projection) error {
	for _, e := range []struct {
		x    parse.Expr
		skip bool
	}{{pr.Skip, true}, {pr.Limit, false}} {
		if e.x == nil {
			continue
		}
		f, err := p.compiler().compile(e.x)
		if err != nil {
			return err
		}
		p.add(&sliceOp{n: f, skip: e.skip, text: parse.Format(e.x)})
	}
	return nil
}
