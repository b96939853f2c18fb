// Package parse is the front end of the openCypher engine of GDI (issue 36):
// a lexer, an abstract syntax tree (AST) and a recursive-descent parser for a
// subset of openCypher 9, with precise errors, and a printer of a canonical
// form. It depends on the standard library only. Semantic checks (scoping,
// types, aggregation rules), planning and execution are separate stages
// written against the AST defined here.
//
// # Model
//
// Parse turns a query string into tokens (lexer.go) and the tokens into a
// *Query (parse_*.go):
//
//	Query         SingleQuery (UNION [ALL] SingleQuery)*
//	SingleQuery   Clause+                       (ast.go)
//	Clause        Match Unwind With Return Create Set Remove Delete (ast_clause.go)
//	Pattern       PatternPart, …: nodes and relationships (ast_pattern.go)
//	Expr          literals, variables, operators, calls, … (ast_expr.go)
//
// SplitStatements cuts a text of several statements at its semicolons
// with the same lexer, for programs that read statements from a file or a
// prompt; it reads on after a lexical error, which Parse then reports.
//
// Every node embeds a Pos (1-based line and rune column, byte offset) and has
// a String method printing canonical Cypher (see Format). Equal compares two
// trees ignoring positions and source text; for every query q that parses,
// Parse(Format(q)) is Equal to q.
//
// # The subset
//
//   - Clauses: MATCH and OPTIONAL MATCH … WHERE; UNWIND e AS x; WITH and
//     RETURN with DISTINCT, *, aliases (AS), ORDER BY (ASC, ASCENDING, DESC,
//     DESCENDING), SKIP, LIMIT, and WITH … WHERE; CREATE; SET (n.p = e,
//     n = e, n += e, n:L); REMOVE (n.p, n:L); DELETE and DETACH DELETE;
//     UNION and UNION ALL; an optional trailing ';'.
//   - Patterns: named paths p = …; node patterns (v:L1:L2 {k: e}) or
//     (v $param); relationship patterns -->, <--, --, <-->, -[r:T|:U *2..5
//     {k: e}]->, with variable length *, *n, *n..m, *..m, *n...
//   - Expressions, loosest first: OR; XOR; AND; NOT; comparisons = <> < <= >
//     >= (chained: a < b < c); IN, STARTS WITH, ENDS WITH, CONTAINS, IS
//     [NOT] NULL; + -; * / %; ^ (left-associative); unary - +; postfix
//     property access n.k, indexing l[i], slicing l[i..j], and label
//     predicates n:L. Atoms: literals, parameters ($name, $0), variables,
//     function calls f(x), ns.f(x), f(DISTINCT x), count(*), CASE (simple
//     and generic), list comprehensions [x IN l WHERE p | e], lists, maps
//     and parenthesized expressions.
//   - Literals: integers in decimal, hexadecimal (0x1F), octal (0o17, and
//     the openCypher 9 form 017); floats (1.5, .5, 1e3, 1.5e-3); strings in
//     single or double quotes with the escapes \\ \' \" \b \f \n \r \t
//     \uXXXX (letters case-insensitive); true, false, null; lists; maps.
//   - Keywords are case-insensitive; names can be back-quoted (`a b`; a
//     doubled back-quote inside stands for one, and two back-quotes with
//     nothing between are the empty name); comments are // to the end of the
//     line and /* … */.
//
// # Errors
//
// Errors are *Error values with a Kind, a position and a message; Error()
// reads "line 2, column 7: expected ')' after the node pattern, found
// "WHERE"". There are two kinds:
//
//   - SyntaxError: the text is not in the openCypher grammar. Detail holds
//     the TCK's detail: InvalidNumberLiteral (0x, 0x1G, 12abc),
//     InvalidUnicodeLiteral ('\uH'), InvalidUnicodeCharacter (a character
//     outside ASCII that starts no token, such as a Unicode dash written
//     for '-'), IntegerOverflow, FloatingPointOverflow,
//     InvalidRelationshipPattern (a bad [...] of a relationship),
//     InvalidClauseComposition (a query ending with MATCH or WITH, a MATCH
//     right after CREATE without WITH, …) and UnexpectedSyntax otherwise.
//   - NotSupported: the text uses a Cypher construct that is recognised but
//     outside the subset; Construct names it and the position points at it.
//     They are the clauses MERGE, CALL and OPTIONAL CALL, FOREACH, LOAD CSV,
//     USING PERIODIC COMMIT, START, EXPLAIN, PROFILE, USE, SHOW, FINISH,
//     INSERT and the schema and administration commands (CREATE INDEX, DROP,
//     GRANT, …); planner hints (MATCH … USING); pattern expressions used as
//     predicates (WHERE (a)-->(b)); pattern comprehensions [(a)-->(b) | e];
//     EXISTS, COUNT and COLLECT subqueries; filter, extract and reduce (the
//     list predicates all, any, none and single(x IN l WHERE p) are in the
//     subset, as a ListComprehension with a Quantifier); map
//     projections n{.name}; regular expressions =~; shortestPath and
//     allShortestPaths; parenthesized path patterns ((a)-->(b)); label
//     expressions (n:A|B); and WHERE inside a node or relationship pattern.
//
// The parser reports the first error in source order and does not recover.
// Errors that need scopes or types — VariableAlreadyBound, UndefinedVariable,
// InvalidArgumentType, NoSingleRelationshipType in CREATE, MATCH (n $param),
// mixing UNION and UNION ALL, SKIP -1, … — are not syntax errors: the parser
// accepts those queries and leaves them to the semantic checker.
//
// # Grammar decisions
//
//   - A minus sign directly before a number is part of the literal
//     (IntegerLit{-5}), which is how -9223372036854775808 is valid while
//     9223372036854775808 overflows; -(5) and -5.x keep a *Unary. Unary minus
//     binds tighter than ^, as in the openCypher grammar: -2^2 is (-2)^2.
//   - [x IN l] is a list comprehension (as in the grammar), not a list
//     holding the boolean x IN l; [x IN l, 1] is a list literal.
//   - A parenthesized expression that is a node pattern followed by a
//     relationship, like (a)-[r]-(b), is a pattern expression (not
//     arithmetic), and so NotSupported; (a)-(b) and (a) < -1 are arithmetic.
//   - Reserved words of openCypher 9 (MATCH, END, IN, …) cannot be variables,
//     aliases or function names unless back-quoted; they can be labels,
//     relationship types, property keys and map keys. exists(x) is a call.
//   - Function names keep their source case; compare with strings.EqualFold.
//   - The empty back-quoted name is valid (the TCK uses it as a map key).
package parse
