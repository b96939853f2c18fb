package catalog

import (
	"slices"
	"sync/atomic"

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
// caller holds cat.mu.
func (cat *Catalog) staleLabelLocked(c labelCond) bool {
	if c.label < gdi.FirstUserID {
		return false
	}
	m := cat.labels[c.label]
	return m == nil || m.freed
}

func (cat *Catalog) stalePropLocked(c propCond) bool {
	if c.ptype < gdi.FirstUserID {
		return false
	}
	m := cat.ptypes[c.ptype]
	return m == nil || m.freed || m.generation != c.generation
}

func (cat *Catalog) staleLocked(c conditions) bool {
	return slices.ContainsFunc(c.labels, cat.staleLabelLocked) || slices.ContainsFunc(c.props, cat.stalePropLocked)
}

// conjunctionLocked describes c as a gdi.Conjunction with this rank's
// handles.
func (cat *Catalog) conjunctionLocked(c conditions) gdi.Conjunction {
	var out gdi.Conjunction
	for _, lc := range c.labels {
		out.Labels = append(out.Labels, gdi.LabelCondition{Label: cat.LabelHandle(lc.label), Op: lc.op})
	}
	for _, pc := range c.props {
		out.Properties = append(out.Properties, gdi.PropertyCondition{PropertyType: cat.PtypeHandle(pc.ptype), Op: pc.op, Value: pc.value})
	}
	return out
}

// Subconstraint is a conjunction of conditions, owned by one rank.
type Subconstraint struct {
	cat   *Catalog
	freed bool // guarded by cat.mu
	conds conditions
}

var _ gdi.Subconstraint = (*Subconstraint)(nil)

// CreateSubconstraint returns an empty subconstraint.
func (cat *Catalog) CreateSubconstraint() (gdi.Subconstraint, error) {
	cat.mu.Lock()
	defer cat.mu.Unlock()
	if cat.freed {
		return nil, ErrFreedDB()
	}
	return cat.newSubconstraintLocked(conditions{}), nil
}

func (cat *Catalog) newSubconstraintLocked(c conditions) *Subconstraint {
	s := &Subconstraint{cat: cat, conds: c}
	cat.subconstraints = append(cat.subconstraints, s)
	return s
}

// validLocked returns ErrSubconstraint for a freed subconstraint. The
// caller holds cat.mu.
func (s *Subconstraint) validLocked() error {
	if s.freed || s.cat.freed {
		return gdi.Errorf(gdi.ErrSubconstraint, "subconstraint freed")
	}
	return nil
}

// AddLabelCondition adds the condition (l, op).
func (s *Subconstraint) AddLabelCondition(l gdi.Label, op gdi.Op) error {
	cat := s.cat
	cat.mu.Lock()
	defer cat.mu.Unlock()
	if err := s.validLocked(); err != nil {
		return err
	}
	if cat.staleLocked(s.conds) {
		return gdi.Errorf(gdi.ErrStale, "subconstraint is stale")
	}
	n, err := cat.labelNumLocked(l, true)
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
	cat := s.cat
	cat.mu.Lock()
	defer cat.mu.Unlock()
	if err := s.validLocked(); err != nil {
		return err
	}
	if cat.staleLocked(s.conds) {
		return gdi.Errorf(gdi.ErrStale, "subconstraint is stale")
	}
	n, info, err := cat.ptypeLocked(p)
	if err != nil {
		return err
	}
	if err := (gdi.PropertyCondition{PropertyType: p, Op: op, Value: v}).Check(info); err != nil {
		return err
	}
	gen := 0
	if m := cat.ptypes[n]; m != nil {
		gen = m.generation
	}
	s.conds.props = append(s.conds.props, propCond{n, gen, op, v})
	return nil
}

// LabelConditions returns the label conditions that are not stale.
func (s *Subconstraint) LabelConditions() ([]gdi.LabelCondition, error) {
	cat := s.cat
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if err := s.validLocked(); err != nil {
		return nil, err
	}
	var out []gdi.LabelCondition
	for _, c := range s.conds.labels {
		if !cat.staleLabelLocked(c) {
			out = append(out, gdi.LabelCondition{Label: cat.LabelHandle(c.label), Op: c.op})
		}
	}
	return out, nil
}

// PropertyTypes returns the property types of the conditions that are not
// stale, each once.
func (s *Subconstraint) PropertyTypes() ([]gdi.PropertyType, error) {
	cat := s.cat
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if err := s.validLocked(); err != nil {
		return nil, err
	}
	var out []gdi.PropertyType
	for _, c := range s.conds.props {
		if h := cat.PtypeHandle(c.ptype); !cat.stalePropLocked(c) && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out, nil
}

// PropertyConditions returns the conditions on p that are not stale.
func (s *Subconstraint) PropertyConditions(p gdi.PropertyType) ([]gdi.PropertyCondition, error) {
	cat := s.cat
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if err := s.validLocked(); err != nil {
		return nil, err
	}
	n, _, err := cat.ptypeLocked(p)
	if err != nil {
		return nil, err
	}
	var out []gdi.PropertyCondition
	for _, c := range s.conds.props {
		if c.ptype == n && !cat.stalePropLocked(c) {
			out = append(out, gdi.PropertyCondition{PropertyType: p, Op: c.op, Value: c.value})
		}
	}
	return out, nil
}

// IsStale reports whether a condition of the subconstraint is stale.
func (s *Subconstraint) IsStale() (bool, error) {
	cat := s.cat
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if err := s.validLocked(); err != nil {
		return false, err
	}
	return cat.staleLocked(s.conds), nil
}

// Free releases the subconstraint.
func (s *Subconstraint) Free() error {
	cat := s.cat
	cat.mu.Lock()
	defer cat.mu.Unlock()
	if err := s.validLocked(); err != nil {
		return err
	}
	s.freed = true
	cat.subconstraints = removeItem(cat.subconstraints, s)
	return nil
}

// Constraint is a disjunction of subconstraints, owned by one rank. It
// holds copies of the subconstraints added to it.
type Constraint struct {
	cat   *Catalog
	freed bool // guarded by cat.mu
	subs  []conditions
	// filter is what Filter last returned and the view it was made under.
	// The formula and its staleness change only with the metadata, which
	// publishes a new view, or with the constraint: AddSubconstraint and
	// Free drop it. Edge queries filter by a constraint each; this spares
	// them cat.mu and building the formula again.
	filter atomic.Pointer[filterCache]
}

type filterCache struct {
	v   *view
	dnf gdi.DNF
}

var _ gdi.Constraint = (*Constraint)(nil)

// CreateConstraint returns a constraint without subconstraints.
func (cat *Catalog) CreateConstraint() (gdi.Constraint, error) {
	cat.mu.Lock()
	defer cat.mu.Unlock()
	if cat.freed {
		return nil, ErrFreedDB()
	}
	c := &Constraint{cat: cat}
	cat.constraints = append(cat.constraints, c)
	return c, nil
}

func (c *Constraint) validLocked() error {
	if c.freed || c.cat.freed {
		return gdi.Errorf(gdi.ErrConstraint, "constraint freed")
	}
	return nil
}

func (c *Constraint) staleLocked() bool {
	return slices.ContainsFunc(c.subs, c.cat.staleLocked)
}

// AddSubconstraint adds a copy of s.
func (c *Constraint) AddSubconstraint(s gdi.Subconstraint) error {
	cat := c.cat
	cat.mu.Lock()
	defer cat.mu.Unlock()
	if err := c.validLocked(); err != nil {
		return err
	}
	if s == nil {
		return gdi.Errorf(gdi.ErrSubconstraint, "nil subconstraint")
	}
	sub, ok := s.(*Subconstraint)
	if !ok || sub == nil || sub.cat != cat {
		return gdi.Errorf(gdi.ErrObjectMismatch, "subconstraint of another database or rank")
	}
	if err := sub.validLocked(); err != nil {
		return err
	}
	if c.staleLocked() || cat.staleLocked(sub.conds) {
		return gdi.Errorf(gdi.ErrStale, "stale constraint or subconstraint")
	}
	c.subs = append(c.subs, sub.conds.clone())
	c.filter.Store(nil)
	return nil
}

// Subconstraints returns new copies of the subconstraints.
func (c *Constraint) Subconstraints() ([]gdi.Subconstraint, error) {
	cat := c.cat
	cat.mu.Lock()
	defer cat.mu.Unlock()
	if err := c.validLocked(); err != nil {
		return nil, err
	}
	out := make([]gdi.Subconstraint, len(c.subs))
	for i, s := range c.subs {
		out[i] = cat.newSubconstraintLocked(s.clone())
	}
	return out, nil
}

// IsStale reports whether a subconstraint of c is stale.
func (c *Constraint) IsStale() (bool, error) {
	cat := c.cat
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if err := c.validLocked(); err != nil {
		return false, err
	}
	return c.staleLocked(), nil
}

// Free releases the constraint.
func (c *Constraint) Free() error {
	cat := c.cat
	cat.mu.Lock()
	defer cat.mu.Unlock()
	if err := c.validLocked(); err != nil {
		return err
	}
	c.freed = true
	c.filter.Store(nil)
	cat.constraints = removeItem(cat.constraints, c)
	return nil
}

// Filter checks a constraint argument of a query and returns it as a
// formula; nil means no filter. ErrConstraint for a freed constraint,
// ErrObjectMismatch for one of another database, ErrStale for a stale one.
// The formula may be shared with other calls: callers must not change it.
func (cat *Catalog) Filter(c gdi.Constraint) (gdi.DNF, bool, error) {
	if c == nil {
		return nil, false, nil
	}
	cc, ok := c.(*Constraint)
	if !ok || cc == nil {
		return nil, false, gdi.Errorf(gdi.ErrObjectMismatch, "constraint of another backend")
	}
	if cc.cat != cat {
		return nil, false, gdi.Errorf(gdi.ErrObjectMismatch, "constraint of another database or rank")
	}
	if f := cc.filter.Load(); f != nil && f.v == cat.view.Load() {
		return f.dnf, true, nil
	}
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if err := cc.validLocked(); err != nil {
		return nil, false, err
	}
	if cc.staleLocked() {
		return nil, false, gdi.Errorf(gdi.ErrStale, "stale constraint")
	}
	dnf := make(gdi.DNF, 0, len(cc.subs))
	for _, s := range cc.subs {
		dnf = append(dnf, cat.conjunctionLocked(s))
	}
	// The view cannot change while cat.mu is held.
	cc.filter.Store(&filterCache{v: cat.view.Load(), dnf: dnf})
	return dnf, true, nil
}
