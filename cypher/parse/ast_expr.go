package parse

// Expr is an expression. The concrete types are:
//
//	*Variable, *Parameter,
//	*IntegerLit, *FloatLit, *StringLit, *BoolLit, *NullLit, *ListLit, *MapLit,
//	*PropertyAccess, *Index, *Slice, *LabelPredicate,
//	*Unary, *Binary, *Comparison, *IsNull,
//	*FunctionCall, *CountStar, *Case, *ListComprehension.
//
// Parentheses in the source leave no node: grouping is expressed by the
// shape of the tree.
type Expr interface {
	Node
	exprNode()
}

// Variable is a reference to a variable, e.g. n or `weird name`.
type Variable struct {
	Pos
	Name string // without back-quotes
}

// Parameter is $name or $0; Name is "name" or "0".
type Parameter struct {
	Pos
	Name string
}

// IntegerLit is an integer literal (decimal, hexadecimal 0x…, octal 0o…).
// A minus sign written directly before the number token is folded into the
// literal, so -5 is IntegerLit{Value: -5} and -9223372036854775808 is
// representable; -(5) and -5.x keep a *Unary.
type IntegerLit struct {
	Pos
	Value int64
}

// FloatLit is a floating-point literal such as 1.5, .5, 1e3 or -2.5e-3
// (a directly preceding minus is folded as for IntegerLit).
type FloatLit struct {
	Pos
	Value float64
}

// StringLit is a string literal; Value has the escapes decoded.
type StringLit struct {
	Pos
	Value string
}

// BoolLit is true or false.
type BoolLit struct {
	Pos
	Value bool
}

// NullLit is null.
type NullLit struct {
	Pos
}

// ListLit is [e1, e2, ...].
type ListLit struct {
	Pos
	Elems []Expr
}

// MapLit is {k1: e1, k2: e2, ...}; entries keep source order and duplicate
// keys are kept (rejecting them is left to the checker).
type MapLit struct {
	Pos
	Entries []*MapEntry
}

// MapEntry is one key: value pair of a MapLit.
type MapEntry struct {
	Pos          // position of the key
	Key   string // property key name, without back-quotes
	Value Expr
}

// PropertyAccess is X.Key, e.g. n.name.
type PropertyAccess struct {
	Pos
	X   Expr
	Key string
}

// Index is X[Index], list indexing or dynamic map access.
type Index struct {
	Pos
	X     Expr
	Index Expr
}

// Slice is X[From..To]; From and/or To may be nil (l[..2], l[1..], l[..]).
type Slice struct {
	Pos
	X        Expr
	From, To Expr
}

// LabelPredicate is X:L1:L2…, true when the node X has all the labels.
type LabelPredicate struct {
	Pos
	X      Expr
	Labels []string
}

// UnaryOp is the operator of a Unary.
type UnaryOp string

// Unary operators.
const (
	OpNot  UnaryOp = "NOT"
	OpNeg  UnaryOp = "-"
	OpPlus UnaryOp = "+"
)

// Unary is NOT X, -X or +X.
type Unary struct {
	Pos
	Op UnaryOp
	X  Expr
}

// BinaryOp is the operator of a Binary.
type BinaryOp string

// Binary operators, from lowest to highest precedence: OR; XOR; AND;
// IN, STARTS WITH, ENDS WITH, CONTAINS (between comparison and +/-);
// + and -; *, / and %; ^. All are left-associative, including ^.
const (
	OpOr         BinaryOp = "OR"
	OpXor        BinaryOp = "XOR"
	OpAnd        BinaryOp = "AND"
	OpIn         BinaryOp = "IN"
	OpStartsWith BinaryOp = "STARTS WITH"
	OpEndsWith   BinaryOp = "ENDS WITH"
	OpContains   BinaryOp = "CONTAINS"
	OpAdd        BinaryOp = "+"
	OpSub        BinaryOp = "-"
	OpMul        BinaryOp = "*"
	OpDiv        BinaryOp = "/"
	OpMod        BinaryOp = "%"
	OpPow        BinaryOp = "^"
)

// Binary is L Op R.
type Binary struct {
	Pos
	Op   BinaryOp
	L, R Expr
}

// CompareOp is a comparison operator.
type CompareOp string

// Comparison operators.
const (
	OpEq CompareOp = "="
	OpNe CompareOp = "<>"
	OpLt CompareOp = "<"
	OpLe CompareOp = "<="
	OpGt CompareOp = ">"
	OpGe CompareOp = ">="
)

// Comparison is a chain Operands[0] Ops[0] Operands[1] Ops[1] … with
// len(Operands) == len(Ops)+1 >= 2. As in openCypher, a < b <= c means
// a < b AND b <= c (with b evaluated once); a single comparison a = b is a
// chain of length one.
type Comparison struct {
	Pos
	Operands []Expr
	Ops      []CompareOp
}

// IsNull is X IS NULL, or X IS NOT NULL when Not is set.
type IsNull struct {
	Pos
	X   Expr
	Not bool
}

// FunctionCall is Name(Args…) or Name(DISTINCT Args…). Name keeps the case
// of the source and includes any namespace, e.g. "toUpper" or
// "date.truncate"; function names are case-insensitive in Cypher, so
// compare them with strings.EqualFold. count(*) is a *CountStar instead.
type FunctionCall struct {
	Pos
	Name     string
	Distinct bool
	Args     []Expr
}

// CountStar is count(*).
type CountStar struct {
	Pos
}

// Case is a CASE expression. With a Subject it is the simple form
// CASE Subject WHEN v THEN r … END, whose Whens compare Subject = When;
// without it is the generic form CASE WHEN cond THEN r … END. Else may be nil.
type Case struct {
	Pos
	Subject Expr
	Whens   []*CaseWhen
	Else    Expr
}

// CaseWhen is one WHEN … THEN … branch of a Case.
type CaseWhen struct {
	Pos
	When, Then Expr
}

// ListComprehension is [Var IN List WHERE Where | Map]; Where and Map may be
// nil. Var is a new variable scoped to Where and Map. With a Quantifier
// ("all", "any", "none" or "single") it is instead the list predicate
// Quantifier(Var IN List WHERE Where), which has a Where and no Map.
type ListComprehension struct {
	Pos
	Quantifier string
	Var        *Variable
	List       Expr
	Where      Expr
	Map        Expr
}

func (*Variable) exprNode()          {}
func (*Parameter) exprNode()         {}
func (*IntegerLit) exprNode()        {}
func (*FloatLit) exprNode()          {}
func (*StringLit) exprNode()         {}
func (*BoolLit) exprNode()           {}
func (*NullLit) exprNode()           {}
func (*ListLit) exprNode()           {}
func (*MapLit) exprNode()            {}
func (*PropertyAccess) exprNode()    {}
func (*Index) exprNode()             {}
func (*Slice) exprNode()             {}
func (*LabelPredicate) exprNode()    {}
func (*Unary) exprNode()             {}
func (*Binary) exprNode()            {}
func (*Comparison) exprNode()        {}
func (*IsNull) exprNode()            {}
func (*FunctionCall) exprNode()      {}
func (*CountStar) exprNode()         {}
func (*Case) exprNode()              {}
func (*ListComprehension) exprNode() {}
