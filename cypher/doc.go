// Package cypher is the openCypher engine of GDI (issue 36): it runs
// statements of an openCypher 9 subset on any gdi.Database, using package
// gdi and rma.Comm alone. The front end is cypher/parse and cypher/check,
// the values and their semantics cypher/value, and the mapping of the
// property graph onto GDI cypher/graph (nodes are vertices, labels and
// relationship types are GDI labels, a relationship is a directed edge
// with one label, a property key is a family of property types, one per
// kind of value).
//
// # Statements
//
// Open finds or makes the explicit index over all nodes (LabelNone and
// every label: graph.NodeIndex). Run takes a statement through named
// steps, on every rank:
//
//  1. prepare: parse.Parse, check.Check and buildPlan, once per statement
//     text: the Engine keeps the plan (Engine.prepare), which reads its
//     parameters when it runs, so a statement run again starts at step 2.
//     Parse and check errors are returned as they are (wrapped in
//     *Error). A leading EXPLAIN is stripped first; EXPLAIN returns the
//     plan here, as a one-column result, without touching the database.
//  2. parameters: a parameter the plan reads and the call lacks is a
//     ParameterMissing error.
//  3. ensure (writing statements only): every label, relationship type
//     and property key the statement names (patterns, SET, REMOVE,
//     property accesses, label predicates, the keys of map literals and
//     of map parameters) is made collectively by NodeIndex.Ensure — the
//     same names in the same order on every rank — which also adds new
//     labels to the node index; a barrier follows, as metadata is
//     eventually consistent. A statement that only reads makes nothing: a
//     name the catalog lacks matches nothing and reads as null.
//  4. execute: collectively or on rank 0 (see below). Rank 0 then
//     broadcasts the outcome — its length, then its wire form (wire.go) —
//     with comm.Bcast; the other ranks wait in the broadcast, and every
//     rank returns the Result or *Error.
//
// # Where a statement executes
//
//   - Collectively (collective.go): a reading statement that starts with
//     a whole-graph scan (NodeScan or IndexSeek) and has no UNION. In a
//     collective read transaction every rank scans the nodes stored on
//     it and runs the operators that map each row alone (and an
//     aggregation in parts), then sends its rows to rank 0, which runs
//     the rest. EXPLAIN shows the hand-over as Gather.
//   - On rank 0: every other statement (point reads, which start with an
//     IDSeek; writes; UNIONs), in one single-process transaction, retried
//     on conflicts (gdiutil.RunTransaction), which finishes deletions,
//     takes the Element of every node and relationship of the result,
//     and commits.
//
// # Keys needed
//
// A write may meet a property key that has no member of the value's kind
// — a key known only at run time, as in SET n = m with m read from the
// data. The store then fails with the internal keysNeeded error, the
// transaction is aborted, and rank 0 broadcasts the keys instead of an
// outcome. Every rank makes them (ensure), and rank 0 executes the
// statement again from the start; the rounds are bounded.
//
// # Plans
//
// A plan is a pipeline of operators over batches of rows; a row holds a
// value.Value per slot, one slot per variable of the single query plus
// hidden ones for anonymous pattern elements, aggregates and
// comprehension variables. Each operator maps all rows of the previous
// one, in order, so every clause sees the effects of the clauses before
// it. An operator owns the rows it is given: it emits each row once,
// either one it was given or one of its own, and keeps none. So Project
// and the cut after it write into the rows they get, a scan or expansion
// binds its last match in the row it extends (the others in copies), and
// Optional gives its pipeline a copy of the row it keeps. The operators, as
// EXPLAIN names them:
//
//   - NodeScan (n:L {k: v}): VerticesOfIndex(node index, constraint of the
//     labels), plus the nodes this transaction created or changed (the
//     index shows them only after commit), minus the deleted ones; then
//     the labels and the property map are checked.
//   - IndexSeek (n:L) WHERE n.k op c: the same with property conditions
//     pushed into the constraint, for equalities of the pattern's map and
//     top-level WHERE comparisons n.k = < <= > >= c with c a literal or a
//     parameter: one subconstraint per family member whose kind compares
//     with c (integer and float members for a number; = and the wide
//     orders on floats through the neighbouring floats, as GDI defines
//     only < and > there). At most two conditions are pushed; every
//     predicate also stays a filter, so the constraint only narrows.
//   - IDSeek (n:L) WHERE n.GDI_PROPERTY_TYPE_ID = c: the node with label
//     L whose application-level ID is the string c, by TranslateVertexID
//     (a DHT lookup), for an equality on graph.IDKey in the pattern's map
//     or a top-level WHERE conjunct, with c a literal or a parameter.
//   - Argument (n): a node bound by an earlier clause, checked against
//     the pattern.
//   - Expand -[r:T]->(m): VertexHolder.Edges with the orientation and a
//     constraint of one label condition per type, then the edge's
//     Vertices; a relationship is not bound twice in one MATCH.
//   - VarExpand -[r:T*min..max]-(m): depth-first walks of Expand steps,
//     no relationship twice in a walk or in the MATCH.
//   - Path p, Filter, Optional (its operators indented: each row runs
//     them alone and passes on with nulls when they give nothing), Unwind.
//   - Aggregate (groups by the grouping keys, value.Key of their values),
//     Project, Distinct, Sort (value.Compare), Skip, Limit; a projection
//     keeps the incoming variables for ORDER BY and WHERE, then leaves its
//     columns alone.
//   - Create, Set (SET and REMOVE), Delete (DELETE marks objects dead and
//     keeps their notation; GDI Free comes at the end of the statement,
//     when a node deleted without DETACH must have no live relationship:
//     ConstraintVerificationFailed/DeleteConnectedNode).
//   - Union: the parts run one after the other; UNION keeps one row of
//     each set of equivalent rows.
//
// Outside the subset — MERGE, CALL, subqueries, pattern expressions, the
// temporal and spatial functions, … — Run returns an *Error whose
// NotSupported method is true, never a wrong answer.
//
// # Costs
//
//   - Per statement, every rank: a lookup of its text among the kept
//     plans (a parse, a check and a plan the first time), and two
//     broadcasts of the outcome (8 bytes, then the result); a writing
//     statement adds one lookup per name (labels, keys), the collectives
//     of Ensure when a name is new (a label: CreateLabel and an index
//     recomputation) and a barrier; a collective one adds the barrier of
//     its collective transaction, one Alltoallv of rows and the agreement
//     of its commit.
//   - Per scan: one VerticesOfIndex (LocalVerticesOfIndex in a collective
//     statement; the whole index when there is no condition) and one
//     AssociateVertex per candidate, cached for the statement; per IDSeek
//     one TranslateVertexID; per expansion of a node: one Edges call, one
//     AssociateEdge and Vertices per edge; per property read: one
//     Properties call per member of the key's family (at most six).
//   - A collective statement sends rank 0 its rows after the per-row
//     operators, or one row per group of an aggregation in parts.
//   - A statement holds all its rows in memory between operators.
//   - Data created by Cypher lives on rank 0, whose transactions create
//     it (GDI places a vertex on the rank that creates it); data loaded in
//     bulk (gdi import) is spread, and collective statements spread the
//     reading of it.
//
// # Results and errors
//
// Result holds the columns, the rows as values, and the Element (labels
// or type, and properties) of each node and relationship in them; Format
// prints a cell in the TCK notation. State lists the whole graph (collective, read on rank 0 and
// broadcast). Errors are *Error: TCKCategory and TCKDetail give the TCK's
// error type and detail (parse and check errors are SyntaxErrors, but for
// the TypeErrors check finds; cypher/value errors keep theirs; the engine
// raises EntityNotFound, ConstraintVerificationFailed, ParameterMissing,
// TypeError), and NotSupported reports constructs outside the subset.
package cypher
