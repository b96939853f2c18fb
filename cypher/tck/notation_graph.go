package tck

import "sort"

// entity reads a node (:A:B {k: v}) or a relationship [:T {k: v}].
func (p *notationParser) entity(kind Kind) (Val, error) {
	open, close := "(", ")"
	if kind == KindRel {
		open, close = "[", "]"
	}
	v := Val{Kind: kind}
	if err := p.expect(open); err != nil {
		return v, err
	}
	for p.accept(":") {
		n, err := p.name()
		if err != nil {
			return v, err
		}
		v.Labels = append(v.Labels, n)
	}
	if kind == KindRel {
		if len(v.Labels) != 1 {
			return v, p.errorf("a relationship has one type")
		}
		v.Str, v.Labels = v.Labels[0], nil
	}
	v.Labels = sortedSet(v.Labels)
	if p.peek() == '{' {
		m, err := p.mapLit()
		if err != nil {
			return v, err
		}
		v.Props = m
	}
	return v, p.expect(close)
}

// path reads <(…)-[…]->(…)<-[…]-(…)>.
func (p *notationParser) path() (Val, error) {
	v := Val{Kind: KindPath}
	p.accept("<")
	for {
		n, err := p.entity(KindNode)
		if err != nil {
			return v, err
		}
		v.Elems = append(v.Elems, n)
		if p.accept(">") {
			return v, nil
		}
		back := p.accept("<-")
		if !back {
			if err := p.expect("-"); err != nil {
				return v, err
			}
		}
		r, err := p.entity(KindRel)
		if err != nil {
			return v, err
		}
		end := "->"
		if back {
			end = "-"
		}
		if err := p.expect(end); err != nil {
			return v, err
		}
		v.Elems, v.Back = append(v.Elems, r), append(v.Back, back)
	}
}

// sortedSet returns the distinct strings of s, sorted.
func sortedSet(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	sort.Strings(s)
	out := s[:1]
	for _, x := range s[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}
