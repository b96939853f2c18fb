package tck

import "fmt"

// A Query is one statement of a scenario, for tests of the front end,
// which need the TCK's statements without running them.
type Query struct {
	Where string // the scenario's ID and the step's line
	Text  string
	Setup bool // from "having executed:"
	// Want is, for the scenario's query, the detail of the error it
	// expects at compile time, a SyntaxError or a TypeError (WantCategory);
	// "" otherwise.
	Want         string
	WantCategory string
}

// compileTimeCategories are the categories of the errors a front end
// raises before running a query.
var compileTimeCategories = map[string]bool{"SyntaxError": true, "TypeError": true}

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
		want, category := "", ""
		for _, st := range sc.Steps {
			if st.Form == FormError && compileTimeCategories[st.Error.Category] && st.Error.Phase == "compile time" {
				want, category = st.Error.Detail, st.Error.Category
			}
		}
		for _, st := range sc.Steps {
			q := Query{Where: fmt.Sprintf("%s, line %d", sc.ID(), st.Line), Text: st.Doc}
			switch st.Form {
			case FormSetup:
				q.Setup = true
			case FormQuery:
				q.Want, q.WantCategory = want, category
			case FormControlQuery:
			default:
				continue
			}
			out = append(out, q)
		}
	}
	return out, nil
}
