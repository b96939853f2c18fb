package check

// Kind is what a variable is bound to, as the planner needs to know it.
type Kind int

// Kinds of variables.
const (
	// KindValue is any value that is not statically a graph entity: a
	// number, a string, a list, a map, … or a value of unknown type (which
	// may be a node at run time); Var.Type tells what is known.
	KindValue Kind = iota
	KindNode
	KindRelationship
	// KindRelationshipList is the list of relationships bound by a
	// variable-length relationship pattern -[r*]->.
	KindRelationshipList
	KindPath
)

var kindNames = [...]string{"value", "node", "relationship", "relationship list", "path"}

func (k Kind) String() string { return kindNames[k] }

// kindOf is the kind of a value of static type t that was not bound by a
// pattern.
func kindOf(t Type) Kind {
	switch t &^ TNull {
	case TNode:
		return KindNode
	case TRelationship:
		return KindRelationship
	case TPath:
		return KindPath
	}
	return KindValue
}

// Var is a variable in scope.
type Var struct {
	Name string
	Kind Kind
	Type Type // static type; TNode for KindNode, TList for KindRelationshipList, …
}

// scope is a set of variables in binding order. A scope with a parent is
// the local scope of a list comprehension: lookups fall back to the parent.
type scope struct {
	vars   []Var
	index  map[string]int
	parent *scope
}

func newScope(parent *scope) *scope {
	return &scope{index: map[string]int{}, parent: parent}
}

// lookup finds name in s or its parents.
func (s *scope) lookup(name string) (Var, bool) {
	for ; s != nil; s = s.parent {
		if i, ok := s.index[name]; ok {
			return s.vars[i], true
		}
	}
	return Var{}, false
}

// bind adds v to s, replacing a variable of the same name.
func (s *scope) bind(v Var) {
	if i, ok := s.index[v.Name]; ok {
		s.vars[i] = v
		return
	}
	s.index[v.Name] = len(s.vars)
	s.vars = append(s.vars, v)
}

// list returns a copy of the variables of s (not of its parents).
func (s *scope) list() []Var {
	return append([]Var(nil), s.vars...)
}

// clone returns a copy of s with the same parent.
func (s *scope) clone() *scope {
	c := newScope(s.parent)
	for _, v := range s.vars {
		c.bind(v)
	}
	return c
}
