package gdirma

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// labelCond and propCond are conditions as stored: by object number, with
// the generation of the property type at the time the condition was made.
type labelCond struct {
	label uint32
	op    gdi.Op
}

type propCond struct {
	ptype      uint32
	generation int
	op         gdi.Op
	value      gdi.Value
}

// conditions is the content of a subconstraint.
type conditions struct {
	labels []labelCond
	props  []propCond
}

func (c conditions) clone() conditions {
	return conditions{slices.Clone(c.labels), slices.Clone(c.props)}
}

// staleLabelLocked and stalePropLocked tell whether a condition is stale:
// its label was freed, or its property type freed or updated since. The
// caller holds db.mu.
func (db *Database) staleLabelLocked(c labelCond) bool {
	if c.label < gdi.FirstUserID {
		return false
	}
	m := db.labels[c.label]
	return m == nil || m.freed
}

func (db *Database) stalePropLocked(c propCond) bool {
	if c.ptype < gdi.FirstUserID {
		return false
	}
	m := db.ptypes[c.ptype]
	return m == nil || m.freed || m.generation != c.generation
}

func (db *Database) staleLocked(c conditions) bool {
	return slices.ContainsFunc(c.labels, db.staleLabelLocked) || slices.ContainsFunc(c.props, db.stalePropLocked)
}

// conjunctionLocked describes c as a gdi.Conjunction with this rank's
// handles.
func (db *Database) conjunctionLocked(c conditions) gdi.Conjunction {
	var out gdi.Conjunction
	for _, lc := range c.labels {
		out.Labels = append(out.Labels, gdi.LabelCondition{Label: db.labelHandle(lc.label), Op: lc.op})
	}
	for _, pc := range c.props {
		out.Properties = append(out.Properties, gdi.PropertyCondition{PropertyType: db.ptypeHandle(pc.ptype), Op: pc.op, Value: pc.value})
	}
	return out
}

// Subconstraint is a conjunction of conditions, owned by one rank.
type Subconstraint struct {
	db    *Database
	freed bool // guarded by db.mu
	conds conditions
}

var _ gdi.Subconstraint = (*Subconstraint)(nil)

// CreateSubconstraint returns an empty subconstraint.
func (db *Database) CreateSubconstraint() (gdi.Subconstraint, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.freed {
		return nil, errFreedDB()
	}
	return db.newSubconstraintLocked(conditions{}), nil
}

func (db *Database) newSubconstraintLocked(c conditions) *Subconstraint {
	s := &Subconstraint{db: db, conds: c}
	db.subconstraints = append(db.subconstraints, s)
	return s
}

// validLocked returns ErrSubconstraint for a freed subconstraint. The
// caller holds db.mu.
func (s *Subconstraint) validLocked() error {
	if s.freed || s.db.freed {
		return gdi.Errorf(gdi.ErrSubconstraint, "subconstraint freed")
	}
	return nil
}

// AddLabelCondition adds the condition (l, op).
func (s *Subconstraint) AddLabelCondition(l gdi.Label, op gdi.Op) error {
	db := s.db
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := s.validLocked(); err != nil {
		return err
	}
	if db.staleLocked(s.conds) {
		return gdi.Errorf(gdi.ErrStale, "subconstraint is stale")
	}
	n, err := db.labelNumLocked(l, true)
	if err != nil {
		return err
	}
	if err := (gdi.LabelCondition{Label: l, Op: op}).Check(); err != nil {
		return err
	}
	s.conds.labels = append(s.conds.labels, labelCond{n, op})
	return nil
}

// AddPropertyCondition adds the condition (p, op, v).
func (s *Subconstraint) AddPropertyCondition(p gdi.PropertyType, op gdi.Op, v gdi.Value) error {
	db := s.db
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := s.validLocked(); err != nil {
		return err
	}
	if db.staleLocked(s.conds) {
		return gdi.Errorf(gdi.ErrStale, "subconstraint is stale")
	}
	n, info, err := db.ptypeLocked(p)
	if err != nil {
		return err
	}
	if err := (gdi.PropertyCondition{PropertyType: p, Op: op, Value: v}).Check(info); err != nil {
		return err
	}
	gen := 0
	if m := db.ptypes[n]; m != nil {
		gen = m.generation
	}
	s.conds.props = append(s.conds.props, propCond{n, gen, op, v})
	return nil
}

// LabelConditions returns the label conditions that are not stale.
func (s *Subconstraint) LabelConditions() ([]gdi.LabelCondition, error) {
	db := s.db
	db.mu.RLock()
	defer db.mu.RUnlock()
	if err := s.validLocked(); err != nil {
		return nil, err
	}
	var out []gdi.LabelCondition
	for _, c := range s.conds.labels {
		if !db.staleLabelLocked(c) {
			out = append(out, gdi.LabelCondition{Label: db.labelHandle(c.label), Op: c.op})
		}
	}
	return out, nil
}

// PropertyTypes returns the property types of the conditions that are not
// stale, each once.
func (s *Subconstraint) PropertyTypes() ([]gdi.PropertyType, error) {
	db := s.db
	db.mu.RLock()
	defer db.mu.RUnlock()
	if err := s.validLocked(); err != nil {
		return nil, err
	}
	var out []gdi.PropertyType
	for _, c := range s.conds.props {
		if h := db.ptypeHandle(c.ptype); !db.stalePropLocked(c) && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out, nil
}

// PropertyConditions returns the conditions on p that are not stale.
func (s *Subconstraint) PropertyConditions(p gdi.PropertyType) ([]gdi.PropertyCondition, error) {
	db := s.db
	db.mu.RLock()
	defer db.mu.RUnlock()
	if err := s.validLocked(); err != nil {
		return nil, err
	}
	n, _, err := db.ptypeLocked(p)
	if err != nil {
		return nil, err
	}
	var out []gdi.PropertyCondition
	for _, c := range s.conds.props {
		if c.ptype == n && !db.stalePropLocked(c) {
			out = append(out, gdi.PropertyCondition{PropertyType: p, Op: c.op, Value: c.value})
		}
	}
	return out, nil
}

// IsStale reports whether a condition of the subconstraint is stale.
func (s *Subconstraint) IsStale() (bool, error) {
	db := s.db
	db.mu.RLock()
	defer db.mu.RUnlock()
	if err := s.validLocked(); err != nil {
		return false, err
	}
	return db.staleLocked(s.conds), nil
}

// Free releases the subconstraint.
func (s *Subconstraint) Free() error {
	db := s.db
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := s.validLocked(); err != nil {
		return err
	}
	s.freed = true
	db.subconstraints = removeItem(db.subconstraints, s)
	return nil
}

// Constraint is a disjunction of subconstraints, owned by one rank. It
// holds copies of the subconstraints added to it.
type Constraint struct {
	db    *Database
	freed bool // guarded by db.mu
	subs  []conditions
}

var _ gdi.Constraint = (*Constraint)(nil)

// CreateConstraint returns a constraint without subconstraints.
func (db *Database) CreateConstraint() (gdi.Constraint, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.freed {
		return nil, errFreedDB()
	}
	c := &Constraint{db: db}
	db.constraints = append(db.constraints, c)
	return c, nil
}

func (c *Constraint) validLocked() error {
	if c.freed || c.db.freed {
		return gdi.Errorf(gdi.ErrConstraint, "constraint freed")
	}
	return nil
}

func (c *Constraint) staleLocked() bool {
	return slices.ContainsFunc(c.subs, c.db.staleLocked)
}

// AddSubconstraint adds a copy of s.
func (c *Constraint) AddSubconstraint(s gdi.Subconstraint) error {
	db := c.db
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := c.validLocked(); err != nil {
		return err
	}
	if s == nil {
		return gdi.Errorf(gdi.ErrSubconstraint, "nil subconstraint")
	}
	sub, ok := s.(*Subconstraint)
	if !ok || sub == nil || sub.db != db {
		return gdi.Errorf(gdi.ErrObjectMismatch, "subconstraint of another database or rank")
	}
	if err := sub.validLocked(); err != nil {
		return err
	}
	if c.staleLocked() || db.staleLocked(sub.conds) {
		return gdi.Errorf(gdi.ErrStale, "stale constraint or subconstraint")
	}
	c.subs = append(c.subs, sub.conds.clone())
	return nil
}

// Subconstraints returns new copies of the subconstraints.
func (c *Constraint) Subconstraints() ([]gdi.Subconstraint, error) {
	db := c.db
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := c.validLocked(); err != nil {
		return nil, err
	}
	out := make([]gdi.Subconstraint, len(c.subs))
	for i, s := range c.subs {
		out[i] = db.newSubconstraintLocked(s.clone())
	}
	return out, nil
}

// IsStale reports whether a subconstraint of c is stale.
func (c *Constraint) IsStale() (bool, error) {
	db := c.db
	db.mu.RLock()
	defer db.mu.RUnlock()
	if err := c.validLocked(); err != nil {
		return false, err
	}
	return c.staleLocked(), nil
}

// Free releases the constraint.
func (c *Constraint) Free() error {
	db := c.db
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := c.validLocked(); err != nil {
		return err
	}
	c.freed = true
	db.constraints = removeItem(db.constraints, c)
	return nil
}

// filter checks a constraint argument of a query and returns it as a
// formula; nil means no filter. ErrConstraint for a freed constraint,
// ErrObjectMismatch for one of another database, ErrStale for a stale one.
func (db *Database) filter(c gdi.Constraint) (gdi.DNF, bool, error) {
	if c == nil {
		return nil, false, nil
	}
	cc, ok := c.(*Constraint)
	if !ok || cc == nil {
		return nil, false, gdi.Errorf(gdi.ErrObjectMismatch, "constraint of another backend")
	}
	if cc.db != db {
		return nil, false, gdi.Errorf(gdi.ErrObjectMismatch, "constraint of another database or rank")
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	if err := cc.validLocked(); err != nil {
		return nil, false, err
	}
	if cc.staleLocked() {
		return nil, false, gdi.Errorf(gdi.ErrStale, "stale constraint")
	}
	dnf := gdi.DNF{}
	for _, s := range cc.subs {
		dnf = append(dnf, db.conjunctionLocked(s))
	}
	return dnf, true, nil
}
