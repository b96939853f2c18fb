package refdb

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// constraint is a disjunction of copies of subconstraints, owned by one
// rank. The database's mu guards it.
type constraint struct {
	db    *Database
	freed bool
	subs  []conjunction
}

// CreateConstraint returns a new constraint without subconstraints.
func (db *Database) CreateConstraint() (gdi.Constraint, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := db.alive("CreateConstraint"); err != nil {
		return nil, err
	}
	c := &constraint{db: db}
	db.constraints = append(db.constraints, c)
	return c, nil
}

// Constraints returns the constraints of this rank.
func (db *Database) Constraints() ([]gdi.Constraint, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := db.alive("Constraints"); err != nil {
		return nil, err
	}
	out := make([]gdi.Constraint, len(db.constraints))
	for i, c := range db.constraints {
		out[i] = c
	}
	return out, nil
}

// lock locks the database's mu and checks that c may be used. The caller
// unlocks mu.
func (c *constraint) lock() error {
	c.db.mu.Lock()
	if c.freed || c.db.freed {
		return gdi.Errorf(gdi.ErrConstraint, "the constraint was freed")
	}
	return nil
}

func (c *constraint) stale() bool { return slices.ContainsFunc(c.subs, c.db.conjunctionStale) }

// AddSubconstraint adds a copy of s.
func (c *constraint) AddSubconstraint(s gdi.Subconstraint) error {
	sub, ok := s.(*subconstraint)
	if !ok || sub == nil {
		return gdi.Errorf(gdi.ErrSubconstraint, "%T is no subconstraint of refdb", s)
	}
	if sub.db != c.db {
		return gdi.Errorf(gdi.ErrObjectMismatch, "the subconstraint belongs to another database or rank")
	}
	defer c.db.mu.Unlock()
	if err := c.lock(); err != nil {
		return err
	}
	switch {
	case sub.freed:
		return gdi.Errorf(gdi.ErrSubconstraint, "the subconstraint was freed")
	case c.stale():
		return gdi.Errorf(gdi.ErrStale, "the constraint is stale")
	case c.db.conjunctionStale(sub.conj):
		return gdi.Errorf(gdi.ErrStale, "the subconstraint is stale")
	}
	c.subs = append(c.subs, sub.conj.clone())
	return nil
}

// Subconstraints returns new copies of the subconstraints.
func (c *constraint) Subconstraints() ([]gdi.Subconstraint, error) {
	defer c.db.mu.Unlock()
	if err := c.lock(); err != nil {
		return nil, err
	}
	out := make([]gdi.Subconstraint, len(c.subs))
	for i, x := range c.subs {
		out[i] = c.db.newSubconstraint(x.clone())
	}
	return out, nil
}

// IsStale reports whether the constraint is stale.
func (c *constraint) IsStale() (bool, error) {
	defer c.db.mu.Unlock()
	if err := c.lock(); err != nil {
		return false, err
	}
	return c.stale(), nil
}

// Free releases the constraint.
func (c *constraint) Free() error {
	defer c.db.mu.Unlock()
	if err := c.lock(); err != nil {
		return err
	}
	c.freed = true
	c.db.constraints = slices.DeleteFunc(c.db.constraints, func(x *constraint) bool { return x == c })
	return nil
}

// filter returns the formula of a constraint argument of a query: nil for
// no constraint (keep everything), ErrConstraint for a freed one,
// ErrObjectMismatch for one of another database, ErrStale for a stale one.
// The caller holds mu.
func (db *Database) filter(c gdi.Constraint) (*gdi.DNF, error) {
	if c == nil {
		return nil, nil
	}
	x, ok := c.(*constraint)
	switch {
	case !ok || x == nil:
		return nil, gdi.Errorf(gdi.ErrConstraint, "%T is no constraint of refdb", c)
	case x.db != db:
		return nil, gdi.Errorf(gdi.ErrObjectMismatch, "the constraint belongs to another database or rank")
	case x.freed || db.freed:
		return nil, gdi.Errorf(gdi.ErrConstraint, "the constraint was freed")
	case x.stale():
		return nil, gdi.Errorf(gdi.ErrStale, "the constraint is stale")
	}
	d := db.dnf(x.subs)
	return &d, nil
}
