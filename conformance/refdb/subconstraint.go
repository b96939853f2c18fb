package refdb

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// subconstraint is a conjunction of conditions owned by one rank. The
// database's mu guards it.
type subconstraint struct {
	db    *Database
	freed bool
	conj  conjunction
}

// CreateSubconstraint returns a new subconstraint without conditions.
func (db *Database) CreateSubconstraint() (gdi.Subconstraint, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := db.alive("CreateSubconstraint"); err != nil {
		return nil, err
	}
	return db.newSubconstraint(conjunction{}), nil
}

// newSubconstraint registers a subconstraint. The caller holds mu.
func (db *Database) newSubconstraint(c conjunction) *subconstraint {
	s := &subconstraint{db: db, conj: c}
	db.subconstraints = append(db.subconstraints, s)
	return s
}

// Subconstraints returns the subconstraints of this rank.
func (db *Database) Subconstraints() ([]gdi.Subconstraint, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := db.alive("Subconstraints"); err != nil {
		return nil, err
	}
	out := make([]gdi.Subconstraint, len(db.subconstraints))
	for i, s := range db.subconstraints {
		out[i] = s
	}
	return out, nil
}

// lock locks the database's mu and checks that s may be used; extend also
// refuses a stale s. The caller unlocks mu.
func (s *subconstraint) lock(extend bool) error {
	s.db.mu.Lock()
	switch {
	case s.freed || s.db.freed:
		return gdi.Errorf(gdi.ErrSubconstraint, "the subconstraint was freed")
	case extend && s.db.conjunctionStale(s.conj):
		return gdi.Errorf(gdi.ErrStale, "the subconstraint is stale")
	}
	return nil
}

// AddLabelCondition adds the condition (l, op).
func (s *subconstraint) AddLabelCondition(l gdi.Label, op gdi.Op) error {
	defer s.db.mu.Unlock()
	if err := s.lock(true); err != nil {
		return err
	}
	n, err := s.db.labelNumber(l)
	if err != nil {
		return err
	}
	if err := (gdi.LabelCondition{Label: l, Op: op}).Check(); err != nil {
		return err
	}
	s.conj.labels = append(s.conj.labels, labelCond{n, op})
	return nil
}

// AddPropertyCondition adds the condition (p, op, v).
func (s *subconstraint) AddPropertyCondition(p gdi.PropertyType, op gdi.Op, v gdi.Value) error {
	defer s.db.mu.Unlock()
	if err := s.lock(true); err != nil {
		return err
	}
	n, info, err := s.db.ptypeNumber(p)
	if err != nil {
		return err
	}
	if err := (gdi.PropertyCondition{PropertyType: p, Op: op, Value: v}).Check(info); err != nil {
		return err
	}
	version, _ := s.db.cat.ptypeVersion(n)
	s.conj.props = append(s.conj.props, propCond{n, op, v, version})
	return nil
}

// LabelConditions returns the label conditions that are not stale.
func (s *subconstraint) LabelConditions() ([]gdi.LabelCondition, error) {
	defer s.db.mu.Unlock()
	if err := s.lock(false); err != nil {
		return nil, err
	}
	var out []gdi.LabelCondition
	for _, x := range s.conj.labels {
		if !s.db.labelCondStale(x) {
			out = append(out, gdi.LabelCondition{Label: s.db.labelHandle(x.label), Op: x.op})
		}
	}
	return out, nil
}

// PropertyTypes returns the property types of the property conditions that
// are not stale, each once.
func (s *subconstraint) PropertyTypes() ([]gdi.PropertyType, error) {
	defer s.db.mu.Unlock()
	if err := s.lock(false); err != nil {
		return nil, err
	}
	var out []gdi.PropertyType
	for _, x := range s.conj.props {
		if p := s.db.ptypeHandle(x.ptype); !s.db.propCondStale(x) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// PropertyConditions returns the conditions on p that are not stale.
func (s *subconstraint) PropertyConditions(p gdi.PropertyType) ([]gdi.PropertyCondition, error) {
	defer s.db.mu.Unlock()
	if err := s.lock(false); err != nil {
		return nil, err
	}
	n, _, err := s.db.ptypeNumber(p)
	if err != nil {
		return nil, err
	}
	var out []gdi.PropertyCondition
	for _, x := range s.conj.props {
		if x.ptype == n && !s.db.propCondStale(x) {
			out = append(out, gdi.PropertyCondition{PropertyType: p, Op: x.op, Value: x.value})
		}
	}
	return out, nil
}

// IsStale reports whether the subconstraint is stale.
func (s *subconstraint) IsStale() (bool, error) {
	defer s.db.mu.Unlock()
	if err := s.lock(false); err != nil {
		return false, err
	}
	return s.db.conjunctionStale(s.conj), nil
}

// Free releases the subconstraint.
func (s *subconstraint) Free() error {
	defer s.db.mu.Unlock()
	if err := s.lock(false); err != nil {
		return err
	}
	s.freed = true
	s.db.subconstraints = slices.DeleteFunc(s.db.subconstraints, func(x *subconstraint) bool { return x == s })
	return nil
}
