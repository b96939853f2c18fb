package gdi

// Constraints are filters in disjunctive normal form. A Subconstraint is a
// conjunction of conditions on labels and properties; a Constraint is a
// disjunction of subconstraints. Constraint and Subconstraint are objects
// of the database (the database lists them and marks them stale), created
// and used locally on one rank. Conditions are described by the plain
// values LabelCondition and PropertyCondition, and the DNF type evaluates a
// whole formula, so that every backend filters identically.
//
// The model is static: conditions cannot be changed or removed once added.
// AddSubconstraint copies the subconstraint, so it may be freed afterwards;
// Constraint.Subconstraints returns fresh copies, which the caller frees.
//
// Staleness: when a label is freed, or a property type is freed or updated,
// every condition on it becomes stale, and so does each subconstraint that
// has such a condition and each constraint that has such a subconstraint.
// A stale constraint or subconstraint cannot be extended or used in a
// query (ErrStale), but can still be inspected; the listing methods return
// only the conditions that are not stale. There is no way to make a stale
// object fresh again: build a new one.

// LabelCondition is the condition "the object has Label" (Op Equal) or
// "the object does not have Label" (Op NotEqual). On LabelNone, "has"
// means "has no labels at all".
type LabelCondition struct {
	Label Label
	Op    Op
}

// Check returns ErrOp for an invalid Op and ErrOpDatatypeMismatch for an
// Op other than Equal and NotEqual. Backends check the handle themselves.
func (c LabelCondition) Check() error {
	if !c.Op.Valid() {
		return Errorf(ErrOp, "%v", c.Op)
	}
	if c.Op != Equal && c.Op != NotEqual {
		return Errorf(ErrOpDatatypeMismatch, "label conditions take only GDI_EQUAL and GDI_NOTEQUAL, not %v", c.Op)
	}
	return nil
}

// Eval evaluates the condition on an object with the given labels.
func (c LabelCondition) Eval(labels []Label) bool {
	has := containsHandle(labels, c.Label)
	if c.Label == LabelNone {
		has = len(labels) == 0
	}
	if c.Op == NotEqual {
		return !has
	}
	return has
}

// PropertyCondition is the condition "the object has a property of type
// PropertyType whose value v makes Compare(Op, v, Value) true".
type PropertyCondition struct {
	PropertyType PropertyType
	Op           Op
	Value        Value
}

// Check checks the condition against the description of its property type:
// ErrOp for an invalid Op, ErrOpDatatypeMismatch if Op is not defined for
// the datatype, and the errors of PropertyTypeInfo.CheckValue.
func (c PropertyCondition) Check(info PropertyTypeInfo) error {
	if !c.Op.Valid() {
		return Errorf(ErrOp, "%v", c.Op)
	}
	if !c.Op.Defined(info.Datatype) {
		return Errorf(ErrOpDatatypeMismatch, "%v is not defined for %v", c.Op, info.Datatype)
	}
	return info.CheckValue(c.Value)
}

// Eval evaluates the condition on the values of the object's properties of
// the condition's type.
func (c PropertyCondition) Eval(values []Value) (bool, error) {
	for _, v := range values {
		ok, err := Compare(c.Op, v, c.Value)
		if err != nil {
			return false, err
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

// Conjunction describes a subconstraint: it holds when all its conditions
// hold, so an empty Conjunction always holds.
type Conjunction struct {
	Labels     []LabelCondition
	Properties []PropertyCondition
}

// DNF describes a constraint: it holds when at least one of its
// conjunctions holds, so an empty DNF (a constraint without
// subconstraints) never holds. A nil Constraint passed to a query means no
// filtering at all, which is not the same as an empty one.
type DNF []Conjunction

// Object is what constraint evaluation needs to know about a vertex or
// edge.
type Object interface {
	// Labels returns the labels of the object.
	Labels() []Label
	// Values returns the values of the object's properties of type p.
	Values(p PropertyType) []Value
}

// Eval evaluates the conjunction on o, stopping at the first false
// condition.
func (c Conjunction) Eval(o Object) (bool, error) {
	if !c.labelsHold(o.Labels()) {
		return false, nil
	}
	for _, pc := range c.Properties {
		ok, err := pc.Eval(o.Values(pc.PropertyType))
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// labelsHold reports whether the label conditions hold on an object with
// the given labels.
func (c Conjunction) labelsHold(labels []Label) bool {
	for _, lc := range c.Labels {
		if !lc.Eval(labels) {
			return false
		}
	}
	return true
}

// Eval evaluates the formula on o, stopping at the first true
// conjunction.
func (d DNF) Eval(o Object) (bool, error) {
	for _, c := range d {
		ok, err := c.Eval(o)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// LabelsOnly reports whether the formula has no property conditions, so
// that EvalLabels can evaluate it.
func (d DNF) LabelsOnly() bool {
	for _, c := range d {
		if len(c.Properties) != 0 {
			return false
		}
	}
	return true
}

// EvalLabels evaluates a formula without property conditions (LabelsOnly)
// on an object with the given labels. It is Eval without the Object, for
// callers that know an object's labels and want no interface value per
// object.
func (d DNF) EvalLabels(labels []Label) bool {
	for _, c := range d {
		if c.labelsHold(labels) {
			return true
		}
	}
	return false
}

// Subconstraint is a conjunction of conditions, owned by one rank. All
// methods are local and must not be called concurrently on the same
// subconstraint. After Free every method returns ErrSubconstraint. A
// Subconstraint is an interface value implemented by a pointer type, hence
// comparable.
type Subconstraint interface {
	// AddLabelCondition adds the condition (l, op); see
	// LabelCondition.Check. Adding the same condition twice is allowed.
	// ErrStale if the subconstraint is stale.
	AddLabelCondition(l Label, op Op) error
	// AddPropertyCondition adds the condition (p, op, v); see
	// PropertyCondition.Check. ErrStale if the subconstraint is stale.
	AddPropertyCondition(p PropertyType, op Op, v Value) error

	// LabelConditions returns the label conditions that are not stale, in
	// the order added, duplicates included.
	LabelConditions() ([]LabelCondition, error)
	// PropertyTypes returns the property types of the property conditions
	// that are not stale, each once.
	PropertyTypes() ([]PropertyType, error)
	// PropertyConditions returns the property conditions on p, in the order
	// added, duplicates included.
	PropertyConditions(p PropertyType) ([]PropertyCondition, error)

	// IsStale reports whether the subconstraint is stale.
	IsStale() (bool, error)
	// Free releases the subconstraint. Copies held by constraints are not
	// affected.
	Free() error
}

// Constraint is a disjunction of subconstraints, owned by one rank. The
// rules of Subconstraint apply; after Free every method returns
// ErrConstraint.
type Constraint interface {
	// AddSubconstraint adds a copy of s. ErrStale if either is stale;
	// ErrObjectMismatch if s belongs to another database.
	AddSubconstraint(s Subconstraint) error
	// Subconstraints returns new copies of the subconstraints, in the order
	// added, duplicates included. The caller owns and frees them.
	Subconstraints() ([]Subconstraint, error)
	// IsStale reports whether the constraint is stale.
	IsStale() (bool, error)
	// Free releases the constraint.
	Free() error
}
