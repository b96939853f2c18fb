package parse

import (
	"strings"
	"testing"
	"time"
)

// TestDeepNesting checks that deeply nested input gives an error rather than
// exhausting the stack, and that the speculative parses (pattern expressions,
// list comprehensions) stay polynomial: without memoising failed attempts,
// nested parentheses cost 2^depth.
func TestDeepNesting(t *testing.T) {
	const n = 120 // within the depth limit
	cases := map[string]string{
		"parens":      "RETURN " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n),
		"paren maps":  "RETURN " + strings.Repeat("({k: ", n) + "1" + strings.Repeat("})", n),
		"comprehend":  "RETURN " + strings.Repeat("[x IN ", n) + "1" + strings.Repeat(", 1]", n),
		"node props":  "RETURN " + strings.Repeat("(a:L {k: ", n) + "1" + strings.Repeat("})", n),
		"pattern":     "RETURN " + strings.Repeat("[x IN ", n) + "(a)-->(b)" + strings.Repeat(", 1]", n),
		"unclosed":    "RETURN " + strings.Repeat("[x IN (", n),
		"node where":  "RETURN " + strings.Repeat("(n WHERE ", n) + "1" + strings.Repeat(")", n),
		"not":         "RETURN " + strings.Repeat("NOT ", n) + "true",
		"minus":       "RETURN " + strings.Repeat("- ", n) + "x",
		"chain":       "RETURN 1" + strings.Repeat(" + 1", 10*n),
		"too deep":    "RETURN " + strings.Repeat("(", 100*n) + "1" + strings.Repeat(")", 100*n),
		"too deep []": "RETURN " + strings.Repeat("[", 100*n),
	}
	for name, q := range cases {
		start := time.Now()
		_, err, panicked := safeParse(q)
		if panicked {
			t.Errorf("%s: %v", name, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: parsing took %v", name, d)
		}
		if strings.HasPrefix(name, "too deep") && (err == nil || !strings.Contains(err.Error(), "nested too deeply")) {
			t.Errorf("%s: error %v, want nesting limit", name, err)
		}
	}
}
