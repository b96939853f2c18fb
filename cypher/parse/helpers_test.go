package parse

import (
	"errors"
	"fmt"
	"testing"
)

// safeParse parses q and turns a panic into an error, so that one bad query
// fails its own case instead of the whole test binary.
func safeParse(q string) (res *Query, err error, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			res, err, panicked = nil, fmt.Errorf("panic: %v", r), true
		}
	}()
	res, err = Parse(q)
	return res, err, false
}

// asError returns the *Error in err (or fails the test).
func asError(t *testing.T, err error) *Error {
	t.Helper()
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *parse.Error", err, err)
	}
	return pe
}

// short abbreviates a query for failure messages.
func short(s string) string {
	if r := []rune(s); len(r) > 300 {
		return string(r[:300]) + "…"
	}
	return s
}

// checkRoundTrip checks that the canonical print of q parses to an Equal
// query and that printing is idempotent. It returns a description of the
// failure, or "".
func checkRoundTrip(q *Query) string {
	s := q.String()
	q2, err, panicked := safeParse(s)
	switch {
	case panicked:
		return fmt.Sprintf("reparse of %q panicked: %v", short(s), err)
	case err != nil:
		return fmt.Sprintf("printed form %q does not parse: %v", short(s), err)
	case !Equal(q, q2):
		return fmt.Sprintf("printed form %q parses to a different AST (%q)", short(s), short(q2.String()))
	case q2.String() != s:
		return fmt.Sprintf("printing is not idempotent: %q then %q", short(s), short(q2.String()))
	}
	return ""
}
