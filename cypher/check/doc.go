// Package check is the semantic checker of the openCypher engine of GDI
// (issue 36). It takes a query that cypher/parse accepted, walks it with
// scopes and static types, and either returns an *Info for the planner or
// the first semantic error, as a *parse.Error of Kind parse.SyntaxError (or
// parse.TypeError, see Types below) whose Detail is the openCypher TCK's
// name for it (UndefinedVariable, VariableTypeConflict, …). It depends on cypher/parse and the standard
// library only.
//
// # Scopes
//
// Each single query is checked clause by clause, each clause in the scope
// the previous ones left, starting empty:
//
//   - MATCH and OPTIONAL MATCH bind the variables of their pattern (nodes,
//     relationships, lists of relationships for -[r*]-, paths for p = …);
//     their WHERE sees them. UNWIND e AS v and CREATE bind too.
//   - WITH and RETURN project: after them only their columns are in scope
//     (WITH * keeps every variable, RETURN * returns them, sorted by name;
//     WITH * with no variable in scope passes the rows on, with no column).
//     The items are evaluated in the incoming scope, so an item cannot use
//     an alias of the same projection.
//   - ORDER BY, and the WHERE of a WITH, see the columns and, unless the
//     projection aggregates or is DISTINCT, the incoming variables too (a
//     column hides a variable of the same name). An expression equal to a
//     column's expression stands for the column, so RETURN DISTINCT n.name
//     ORDER BY n.name is valid while ORDER BY n.age is not.
//   - SKIP and LIMIT see no variable.
//   - A list comprehension [x IN l WHERE p | e] binds x for p and e only,
//     and a list predicate all(x IN l WHERE p) (any, none, single) for p.
//   - The parts of a UNION are checked apart, each from an empty scope.
//
// # Static types
//
// A Type is the set of runtime types an expression may have: literals,
// variables bound by patterns, operators and the results of known
// functions have a known type, the rest (parameters, properties, …) is
// TAny. A type rule rejects an expression only when none of its possible
// types is acceptable, and null is acceptable everywhere, so the checker
// never rejects what could be valid at run time.
//
// # Rules
//
// Variables:
//   - UndefinedVariable: a variable that is not in scope, wherever it is used.
//   - VariableTypeConflict: a variable used in a pattern as something it is
//     not bound to: a node as a relationship, a path as a node, a value (WITH
//     1 AS n) as a node, a list of relationships as a single one, ….
//   - VariableAlreadyBound: UNWIND … AS v or a path variable p = … for a v or
//     p already in scope; in CREATE, a relationship variable already in scope,
//     or a bound node variable that stands alone or has labels or properties
//     (CREATE only connects existing nodes).
//   - RelationshipUniquenessViolation: the same relationship variable twice
//     in one MATCH pattern.
//
// Projections:
//   - NoExpressionAlias: a WITH item that is not a variable needs AS. It is
//     checked after the projection's expressions, ORDER BY, SKIP and LIMIT,
//     whose errors come first.
//   - ColumnNameConflict: two columns of a WITH or RETURN with the same name.
//   - NoVariablesInScope: RETURN * with no variable in scope.
//   - DifferentColumnsInUnion: the parts of a UNION return different column
//     names; InvalidClauseComposition: UNION mixed with UNION ALL.
//
// Aggregation (a projection aggregates when an item calls an aggregating
// function; its other items are the grouping keys):
//   - InvalidAggregation: an aggregating function outside the items of WITH
//     and RETURN, except in the ORDER BY of an aggregating projection: in
//     WHERE, SET, a pattern, a list comprehension's body, ….
//   - NestedAggregation: an aggregating function inside another.
//   - AmbiguousAggregationExpression: an expression mixing aggregation with a
//     variable outside the aggregation that is not a grouping key. Only keys
//     that are variables or property accesses can be referred to:
//     RETURN n.x, n.x + count(*) is valid, RETURN n.x + count(*) is not.
//   - NonConstantExpression: a non-deterministic function (rand) inside an
//     aggregation; SKIP or LIMIT referring to a variable.
//   - NegativeIntegerArgument: SKIP or LIMIT with a negative literal.
//
// Patterns and updates:
//   - InvalidParameterUse: MATCH (n $param) or -[r $param]-: a parameter
//     as the property map of a MATCH pattern (CREATE allows it).
//   - NoSingleRelationshipType, RequiresDirectedRelationship,
//     CreatingVarLength: CREATE makes relationships with one type, one
//     direction and one hop.
//   - InvalidDelete: DELETE n:Label (REMOVE removes labels).
//
// Types (InvalidArgumentType), when statically known: an operand of NOT,
// AND, OR, XOR or a WHERE that cannot be a boolean; an operand of - * /
// that cannot be a number (nor a temporal value or a duration), of % ^
// that cannot be a number; IN on a non-list; a property access on a path
// or on the relationships of a variable-length relationship (a variable
// its pattern bound); a list index
// that is not an integer, a map key that is not a string; SKIP or LIMIT not
// an integer; DELETE of anything but a node, a relationship or a path; SET
// or REMOVE of labels on a non-node and of properties on a non-entity; the
// first argument of a function of the wrong kind (labels of a
// relationship, type of a node, properties of a number, length of a node,
// …). InvalidArgumentExpression: exists() of anything but a property.
// A property access on any other value known to have no properties (a
// number, a boolean, a string, a list, …) is InvalidArgumentType too, but
// of Kind parse.TypeError: the TCK raises it as a TypeError at compile time.
// The variable of a list comprehension or list predicate over a list
// literal has the types of the literal's elements (Any for []), so that
// these rules apply to it too.
//
// Functions: UnknownFunction for a name not in Config.Functions (by
// default Builtins, the functions of openCypher 9), case-insensitively.
//
// # Info
//
// Info gives, for every clause, the variables in scope after it with their
// Kind (node, relationship, relationship list, path, value) and Type, and
// for every WITH and RETURN its columns, whether it aggregates and which
// columns are grouping keys.
package check
