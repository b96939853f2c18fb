package parse

// Pattern is a comma-separated list of path patterns, as in
// MATCH (a)-->(b), (c) or CREATE (a), (b).
type Pattern struct {
	Pos
	Parts []*PatternPart
}

// PatternPart is one path pattern, optionally named: p = (a)-[r]->(b).
// It alternates nodes and relationships: len(Nodes) == len(Rels)+1, and
// Rels[i] connects Nodes[i] (on its left in the source) to Nodes[i+1].
type PatternPart struct {
	Pos
	Var   *Variable // path variable, nil if the path is not named
	Nodes []*NodePattern
	Rels  []*RelPattern
}

// NodePattern is (Var:Label1:Label2 Properties). Every field is optional.
// Properties is nil, a *MapLit, or a *Parameter (the grammar allows a
// parameter, e.g. CREATE (n $props); MATCH (n $p) is rejected by the checker).
type NodePattern struct {
	Pos
	Var        *Variable
	Labels     []string
	Properties Expr
}

// Direction is the arrow shape of a relationship pattern.
type Direction int

// Directions. Undirected and BothArrows both match either direction in MATCH;
// CREATE requires LeftToRight or RightToLeft.
const (
	Undirected  Direction = iota // (a)-[]-(b)
	LeftToRight                  // (a)-[]->(b): from Nodes[i] to Nodes[i+1]
	RightToLeft                  // (a)<-[]-(b): from Nodes[i+1] to Nodes[i]
	BothArrows                   // (a)<-[]->(b)
)

// String returns the arrow of the direction without a detail, e.g. "-->".
func (d Direction) String() string {
	switch d {
	case LeftToRight:
		return "-->"
	case RightToLeft:
		return "<--"
	case BothArrows:
		return "<-->"
	default:
		return "--"
	}
}

// RelPattern is -[Var:T1|T2 *Min..Max Properties]- with a Direction. Types
// are alternatives (any of them matches); nil means any type. Length is nil
// for a single-hop relationship and non-nil for a variable-length one.
// Properties is nil, a *MapLit or a *Parameter, as for NodePattern.
type RelPattern struct {
	Pos
	Var        *Variable
	Types      []string
	Direction  Direction
	Length     *Range
	Properties Expr
}

// Range is the variable-length part of a relationship pattern:
//
//   - Min == nil, Max == nil
//     *2       Min == Max == 2
//     *1..3    Min == 1, Max == 3
//     *..3     Min == nil, Max == 3
//     *2..     Min == 2, Max == nil
//
// A nil Min means the default lower bound 1, a nil Max means unbounded. The
// parser guarantees non-negative bounds; Min > Max is left to the checker.
type Range struct {
	Pos
	Min, Max *int64
}

// MinHops returns the lower bound, 1 when unspecified.
func (r *Range) MinHops() int64 {
	if r.Min == nil {
		return 1
	}
	return *r.Min
}

// MaxHops returns the upper bound, or -1 when unbounded.
func (r *Range) MaxHops() int64 {
	if r.Max == nil {
		return -1
	}
	return *r.Max
}
