package cypher

import (
	"context"

	"github.com/gdi-go/gdi/cypher/value"
)

// A reading statement that starts with a scan of the whole graph runs as
// a collective read transaction on every rank (executeCollective):
//
//  1. start: every rank starts the collective read transaction.
//  2. share: each rank runs the pipeline's head (collectiveSplit) — the
//     scan over the nodes stored on it (LocalVerticesOfIndex, so the
//     ranks' shares partition the nodes), the operators after it that map
//     each row alone, and an aggregation in parts if one follows — over
//     its own share.
//  3. gather: each rank sends its rows, or its error, to rank 0 in one
//     Alltoallv (a gather).
//  4. finish: rank 0 runs the tail of the pipeline (the merge of the
//     parts of an aggregation, Aggregate, Distinct, Sort, Skip, Limit, a
//     second scan, …) over all the rows in rank order, in its own part of
//     the transaction, and takes the Elements of the result's entities.
//  5. commit: every rank commits; rank 0 broadcasts the outcome as for
//     any statement.
//
// Point reads (an IDSeek first), writes and UNIONs run on rank 0 alone.
// EXPLAIN shows the gather as an operator, Gather, after the head.

// collectiveSplit is the pipeline of a statement that runs collectively,
// split into its head, which every rank runs over its share, and its
// tail, which rank 0 runs over the rows of every rank's head.
type collectiveSplit struct {
	head, tail []operator
}

// splitForCollective returns the split of the pipeline, or nil if the
// statement does not run collectively; buildPlan keeps it in the plan. It
// does not depend on the number of ranks: one rank runs the same steps.
//
// The head is the scan and the operators after it that map each row
// alone. If an aggregation follows whose aggregates can be computed in
// parts (value.Partial), each rank aggregates its rows and sends a row
// per group with the aggregates' states, and rank 0 merges them.
func (pl *plan) splitForCollective() *collectiveSplit {
	if pl.writes || len(pl.parts) != 1 {
		return nil
	}
	ops := pl.parts[0].ops
	if len(ops) == 0 {
		return nil
	}
	if s, ok := ops[0].(*scanOp); !ok || s.seek != nil {
		return nil
	}
	k := 1
	for k < len(ops) && perRow(ops[k]) {
		k++
	}
	split := &collectiveSplit{head: ops[:k:k], tail: ops[k:]}
	if a, ok := pl.aggregateAt(k); ok && a.partial() {
		split.head = append(split.head, partialAggregateOp{a})
		split.tail = append([]operator{mergeAggregateOp{a}}, ops[k+1:]...)
	}
	return split
}

// aggregateAt returns the operator at i of the pipeline if it is an
// aggregation.
func (pl *plan) aggregateAt(i int) (*aggregateOp, bool) {
	ops := pl.parts[0].ops
	if i >= len(ops) {
		return nil, false
	}
	a, ok := ops[i].(*aggregateOp)
	return a, ok
}

// perRow reports whether op maps each row alone, without the other rows:
// such an operator may run on any rank's share of the rows.
func perRow(op operator) bool {
	switch op := op.(type) {
	case *filterOp, *unwindOp, *expandOp, *varExpandOp, *nodeCheckOp, *pathOp, *projectOp, *cutOp:
		return true
	case *optionalOp:
		for _, in := range op.inner {
			if !perRow(in) {
				return false
			}
		}
		return true
	}
	return false
}

// executeCollective runs a reading statement whose pipeline's head runs
// on every rank's share of the nodes and its tail on rank 0.
func (e *Engine) executeCollective(ctx context.Context, pl *plan, params map[string]value.Value) (*Result, error) {
	tx, err := e.db.StartCollectiveTransaction()
	if err != nil {
		return nil, wrapError(err) // collective with a barrier: every rank fails alike
	}
	part := pl.parts[0]
	x := newExecution(ctx, e, tx, params)
	x.width, x.localScan = part.slots.n, part.ops[0].(*scanOp)
	rows, err := runOps(x, pl.collective.head, []row{make(row, part.slots.n)})
	shares, gerr := e.gather(encodeShare(rows, part.slots.n, err))
	var o outcome
	var original error
	if e.comm.Rank() == 0 && gerr == nil {
		o, original = x.finishCollective(pl, shares)
	}
	x.release()
	if cerr := tx.Commit(); cerr != nil && o.err == nil {
		o, original = outcome{err: wrapError(cerr)}, cerr
	}
	if gerr != nil {
		return nil, wrapError(gerr)
	}
	res, _, err := e.deliver(o, original)
	return res, err
}

// gather sends share to rank 0; rank 0 gets every rank's, by rank.
func (e *Engine) gather(share []byte) ([][]byte, error) {
	send := make([][]byte, e.comm.Size())
	send[0] = share
	return e.comm.Alltoallv(send)
}

// encodeShare is the wire form of a rank's rows of the head, each of width
// slots, or of its error.
func encodeShare(rows []row, width int, err error) []byte {
	if err != nil {
		return encodeOutcome(outcome{err: wrapError(err)})
	}
	res := &Result{Columns: make([]string, width), Rows: make([][]value.Value, len(rows))}
	for i, r := range rows {
		res.Rows[i] = r
	}
	return encodeOutcome(outcome{res: res})
}

// finishCollective runs, on rank 0, the rest of the pipeline over the
// rows of every rank's share, or returns the first rank's error.
func (x *execution) finishCollective(pl *plan, shares [][]byte) (outcome, error) {
	var rows []row
	for _, b := range shares {
		o, err := decodeOutcome(b)
		switch {
		case err != nil:
			return outcome{err: wrapError(err)}, err
		case o.err != nil:
			return o, nil
		}
		for _, r := range o.res.Rows {
			rows = append(rows, r)
		}
	}
	rows, err := runOps(x, pl.collective.tail, rows)
	if err != nil {
		return outcome{err: wrapError(err)}, err
	}
	res := &Result{Columns: pl.columns}
	res.addRows(rows, pl.parts[0].columns, nil)
	if err := x.st.snapshotResult(res); err != nil {
		return outcome{err: wrapError(err)}, err
	}
	return outcome{res: res}, nil
}
