package refdb

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// A query over many objects (the implicit index, an explicit index, the
// uniqueness checks of IDs) runs in two parts: eval finds the matching
// committed objects under the store's lock, and the transaction overlays
// its cache (objects it read, changed, created or deleted are judged as it
// sees them). A single-process transaction keeps eval and its result, and
// commit runs eval again: if it finds other committed objects, something
// the transaction based its work on has changed (a phantom, for
// instance), and the commit fails.
type query struct {
	eval func(s *store) []uint64
	seen []uint64
}

// ask runs eval on the committed store and records it. The caller holds
// mu.
func (tx *Transaction) ask(eval func(s *store) []uint64) []uint64 {
	s := tx.db.store
	s.mu.Lock()
	ns := eval(s)
	s.mu.Unlock()
	if tx.ttype == gdi.SingleProcessTransaction {
		tx.queries = append(tx.queries, query{eval, ns})
	}
	return ns
}

// overlay returns, ascending, the committed matches the transaction has
// not cached, and the cached objects it sees that keep admits.
func (tx *Transaction) overlay(k kind, committed []uint64, keep func(n uint64, r *record) (bool, error)) ([]uint64, error) {
	var out []uint64
	for _, n := range committed {
		if tx.cache[k][n] == nil {
			out = append(out, n)
		}
	}
	for n, c := range tx.cache[k] {
		if c.cur == nil {
			continue
		}
		if ok, err := keep(n, c.cur); err != nil {
			return nil, err
		} else if ok {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

// withID returns the objects of kind k that have application-level ID id
// and the label l (noLabel: no label at all), as the transaction sees
// them.
func (tx *Transaction) withID(k kind, l uint32, id string) ([]uint64, error) {
	key := idKey{k, l, id}
	committed := tx.ask(func(s *store) []uint64 { return s.idMatches(key) })
	return tx.overlay(k, committed, func(_ uint64, r *record) (bool, error) {
		return slices.Contains(idKeys(k, r), key), nil
	})
}

// match says which objects a query keeps: those covered by an index
// (covers; nil keeps all), satisfying a constraint (dnf; nil keeps all),
// and living on a rank (home; -1 for any).
type match struct {
	db     *Database
	k      kind
	covers func([]gdi.Label, []gdi.PropertyType) bool
	dnf    *gdi.DNF
	home   int
}

// needsDegrees reports whether the constraint reads a degree type.
func (m match) needsDegrees() bool {
	if m.k != vertexKind || m.dnf == nil {
		return false
	}
	for _, c := range *m.dnf {
		for _, p := range c.Properties {
			if p.PropertyType.IsReadOnly() {
				return true
			}
		}
	}
	return false
}

// keep decides on object n with record r; edge reads the edges of a
// vertex where its degrees are needed.
func (m match) keep(n uint64, r *record, edge func(uint64) (*record, error)) (bool, error) {
	if m.home >= 0 && r.home != m.home {
		return false, nil
	}
	o := object{db: m.db, r: r}
	if m.needsDegrees() {
		d, err := degreesOf(n, r, edge)
		if err != nil {
			return false, err
		}
		o.degrees = &d
	}
	if m.covers != nil && !m.covers(o.Labels(), o.ptypes()) {
		return false, nil
	}
	if m.dnf == nil {
		return true, nil
	}
	return m.dnf.Eval(o)
}

// find returns the objects of kind m.k that m keeps, as the transaction
// sees them. On committed objects an evaluation error (which valid
// constraints cannot cause) counts as no match.
func (tx *Transaction) find(m match) ([]uint64, error) {
	committed := tx.ask(func(s *store) []uint64 {
		return s.scan(m.k, func(n uint64, r *record) bool {
			ok, err := m.keep(n, r, committedEdge(s))
			return ok && err == nil
		})
	})
	return tx.overlay(m.k, committed, func(n uint64, r *record) (bool, error) {
		return m.keep(n, r, func(e uint64) (*record, error) { return tx.follow(edgeKind, e) })
	})
}
