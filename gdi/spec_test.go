package gdi

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestSpecTable checks the routine table of SPEC.md: every routine of the
// specification appears exactly once, nothing else appears, and every Go
// identifier named exists in this package.
func TestSpecTable(t *testing.T) {
	routines := readRoutines(t)
	rows := readSpecRows(t)

	seen := map[string]int{}
	for _, r := range rows {
		seen[r.routine]++
	}
	for _, name := range routines {
		switch n := seen[name]; n {
		case 1:
		case 0:
			t.Errorf("SPEC.md: routine %s has no row", name)
		default:
			t.Errorf("SPEC.md: routine %s has %d rows", name, n)
		}
	}
	known := map[string]bool{}
	for _, name := range routines {
		known[name] = true
	}
	idents := packageIdents(t)
	for _, r := range rows {
		if !known[r.routine] {
			t.Errorf("SPEC.md: row for %q, which is not a routine of the specification", r.routine)
		}
		if r.kind != "local" && r.kind != "collective" {
			t.Errorf("SPEC.md: %s: kind %q is neither local nor collective", r.routine, r.kind)
		}
		if r.goName == "none" {
			if r.notes == "" {
				t.Errorf("SPEC.md: %s maps to none without a reason", r.routine)
			}
			continue
		}
		if !idents[r.goName] {
			t.Errorf("SPEC.md: %s maps to %s, which does not exist in package gdi", r.routine, r.goName)
		}
	}
	if len(rows) != len(routines) {
		t.Errorf("SPEC.md has %d routine rows, the specification %d routines", len(rows), len(routines))
	}
}

func readRoutines(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../shared/reference/gdi-routines.txt")
	if os.IsNotExist(err) {
		t.Skip("gdi-routines.txt not found beside the repository")
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			names = append(names, line)
		}
	}
	if len(names) != 106 {
		t.Fatalf("gdi-routines.txt lists %d routines, want 106", len(names))
	}
	return names
}

type specRow struct{ routine, goName, kind, notes string }

// readSpecRows returns the table rows of SPEC.md whose first cell starts
// with GDI_.
func readSpecRows(t *testing.T) []specRow {
	t.Helper()
	f, err := os.Open("../SPEC.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []specRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "| GDI_") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 4 {
			t.Errorf("SPEC.md: row %q has %d cells, want 4", line, len(cells))
			continue
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, specRow{cells[0], cells[1], cells[2], cells[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// packageIdents returns the names "gdi.X" of the package's top-level
// types, funcs, vars and consts and "gdi.T.M" of the methods of its types,
// interface methods (embedded interfaces included) as well.
func packageIdents(t *testing.T) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, ok := pkgs["gdi"]
	if !ok {
		t.Fatal("package gdi not found")
	}
	idents := map[string]bool{}
	interfaces := map[string]*ast.InterfaceType{}
	for _, file := range pkg.Files {
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					idents["gdi."+d.Name.Name] = true
					continue
				}
				recv := d.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					idents["gdi."+id.Name+"."+d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						idents["gdi."+s.Name.Name] = true
						if it, ok := s.Type.(*ast.InterfaceType); ok {
							interfaces[s.Name.Name] = it
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							idents["gdi."+n.Name] = true
						}
					}
				}
			}
		}
	}
	var methods func(name string, depth int) []string
	methods = func(name string, depth int) []string {
		it := interfaces[name]
		if it == nil || depth > 10 {
			return nil
		}
		var ms []string
		for _, f := range it.Methods.List {
			if len(f.Names) > 0 {
				for _, n := range f.Names {
					ms = append(ms, n.Name)
				}
			} else if id, ok := f.Type.(*ast.Ident); ok {
				ms = append(ms, methods(id.Name, depth+1)...)
			}
		}
		return ms
	}
	for name := range interfaces {
		for _, m := range methods(name, 0) {
			idents["gdi."+name+"."+m] = true
		}
	}
	return idents
}

func TestPackageIdents(t *testing.T) {
	idents := packageIdents(t)
	for _, want := range []string{"gdi.VertexHolder.AddLabel", "gdi.VertexHolder.Edges", "gdi.Code.Error",
		"gdi.ErrorClass", "gdi.ErrNoSuchFile", "gdi.Database.StartTransaction", "gdi.Datatype.Size"} {
		if !idents[want] {
			t.Errorf("%s not found", want)
		}
	}
	for _, absent := range []string{"gdi.VertexHolder.Nope", "gdi.Nope", "gdi.Holder.UID"} {
		if idents[absent] {
			t.Errorf("%s found but does not exist", absent)
		}
	}
}
