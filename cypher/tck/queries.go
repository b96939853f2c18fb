package tck

import "fmt"

// A Query is one statement of a scenario, for tests of the front end,
// which need the TCK's statements without running them.
type Query struct {
	Where string // the scenario's ID and the step's line
	Text  string
	Setup bool // from "having executed:"
	// Want is, for the scenario's query, the detail of the SyntaxError
	// it expects at compile time; "" otherwise.
	Want string
}

// Queries returns the statements of every scenario of the features under
// dir, in the order of the files and their steps: set-up statements,
// queries and control queries.
func Queries(dir string) ([]Query, error) {
	features, err := ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Query
	for _, sc := range Scenarios(features) {
		want := ""
		for _, st := range sc.Steps {
			if st.Form == FormError && st.Error.Category == "SyntaxError" && st.Error.Phase == "compile time" {
				want = st.Error.Detail
			}
		}
		for _, st := range sc.Steps {
			q := Query{Where: fmt.Sprintf("%s, line %d", sc.ID(), st.Line), Text: st.Doc}
			switch st.Form {
			case FormSetup:
				q.Setup = true
			case FormQuery:
				q.Want = want
			case FormControlQuery:
			default:
				continue
			}
			out = append(out, q)
		}
	}
	return out, nil
}
