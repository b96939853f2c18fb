package tck

import "errors"

// checkEmptyGraph checks that the fresh engine's graph is empty.
func (r *scenarioRun) checkEmptyGraph() *verdict {
	s, err := r.eng.State()
	if err != nil {
		return errVerdict(err, "State")
	}
	if len(s.Nodes)+len(s.Rels) > 0 {
		return failf("the fresh graph is not empty: %d nodes, %d relationships", len(s.Nodes), len(s.Rels))
	}
	return nil
}

// query runs the scenario's query with its parameters, and the side
// effects it had.
func (r *scenarioRun) query(q string) *verdict {
	before, err := r.eng.State()
	if err != nil {
		return errVerdict(err, "State before the query")
	}
	r.res, r.err = r.eng.Run(q, r.params)
	r.ran = true
	if IsNotSupported(r.err) {
		return errVerdict(r.err, "")
	}
	after, err := r.eng.State()
	if err != nil {
		return errVerdict(err, "State after the query")
	}
	r.effects, r.diffed = Diff(before, after), true
	return nil
}

// result returns the result of the last query, or why there is none.
func (r *scenarioRun) result() (*Result, *verdict) {
	switch {
	case !r.ran:
		return nil, failf("no query ran before this step")
	case r.err != nil:
		return nil, failf("unexpected error: %s", describe(r.err))
	case r.res == nil:
		return nil, failf("the engine returned neither a result nor an error")
	}
	return r.res, nil
}

func (r *scenarioRun) checkResult(st Step) *verdict {
	res, v := r.result()
	if v != nil {
		return v
	}
	var err error
	if st.Form == FormResultEmpty {
		err = CheckEmpty(res)
	} else {
		err = CheckResult(res, st.Table, st.InOrder, st.ListsUnordered)
	}
	if err != nil {
		return failf("%v", err)
	}
	return nil
}

// checkSideEffects compares the side effects of the last executing query
// with table (nil: no side effects).
func (r *scenarioRun) checkSideEffects(table [][]string) *verdict {
	if !r.diffed {
		return failf("no query ran before this step")
	}
	want, err := ExpectedSideEffects(table)
	if err == nil {
		err = CheckSideEffects(r.effects, want)
	}
	if err != nil {
		return failf("%v", err)
	}
	return nil
}

// checkError checks that the last query failed with the expected category
// and detail. The phase (compile time or runtime) is not checked: the
// engine's errors do not say it. An error without a detail matches on its
// category.
func (r *scenarioRun) checkError(want ExpectedError) *verdict {
	if !r.ran {
		return failf("no query ran before this step")
	}
	if r.err == nil {
		rows := 0
		if r.res != nil {
			rows = len(r.res.Rows)
		}
		return failf("expected %s, but the query succeeded with %d rows", want, rows)
	}
	var ce CypherError
	if !errors.As(r.err, &ce) {
		return failf("expected %s, got an error without a TCK category: %v", want, r.err)
	}
	cat, detail := ce.TCKCategory(), ce.TCKDetail()
	if cat != want.Category || detail != "" && want.Detail != "" && detail != want.Detail {
		return failf("expected %s, got %s", want, describe(r.err))
	}
	return nil
}
