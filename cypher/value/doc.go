// Package value is the value model of the openCypher engine of GDI (issue
// 36) and the semantics of its expressions: the types of openCypher 9,
// three-valued logic, equality, equivalence, comparison, the sort order of
// ORDER BY, arithmetic, the predicates, list and map access, the scalar
// functions that need no graph, the aggregating functions, and printing in
// the TCK's result notation. It is pure Go with no dependency on storage or
// on the parser (cypher/parse): the executor evaluates an AST by calling
// it, passing operator names as the AST spells them (Binary, Unary,
// Comparison).
//
// # Values
//
// A Value (value.go) is one of null (the zero Value), Boolean, Integer
// (int64), Float (float64), String, List, Map (string keys; map.go), Node,
// Relationship or Path (graph.go). Nodes and relationships are references
// the engine fills in: a NodeID or RelID, opaque here, with the shapes of
// gdi.VertexUID and gdi.EdgeUID. Equality and order of graph elements are
// by identity; their labels, types and properties stay in the graph, and
// the engine reads them (n.k, labels(n)) and prints them (a Printer).
// Values are immutable and cheap: a Value is three words (a kind, a
// number, a pointer), so rows of them copy fast, and scalars, strings,
// lists and nodes live in it without allocation of their own.
//
// # Null
//
// Null means "unknown". Operators propagate it: 1 + null, null = null,
// null < 1, null IN [1] and NOT null are null; AND, OR and XOR follow
// three-valued logic (false AND null is false, true OR null is true). IS
// NULL, IS NOT NULL and coalesce are the ways to test for it. Functions
// return null for a null argument. Aggregates skip nulls (count(*) counts
// rows). WHERE keeps a row only when its predicate IsTrue.
//
// # Equality, comparability, equivalence, orderability
//
// These are the four relations of the openCypher CIP2016-06-14:
//
//   - Equality (=, <>; equal.go) is three-valued: null involved gives null,
//     1 = 1.0 is true, NaN = NaN is false, values of different types are
//     unequal, lists and maps compare element-wise with null making the
//     result null unless some pair is unequal.
//   - Comparability (< <= > >=; comparable.go) is three-valued too: numbers,
//     strings, booleans and lists compare among their own type; any other
//     pairing, null included, is null (1 < 'a' is null); NaN makes every
//     comparison false.
//   - Equivalence (equivalent.go) is the equality of DISTINCT, grouping and
//     UNION: two-valued, null equivalent to null and NaN to NaN. Key maps a
//     value to a string that is the same exactly for equivalent values.
//   - Orderability (order.go) is the total order of ORDER BY, min and max,
//     Compare. Compare(a, b) is 0 exactly when a and b are equivalent, and
//     it is negative where a < b is true.
//
// Across types, orderability sorts ascending
//
//	Map < Node < Relationship < List < Path < String < Boolean < Number < null
//
// with NaN after all other numbers, so null comes last ascending and first
// descending.
//
// # Errors
//
// Runtime errors are *Error values carrying the TCK's category and detail
// (error.go): TypeError for operands and arguments of the wrong type,
// ArgumentError for arguments out of their domain, ArithmeticError for
// Integer overflow and division by zero, SyntaxError for unknown functions
// and wrong numbers of arguments.
//
// # Files
//
// One concept per file: value.go, graph.go, map.go (the types); error.go;
// logic.go, number.go, equal.go, comparable.go, equivalent.go, order.go,
// arith.go, predicate.go, access.go, operator.go (the semantics);
// print.go; func*.go (Call and the scalar functions); aggregate*.go.
package value
