package generator

import (
	"math"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/invariants"
)

func TestDefaultSchemeLabels(t *testing.T) {
	g := mustNew(t, Config{Scale: 20, EdgeFactor: 1, Seed: 1})
	n := float64(g.NumVertices())
	want := []struct {
		name   string
		lo, hi float64
	}{{"Company", 0, 0.05}, {"Person", 0.05, 0.20}, {"Place", 0.20, 0.25}, {"Project", 0.25, 0.75}, {"Resource", 0.75, 1}}
	for k, w := range want {
		lo, hi := g.LabelRange(k)
		if g.Scheme().VertexLabels[k].Name != w.name || lo != uint64(math.Floor(w.lo*n)) || hi != uint64(math.Floor(w.hi*n)) {
			t.Errorf("label %d: %s [%d, %d), want %s [%v, %v)·n", k, g.Scheme().VertexLabels[k].Name, lo, hi, w.name, w.lo, w.hi)
		}
		if g.VertexLabel(lo) != k || g.VertexLabel(hi-1) != k {
			t.Errorf("VertexLabel at the ends of label %d: %d, %d", k, g.VertexLabel(lo), g.VertexLabel(hi-1))
		}
	}
	s := g.Scheme()
	if s.EdgeLabels[g.EdgeLabel(0, uint64(0.1*n))] != "worksAt" || s.EdgeLabels[g.EdgeLabel(uint64(0.1*n), 0)] != "worksAt" ||
		s.EdgeLabels[g.EdgeLabel(uint64(0.5*n), uint64(0.9*n))] != "needs" {
		t.Error("wrong edge labels for Company-Person or Project-Resource")
	}
}

func TestSchemeValidate(t *testing.T) {
	if err := DefaultScheme().Validate(false); err != nil {
		t.Fatal(err)
	}
	if err := UniformScheme(20, 13, 50).Validate(false); err != nil {
		t.Fatal(err)
	}
	breakers := map[string]func(s *Scheme){
		"shares":         func(s *Scheme) { s.VertexLabels[0].Share = 0.5 },
		"negative share": func(s *Scheme) { s.VertexLabels[0].Share, s.VertexLabels[1].Share = -0.05, 0.25 },
		"name clash":     func(s *Scheme) { s.EdgeLabels[3] = "Person" },
		"bad name":       func(s *Scheme) { s.VertexLabels[2].Name = "Pla ce" },
		"property index": func(s *Scheme) { s.VertexLabels[0].Properties[0].Property = 99 },
		"property twice": func(s *Scheme) { s.VertexLabels[0].Properties[1].Property = PropName },
		"fraction":       func(s *Scheme) { s.VertexLabels[0].Properties[0].Fraction = 1.5 },
		"uint32 range":   func(s *Scheme) { s.Properties[PropDensity].Max = 1 << 33 },
		"empty range":    func(s *Scheme) { s.Properties[PropRevenue].Max = 0 },
		"date range":     func(s *Scheme) { s.Properties[PropBirthday].Min = 0 },
		"kind":           func(s *Scheme) { s.Properties[PropBirthday].Kind = 0 },
		"asymmetric":     func(s *Scheme) { s.EdgeMatrix[0][1] = 5 },
		"matrix size":    func(s *Scheme) { s.EdgeMatrix = s.EdgeMatrix[1:] },
		"edge index":     func(s *Scheme) { s.EdgeMatrix[0][0] = -1 },
	}
	for name, breaker := range breakers {
		s := DefaultScheme()
		breaker(s)
		if s.Validate(false) == nil {
			t.Errorf("%s: Validate succeeded", name)
		}
	}
	s := DefaultScheme()
	s.EdgeMatrix[0][1] = 5
	if err := s.Validate(true); err != nil {
		t.Errorf("an asymmetric matrix is fine for directed graphs: %v", err)
	}
}

func TestVertexValues(t *testing.T) {
	g := mustNew(t, Config{Scale: 12, EdgeFactor: 1, Seed: 8})
	s := g.Scheme()
	lengths := map[int]map[int]bool{}
	for x := range g.NumVertices() {
		props := g.VertexProperties(x)
		uses := s.VertexLabels[g.VertexLabel(x)].Properties
		if len(props) != len(uses) {
			t.Fatalf("vertex %d: %d properties, want %d", x, len(props), len(uses))
		}
		for k, p := range props {
			spec := s.Properties[p.Type]
			info := s.PropertyTypeInfo(p.Type)
			if err := info.CheckValue(p.Value); err != nil {
				t.Fatalf("vertex %d, %s = %v: %v", x, spec.Name, p.Value, err)
			}
			if again, ok := g.Value(x, p.Type); !ok || again != p.Value || p.Type != uses[k].Property {
				t.Fatalf("vertex %d, %s: Value gives %v, VertexProperties %v", x, spec.Name, again, p.Value)
			}
			switch spec.Kind {
			case String:
				str, _ := p.Value.Text()
				for _, c := range []byte(str) {
					if c < 'a' || c > 'z' {
						t.Fatalf("vertex %d, %s = %q", x, spec.Name, str)
					}
				}
				if len(str) >= int(spec.Max) {
					t.Fatalf("vertex %d, %s has length %d, max %d", x, spec.Name, len(str), spec.Max)
				}
				if lengths[p.Type] == nil {
					lengths[p.Type] = map[int]bool{}
				}
				lengths[p.Type][len(str)] = true
			case Uint32, Uint64:
				xs, _ := p.Value.Uint64Slice()
				if xs[0] < spec.Min || xs[0] >= spec.Max {
					t.Fatalf("vertex %d, %s = %d out of [%d, %d)", x, spec.Name, xs[0], spec.Min, spec.Max)
				}
			case Date:
				ds, _ := p.Value.DateSlice()
				y, m, d := ds[0].Parts()
				if y < 1900 || y > 2000 || m < 1 || m > 12 || d < 1 || d > 28 {
					t.Fatalf("vertex %d, %s = %v", x, spec.Name, ds[0])
				}
			}
		}
		for p := range s.Properties {
			if _, ok := g.Value(x, p); ok != g.Carries(x, p) {
				t.Fatalf("vertex %d: Value and Carries disagree on %d", x, p)
			}
		}
	}
	// type has lengths 0..9, all of which show up among 205 companies.
	if len(lengths[PropType]) != 10 {
		t.Errorf("type lengths seen: %v, want all of 0..9", lengths[PropType])
	}
}

func TestPropertyFraction(t *testing.T) {
	s := DefaultScheme()
	s.VertexLabels[Project].Properties[1].Fraction = 0.3 // budget
	g := mustNew(t, Config{Scale: 14, EdgeFactor: 1, Seed: 2, Scheme: s})
	lo, hi := g.LabelRange(Project)
	n, carried := float64(hi-lo), 0.0
	for x := lo; x < hi; x++ {
		if g.Carries(x, PropBudget) {
			carried++
		}
		if !g.Carries(x, PropName) {
			t.Fatalf("project %d lacks its name", x)
		}
	}
	if sd := math.Sqrt(n * 0.3 * 0.7); math.Abs(carried-0.3*n) > 5*sd {
		t.Errorf("%v of %v projects carry a budget, want 0.3 of them ± %.0f", carried, n, 5*sd)
	}
	if _, ok := g.Value(lo, PropEmail); ok {
		t.Error("a project has an email")
	}
}

func TestPropertyTypeInfo(t *testing.T) {
	s := DefaultScheme()
	for p := range s.Properties {
		if _, err := s.PropertyTypeInfo(p).Validate(); err != nil {
			t.Errorf("%s: %v", s.Properties[p].Name, err)
		}
	}
	if info := s.PropertyTypeInfo(PropEmail); info.Datatype != gdi.Char || info.Size != gdi.MaxSize || info.Count != 1000 {
		t.Errorf("email: %+v", info)
	}
	if info := s.PropertyTypeInfo(PropBirthday); info.Datatype != gdi.DateType || info.Size != gdi.FixedSize || info.Count != 1 {
		t.Errorf("birthday: %+v", info)
	}
}

// TestVertexPropertiesAllocations: the list and each value are allocated
// once, a string longer than value's stack buffer twice (drawn, then
// copied), and nothing else: the workload driver calls VertexProperties
// in the timed part of every add-vertex.
func TestVertexPropertiesAllocations(t *testing.T) {
	if invariants.Enabled {
		t.Skip("the race detector's builds count allocations differently")
	}
	g := mustNew(t, Config{Scale: 10, EdgeFactor: 1, Seed: 3})
	s := g.Scheme()
	for x := range uint64(200) {
		want := 1.0
		for _, p := range g.VertexProperties(x) {
			want++
			if s.Properties[p.Type].Kind != String {
				continue
			}
			if str, _ := p.Value.Text(); len(str) > 128 {
				want++
			}
		}
		if got := testing.AllocsPerRun(5, func() { g.VertexProperties(x) }); got > want {
			t.Fatalf("vertex %d: %.0f allocations, want at most %.0f", x, got, want)
		}
	}
}
