// Package tck runs the scenarios of the openCypher Technology
// Compatibility Kit (TCK) on a Cypher engine: it is the acceptance test of
// the openCypher engine of GDI (issue 36). `make tck` runs the features in
// ../shared/testdata/opencypher-tck (or in the directory named by
// GDI_TCK_FEATURES) once per backend, each through an Engine adapter:
//
//	rep, err := tck.Run(dir, newEngine, tck.Options{Timeout: time.Minute})
//	fmt.Print(rep)           // "N passed, M failed, K skipped", then per folder
//	fmt.Print(rep.Details()) // each failure and skip with its reason
//
// # Model
//
// A feature file (Gherkin) holds scenarios. The reader (gherkin.go,
// reader*.go, outline.go) turns each file into a Feature and its
// Scenarios: a Scenario Outline becomes one Scenario per row of its
// Examples, with the row's cells put in place of the <name> placeholders
// in the name, the step texts, the doc strings and the tables; the
// Background's steps come first in every scenario. A scenario's folder is
// the directory of its feature relative to the TCK directory
// (clauses/match), the unit of the report; its index is the [n] that
// starts its name.
//
// Each step has a form (form.go): the graph (an empty graph; any graph,
// run on an empty graph too; a named graph or a procedure, which the
// runner does not provide, so the scenario is skipped), set-up queries
// (having executed), parameters, the query (executing query), a control
// query (executing control query, whose result the next steps check),
// the expected result (in any order, in order, ignoring element order for
// lists, or empty), the side effects (none, or a table), or an expected
// error (a <Category> should be raised at <phase>: <Detail>, where a
// Detail of * or none accepts any). A step of no known form fails its
// scenario.
//
// # The engine
//
// An Engine (engine.go) runs statements and lists its graph as a State.
// The runner makes a fresh Engine per scenario and closes it at the end.
// Results come back as strings in the TCK's notation, and errors carry
// their TCK category and detail through the CypherError interface. An
// error with a method NotSupported() bool returning true says that the
// engine lacks a feature: the scenario is then skipped, with the error's
// text as the reason, never counted as passed.
//
// # The rules
//
// Values (notation*.go, compare.go): every cell, expected or returned, is
// parsed into a Val, so spacing and the order of map keys and labels do
// not matter. Two values are Equal when they have the same kind (the
// integer 1 is not the float 1.0) and: floats are equal numbers (0.0
// equals -0.0; NaN equals NaN, as the TCK treats NaN as a value of its
// own), strings are the same after their escapes, maps have the same keys
// with Equal values, node labels are the same set, relationships have the
// same type, nodes and relationships the same properties, paths the same
// nodes and relationships with the same directions, and lists the same
// elements in the same order, or as multisets, at every depth, when the
// step says "ignoring element order for lists". Parameters are read from
// the same notation into value.Value (param.go).
//
// Results (result*.go): the columns must be the header's, in its order;
// "in any order" compares the rows as multisets, "in order" as sequences;
// "empty" wants no rows. A failure names the first expected row missing
// and the first row not expected, or the first row out of place.
//
// Side effects (sideeffects.go) are the difference between the State
// before and after the scenario's query: nodes and relationships by
// identity, labels as the set of label names that nodes carry, properties
// as the set of (node or relationship, key, value) triples. "No side
// effects" wants every count zero; a table gives some counts, and the
// others must be zero.
//
// Errors: the query must fail with an error of the expected category and
// detail; an engine error with no detail matches on its category alone.
// The phase (at compile time, at runtime) is shown in messages but not
// checked, since the engine's errors do not carry it. Set-up queries must
// succeed.
//
// # The runner
//
// Run (runner.go, exec*.go) runs the scenarios one after the other, each
// in a goroutine of its own. A panic in the engine fails its scenario,
// with the step's line and the stack, and the run goes on. A scenario that
// outlives Options.Timeout fails and is abandoned, its engine unclosed. A
// scenario tagged @ignore is skipped. The Report (report.go) gives the
// totals, the counts per feature folder and every Outcome with its
// reason, the failures naming the scenario as path:line [index] "name"
// and the rule it broke.
package tck
