package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// gdiRunner runs the built command with arguments and standard input and
// returns its combined output and exit code.
func gdiRunner(t *testing.T, bin string) func(stdin string, args ...string) (string, int) {
	return func(stdin string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
}

// stdoutOf runs the built command and returns its standard output alone.
func stdoutOf(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("gdi %q: %v", args, err)
	}
	return out
}

// queryResult is one element of the output of gdi query -json.
type queryResult struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

// TestQueryCommand runs the built gdi query and gdi shell as a user would.
func TestQueryCommand(t *testing.T) {
	bin := buildGDI(t)
	gdi := gdiRunner(t, bin)
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := func(t *testing.T, out string, code int, want ...string) {
		t.Helper()
		if code != 0 {
			t.Fatalf("exit %d:\n%s", code, out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("the output lacks %q:\n%s", w, out)
			}
		}
	}

	t.Run("help", func(t *testing.T) {
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"help", "query"}, "usage: gdi query"},
			{[]string{"query", "-h"}, "-param name=value"},
			{[]string{"shell", "-h"}, ":schema"},
			{[]string{"help"}, "query "},
			{[]string{"help"}, "shell "},
		} {
			out, code := gdi("", c.args...)
			if code != 0 || !strings.Contains(out, c.want) {
				t.Errorf("gdi %v exited %d, want 0 with %q:\n%s", c.args, code, c.want, out)
			}
		}
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"shell", "extra"}, `unexpected arguments ["extra"]`},
			{[]string{"query", "RETURN 1", "extra"}, `unexpected arguments ["extra"]`},
			{[]string{"query"}, "want a statement"},
			{[]string{"query", "-ranks", "0", "RETURN 1"}, "-ranks must be in [1, 4096], not 0"},
			{[]string{"query", "-param", "x=1 + 2", "RETURN $x"}, "is not a literal"},
			{[]string{"query", "WITH 123 AS x RETURN x.num"}, "line 1, column 23: TypeError (InvalidArgumentType)"},
			{[]string{"query", "-backend", "refdb", "-checkpoint", dir, "RETURN 1"}, "-checkpoint needs the gdirma backend"},
		} {
			out, code := gdi("", c.args...)
			if code != 1 || !strings.Contains(out, c.want) {
				t.Errorf("gdi %v exited %d, want 1 with %q:\n%s", c.args, code, c.want, out)
			}
		}
	})

	t.Run("table", func(t *testing.T) {
		out, code := gdi("", "query", "CREATE (a:Person {name: 'Ada'})-[:KNOWS]->(b:Person {name: 'Alan'}) RETURN a.name, b.name")
		ok(t, out, code, "| a.name | b.name |", "| 'Ada'  | 'Alan' |", "\n1 row (")
		if !regexp.MustCompile(`(?m)^\+-+\+$`).MatchString(out) {
			t.Errorf("no separator line:\n%s", out)
		}
	})

	t.Run("explain", func(t *testing.T) {
		out, code := gdi("", "query", "EXPLAIN MATCH (a:Person)-[:KNOWS]->(b) WHERE a.age > 30 RETURN b.name")
		ok(t, out, code, "IndexSeek (a:Person) WHERE a.age > 30\nExpand -[_:KNOWS]->(b)\n")
		if strings.Contains(out, "'") {
			t.Errorf("the plan is printed as quoted strings:\n%s", out)
		}
	})

	// Statements in order, a ';' inside a string, a comment and a name.
	file := write("stmts.cypher", `CREATE (:P {s: 'a;b', i: 1}); // a comment; not a statement
MATCH (p:P) SET p.i = p.i + 1;
/* ; */ MATCH (p:P) SET p.i = p.i * 10;
MATCH (p:P) RETURN p.s AS s, p.i AS `+"`i;`"+`, p, [1, 2.5, null, true, "x\"y;"] AS l, {k: 'v'} AS m
`)
	t.Run("file", func(t *testing.T) {
		out, code := gdi("", "query", "-f", file)
		ok(t, out, code, "| s     | i; | p", "| 'a;b' | 20 | (:P {i: 20, s: 'a;b'}) | [1, 2.5, null, true, 'x\"y;'] | {k: 'v'} |")
		if n := strings.Count(out, "0 rows ("); n != 3 {
			t.Errorf("%d results of no rows, want 3:\n%s", n, out)
		}
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out, code = gdi(string(text), "query", "-ranks", "2", "-f", "-")
		ok(t, out, code, "| 'a;b' | 20 |")
	})

	t.Run("json", func(t *testing.T) {
		var res []queryResult
		if err := json.Unmarshal(stdoutOf(t, bin, "query", "-json", "-f", file), &res); err != nil {
			t.Fatal(err)
		}
		if len(res) != 4 {
			t.Fatalf("%d results, want 4: %v", len(res), res)
		}
		last := res[3]
		if want := []string{"s", "i;", "p", "l", "m"}; !reflect.DeepEqual(last.Columns, want) {
			t.Errorf("columns %q, want %q", last.Columns, want)
		}
		if len(last.Rows) != 1 {
			t.Fatalf("rows %v, want 1", last.Rows)
		}
		row := last.Rows[0]
		node, _ := row[2].(map[string]any)
		if _, hasID := node["id"].(float64); !hasID {
			t.Errorf("node %v has no numeric id", row[2])
		}
		delete(node, "id")
		want := []any{"a;b", 20.0,
			map[string]any{"labels": []any{"P"}, "properties": map[string]any{"i": 20.0, "s": "a;b"}},
			[]any{1.0, 2.5, nil, true, `x"y;`}, map[string]any{"k": "v"}}
		if !reflect.DeepEqual(row, want) {
			t.Errorf("row\n%#v, want\n%#v", row, want)
		}
		var rel []queryResult
		if err := json.Unmarshal(stdoutOf(t, bin, "query", "-json", "CREATE ()-[r:T {w: 1.0}]->() RETURN r"), &rel); err != nil {
			t.Fatal(err)
		}
		r, _ := rel[0].Rows[0][0].(map[string]any)
		if r["type"] != "T" || !reflect.DeepEqual(r["properties"], map[string]any{"w": 1.0}) || r["start"] == nil || r["end"] == nil {
			t.Errorf("relationship %v", r)
		}
	})

	t.Run("param", func(t *testing.T) {
		var res []queryResult
		out := stdoutOf(t, bin, "query", "-json", "-param", "s='Ada'", "-param", "n=41", "-param", "l=[1, 'two', [3.5]]",
			"RETURN $s AS s, $n + 1 AS n, size($l) AS size, $l[1] AS second, $l AS l")
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatal(err)
		}
		want := []any{"Ada", 42.0, 3.0, "two", []any{1.0, "two", []any{3.5}}}
		if len(res) != 1 || len(res[0].Rows) != 1 || !reflect.DeepEqual(res[0].Rows[0], want) {
			t.Errorf("got %s, want one row %v", out, want)
		}
	})

	t.Run("errors", func(t *testing.T) {
		out, code := gdi("", "query", "MATCH (n RETURN n")
		if code != 1 || !strings.Contains(out, "line 1, column 10: SyntaxError") {
			t.Errorf("exit %d, want 1 with line 1, column 10:\n%s", code, out)
		}
		bad := write("bad.cypher", "CREATE (:Q);\n\n  MATCH (n)\n  RETURN n +* 2;\nCREATE (:Never)")
		out, code = gdi("", "query", "-f", bad)
		if code != 1 || !strings.Contains(out, "bad.cypher: line 4, column 13: SyntaxError") {
			t.Errorf("exit %d, want 1 with line 4, column 13:\n%s", code, out)
		}
		open := write("open.cypher", "CREATE (:Q);\nRETURN 'never closed;")
		out, code = gdi("", "query", "-f", open)
		if code != 1 || !strings.Contains(out, "end inside a string") {
			t.Errorf("an unclosed string: exit %d, want 1 saying so:\n%s", code, out)
		}
		out, code = gdi("", "query", "EXPLAIN MATCH (n) RETURN n +")
		if code != 1 || !strings.Contains(out, "line 1, column 29: SyntaxError") {
			t.Errorf("EXPLAIN: exit %d, want 1 with line 1, column 29:\n%s", code, out)
		}
	})

	t.Run("ranks", func(t *testing.T) {
		times := regexp.MustCompile(`(?m)^(\d+ rows?) \(.*\)$`)
		var outs []string
		for _, ranks := range []string{"1", "2"} {
			out, code := gdi("", "query", "-ranks", ranks, "-f", file)
			ok(t, out, code, "'a;b'")
			outs = append(outs, times.ReplaceAllString(out, "$1"))
		}
		if outs[0] != outs[1] {
			t.Errorf("-ranks 1:\n%s\n-ranks 2:\n%s", outs[0], outs[1])
		}
	})

	t.Run("checkpoint", func(t *testing.T) {
		cp := filepath.Join(dir, "cp")
		out, code := gdi("", "query", "-ranks", "2", "-checkpoint", cp, "CREATE (:Kept {k: 'v'})")
		ok(t, out, code, "checkpoint: ")
		out, code = gdi("", "query", "-ranks", "2", "-restore", cp, "MATCH (n:Kept) RETURN n.k")
		ok(t, out, code, "| 'v' |", "1 row")
		out, code = gdi("", "query", "-ranks", "1", "-restore", cp, "RETURN 1")
		if code != 1 || !strings.Contains(out, "the checkpoint has 2 ranks") {
			t.Errorf("restore on other ranks: exit %d:\n%s", code, out)
		}
	})

	t.Run("shell", func(t *testing.T) {
		for _, ranks := range []string{"1", "2"} {
			out, code := gdi("CREATE (:A {x: 1});\nMATCH (n:A)\nRETURN n.x;\n:schema\n:quit\nRETURN 'not run';\n", "shell", "-ranks", ranks)
			ok(t, out, code, "| n.x |", "| 1   |", "1 row (", "labels:\n  A\n", "x#Integer", "Int64", "indexes:")
			if strings.Contains(out, "not run") || strings.Contains(out, "gdi>") {
				t.Errorf("-ranks %s: a statement after :quit ran, or a prompt showed:\n%s", ranks, out)
			}
		}
		for _, ranks := range []string{"1", "2"} {
			out, code := gdi(":param name => 'Ada'\n:param n => [1, 2]\n:param bad => [1,\n:param nope\n:params\nRETURN $name AS a, $n AS b, $x AS c;\n", "shell", "-ranks", ranks, "-param", "x=7")
			want := []string{"$n => [1, 2]\n$name => 'Ada'\n$x => 7\n", "| 'Ada' | [1, 2] | 7 |", "error: :param bad:", "error: :param wants NAME => VALUE"}
			if code != 0 {
				t.Errorf("-ranks %s: :param: exit %d:\n%s", ranks, code, out)
			}
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("-ranks %s: :param: no %q in:\n%s", ranks, w, out)
				}
			}
		}
		out, code := gdi("RETURN 1 +;\n:nosuch\nRETURN 'a;b' AS x", "shell")
		if code != 1 || !strings.Contains(out, "line 1, column 11: SyntaxError") || !strings.Contains(out, "unknown command :nosuch") || !strings.Contains(out, "| 'a;b' |") {
			t.Errorf("exit %d, want 1 with the error and the last statement run:\n%s", code, out)
		}
	})
}

// TestPosition: the line and column of a statement's byte offset, in
// runes, from 1.
func TestPosition(t *testing.T) {
	src := "RETURN 'ä';\n/* ; */\n  RETURN 1"
	if line, col := position(src, strings.Index(src, "RETURN 1")); line != 3 || col != 3 {
		t.Errorf("position %d:%d, want 3:3", line, col)
	}
	if line, col := position(src, strings.Index(src, "';")); line != 1 || col != 10 {
		t.Errorf("position %d:%d, want 1:10", line, col)
	}
}
