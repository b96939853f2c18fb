package generator

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"

	"github.com/gdi-go/gdi/gdi"
)

// Kind is the kind of values a property type of a Scheme holds.
type Kind uint8

// Property kinds. Each value is drawn uniformly from the range of its
// PropertySpec.
const (
	// String: lowercase letters a–z, length uniform in [0, Max-1]; a gdi
	// Char value (MaxSize, Count Max).
	String Kind = iota + 1
	// Uint32: uniform in [Min, Max); one gdi Uint32 element.
	Uint32
	// Uint64: uniform in [Min, Max); one gdi Uint64 element.
	Uint64
	// Date: year uniform in [Min, Max), month in 1–12, day in 1–28; one gdi
	// Date element.
	Date
)

func (k Kind) String() string {
	switch k {
	case String:
		return "String"
	case Uint32:
		return "Uint32"
	case Uint64:
		return "Uint64"
	case Date:
		return "Date"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// PropertySpec is a property type of a Scheme: single entity, values of
// one Kind drawn from [Min, Max) (see Kind).
type PropertySpec struct {
	Name     string
	Kind     Kind
	Min, Max uint64
}

// PropertyUse attaches property type Property (an index into
// Scheme.Properties) to the vertices of a label; each of them carries it
// with probability Fraction (1: all).
type PropertyUse struct {
	Property int
	Fraction float64
}

// VertexLabelSpec is a vertex label of a Scheme. The labels split the
// range of (scrambled) vertex numbers into contiguous parts, in Scheme
// order, Share of it each.
type VertexLabelSpec struct {
	Name       string
	Share      float64
	Properties []PropertyUse
}

// Scheme is the data scheme of a labeled property graph: the vertex labels
// (exactly one per vertex), the property types the vertices of each label
// carry, and the edge label (exactly one per edge, no properties) of each
// pair of vertex labels.
type Scheme struct {
	VertexLabels []VertexLabelSpec
	Properties   []PropertySpec
	EdgeLabels   []string
	// EdgeMatrix[i][j] is the index into EdgeLabels of the label of an
	// edge from a vertex of label i to one of label j. It must be
	// symmetric for undirected graphs.
	EdgeMatrix [][]int
}

// Property indices of DefaultScheme.
const (
	PropName = iota
	PropType
	PropRevenue
	PropFirstName
	PropLastName
	PropEmail
	PropBirthday
	PropLongitude
	PropLatitude
	PropBudget
	PropFormula
	PropDensity
	PropMeltingPoint
)

// Vertex label indices of DefaultScheme.
const (
	Company = iota
	Person
	Place
	Project
	Resource
)

// DefaultScheme returns the scheme of the evaluation of the C reference
// generator of GDI-RMA: five vertex labels over contiguous ranges of the
// vertex numbers (Company 5%, Person 15%, Place 5%, Project 50%, Resource
// 25%), 13 single-entity property types carried by every vertex of their
// labels, and 15 edge labels, one per unordered pair of vertex labels.
func DefaultScheme() *Scheme {
	all := func(ps ...int) []PropertyUse {
		var us []PropertyUse
		for _, p := range ps {
			us = append(us, PropertyUse{p, 1})
		}
		return us
	}
	return &Scheme{
		VertexLabels: []VertexLabelSpec{
			{"Company", 0.05, all(PropName, PropType, PropRevenue)},
			{"Person", 0.15, all(PropFirstName, PropLastName, PropEmail, PropBirthday)},
			{"Place", 0.05, all(PropName, PropLongitude, PropLatitude)},
			{"Project", 0.50, all(PropName, PropBudget)},
			{"Resource", 0.25, all(PropName, PropFormula, PropDensity, PropMeltingPoint)},
		},
		Properties: []PropertySpec{
			PropName:         {"name", String, 0, 100},
			PropType:         {"type", String, 0, 10},
			PropRevenue:      {"revenue", Uint64, 0, 1_000_000_000},
			PropFirstName:    {"firstName", String, 0, 100},
			PropLastName:     {"lastName", String, 0, 100},
			PropEmail:        {"email", String, 0, 1000},
			PropBirthday:     {"birthday", Date, 1900, 2001},
			PropLongitude:    {"longitude", Uint32, 0, 12_960_000},
			PropLatitude:     {"latitude", Uint32, 0, 6_480_000},
			PropBudget:       {"budget", Uint32, 0, 1<<32 - 1},
			PropFormula:      {"formula", String, 0, 100},
			PropDensity:      {"density", Uint32, 0, 1_000_000},
			PropMeltingPoint: {"meltingPoint", Uint32, 0, 100_000},
		},
		EdgeLabels: []string{
			"inBusinessWith", "worksAt", "hasBranchesAt", "supports", "uses",
			"knows", "wasIn", "isPartOf", "canUse",
			"inVicinityOf", "impacts", "foundAt",
			"influences", "needs",
			"canBeUsedWith",
		},
		EdgeMatrix: [][]int{
			{0, 1, 2, 3, 4},
			{1, 5, 6, 7, 8},
			{2, 6, 9, 10, 11},
			{3, 7, 10, 12, 13},
			{4, 8, 11, 13, 14},
		},
	}
}

// UniformScheme returns a synthetic scheme with the given numbers of
// vertex labels (L0, L1, ...) and property types (p0, p1, ...: strings of
// length below maxLen): the labels get equal shares of the vertices,
// property type k belongs to label k mod labels, and the edge between
// labels i and j has label e<min(i,j)>_<max(i,j)>.
func UniformScheme(labels, properties, maxLen int) *Scheme {
	s := &Scheme{}
	for i := range labels {
		s.VertexLabels = append(s.VertexLabels, VertexLabelSpec{Name: fmt.Sprintf("L%d", i), Share: 1 / float64(labels)})
	}
	for k := range properties {
		s.Properties = append(s.Properties, PropertySpec{Name: fmt.Sprintf("p%d", k), Kind: String, Max: uint64(maxLen)})
		if labels > 0 {
			l := &s.VertexLabels[k%labels]
			l.Properties = append(l.Properties, PropertyUse{k, 1})
		}
	}
	s.EdgeMatrix = make([][]int, labels)
	for i := range labels {
		s.EdgeMatrix[i] = make([]int, labels)
	}
	for i := range labels {
		for j := i; j < labels; j++ {
			s.EdgeMatrix[i][j] = len(s.EdgeLabels)
			s.EdgeMatrix[j][i] = len(s.EdgeLabels)
			s.EdgeLabels = append(s.EdgeLabels, fmt.Sprintf("e%d_%d", i, j))
		}
	}
	return s
}

// Validate checks the scheme: at least one vertex label, shares that are
// not negative and sum to 1, unique non-empty names (vertex and edge labels
// share one name space, as in GDI), sane value ranges, property uses that
// name existing property types at most once per label with a fraction in
// [0, 1], and a square edge matrix of valid indices, symmetric unless
// directed.
func (s *Scheme) Validate(directed bool) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("generator: scheme: "+format, a...)
	}
	if len(s.VertexLabels) == 0 {
		return bad("no vertex labels")
	}
	labels := map[string]bool{}
	name := func(n, what string) error {
		if !validName(n) {
			return bad("%s name %q is not valid", what, n)
		}
		if labels[n] {
			return bad("label name %q used twice", n)
		}
		labels[n] = true
		return nil
	}
	sum := 0.0
	for _, l := range s.VertexLabels {
		if err := name(l.Name, "vertex label"); err != nil {
			return err
		}
		if !(l.Share >= 0 && l.Share <= 1) {
			return bad("share %v of label %q not in [0, 1]", l.Share, l.Name)
		}
		sum += l.Share
		seen := map[int]bool{}
		for _, u := range l.Properties {
			if u.Property < 0 || u.Property >= len(s.Properties) {
				return bad("label %q uses property type %d of %d", l.Name, u.Property, len(s.Properties))
			}
			if seen[u.Property] {
				return bad("label %q uses property type %d twice", l.Name, u.Property)
			}
			seen[u.Property] = true
			if !(u.Fraction >= 0 && u.Fraction <= 1) {
				return bad("fraction %v of property type %d of label %q not in [0, 1]", u.Fraction, u.Property, l.Name)
			}
		}
	}
	if math.Abs(sum-1) > 1e-9 {
		return bad("label shares sum to %v, not 1", sum)
	}
	props := map[string]bool{}
	for _, p := range s.Properties {
		if !validName(p.Name) || props[p.Name] {
			return bad("property type name %q is not valid or used twice", p.Name)
		}
		props[p.Name] = true
		ok := p.Min < p.Max
		switch p.Kind {
		case String:
			ok = p.Min == 0 && p.Max >= 1 && p.Max <= 1<<24
		case Uint32:
			ok = ok && p.Max <= 1<<32
		case Uint64:
		case Date:
			ok = ok && p.Min >= 1 && p.Max <= 10000
		default:
			return bad("property type %q has kind %v", p.Name, p.Kind)
		}
		if !ok {
			return bad("property type %q (%v) has the bad range [%d, %d)", p.Name, p.Kind, p.Min, p.Max)
		}
	}
	for _, e := range s.EdgeLabels {
		if err := name(e, "edge label"); err != nil {
			return err
		}
	}
	n := len(s.VertexLabels)
	if len(s.EdgeMatrix) != n {
		return bad("edge matrix has %d rows, want %d", len(s.EdgeMatrix), n)
	}
	for i, row := range s.EdgeMatrix {
		if len(row) != n {
			return bad("row %d of the edge matrix has %d columns, want %d", i, len(row), n)
		}
		for j, e := range row {
			if e < 0 || e >= len(s.EdgeLabels) {
				return bad("edge matrix [%d][%d] = %d is no edge label", i, j, e)
			}
			if !directed && e != s.EdgeMatrix[j][i] {
				return bad("edge matrix is not symmetric at [%d][%d], as undirected edges need", i, j)
			}
		}
	}
	return nil
}

// validName reports whether a name of a Scheme is made of ASCII letters,
// digits and underscores (so that it can name a file and a CSV column) and
// fits GDI's name limit.
func validName(n string) bool {
	if n == "" || len(n) >= gdi.MaxObjectName {
		return false
	}
	for _, c := range []byte(n) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// bounds returns the end of the vertex range of each label for n vertices.
func (s *Scheme) bounds(n uint64) []uint64 {
	b := make([]uint64, len(s.VertexLabels))
	cum := 0.0
	prev := uint64(0)
	for k, l := range s.VertexLabels {
		cum += l.Share
		end := uint64(math.Floor(cum * float64(n)))
		if k == len(b)-1 || end > n {
			end = n
		}
		end = max(end, prev)
		b[k], prev = end, end
	}
	return b
}

// VertexLabel returns the label (an index into Scheme().VertexLabels) of
// vertex x.
func (g *Graph) VertexLabel(x uint64) int {
	for k, b := range g.bounds {
		if x < b {
			return k
		}
	}
	return len(g.bounds) - 1
}

// LabelRange returns the vertex numbers [lo, hi) of label k.
func (g *Graph) LabelRange(k int) (lo, hi uint64) {
	if k > 0 {
		lo = g.bounds[k-1]
	}
	return lo, g.bounds[k]
}

// EdgeLabel returns the label (an index into Scheme().EdgeLabels) of the
// edge from u to v.
func (g *Graph) EdgeLabel(u, v uint64) int {
	return g.scheme.EdgeMatrix[g.VertexLabel(u)][g.VertexLabel(v)]
}

// rand returns random number j of property p of vertex x.
func (g *Graph) rand(x uint64, p int, j uint64) uint64 {
	return mix(mix(g.propKey+x*golden) + (uint64(p)<<32+j+1)*golden)
}

// uniform maps a random number to [0, n).
func uniform(r, n uint64) uint64 {
	hi, _ := bits.Mul64(r, n)
	return hi
}

// Carries reports whether vertex x carries property type p (an index into
// Scheme().Properties): p belongs to the label of x and the draw for its
// Fraction succeeds.
func (g *Graph) Carries(x uint64, p int) bool {
	for _, u := range g.scheme.VertexLabels[g.VertexLabel(x)].Properties {
		if u.Property == p {
			return g.carries(x, u)
		}
	}
	return false
}

func (g *Graph) carries(x uint64, u PropertyUse) bool {
	switch {
	case u.Fraction >= 1:
		return true
	case u.Fraction <= 0:
		return false
	}
	return g.rand(x, u.Property, 0) < uint64(u.Fraction*(1<<64))
}

// drawn is a value before it becomes text or a gdi.Value: str for String,
// n for the integers, and year, month, day for Date.
type drawn struct {
	str              []byte
	n                uint64
	year, month, day int
}

// draw draws the value of property p of vertex x, appending a string to
// buf.
func (g *Graph) draw(x uint64, p int, buf []byte) drawn {
	spec := &g.scheme.Properties[p]
	r := g.rand(x, p, 1)
	switch spec.Kind {
	case String:
		n := uniform(r, spec.Max)
		buf = slices.Grow(buf, int(n))
		j := uint64(2)
		for n > 0 {
			r := g.rand(x, p, j)
			j++
			for k := 0; k < 8 && n > 0; k++ {
				hi, lo := bits.Mul64(r, 26)
				buf = append(buf, 'a'+byte(hi))
				r = lo
				n--
			}
		}
		return drawn{str: buf}
	case Date:
		year := spec.Min + uniform(r, spec.Max-spec.Min)
		r2 := g.rand(x, p, 2)
		return drawn{year: int(year), month: 1 + int(uniform(r2, 12)), day: 1 + int(uniform(mix(r2), 28))}
	}
	return drawn{n: spec.Min + uniform(r, spec.Max-spec.Min)}
}

// Value returns the value of property type p (an index into
// Scheme().Properties) of vertex x, and false if x does not carry p.
func (g *Graph) Value(x uint64, p int) (gdi.Value, bool) {
	if !g.Carries(x, p) {
		return gdi.Value{}, false
	}
	return g.value(x, p), true
}

func (g *Graph) value(x uint64, p int) gdi.Value {
	// Most strings fit: then the value's own copy is the one allocation.
	var buf [128]byte
	d := g.draw(x, p, buf[:0])
	switch g.scheme.Properties[p].Kind {
	case String:
		return gdi.Chars(string(d.str))
	case Uint32:
		return gdi.Uint32s(uint32(d.n))
	case Uint64:
		return gdi.Uint64s(d.n)
	}
	date, err := gdi.NewDate(d.year, d.month, d.day)
	if err != nil {
		panic(err) // cannot happen: Validate bounds the year, days stop at 28
	}
	return gdi.Dates(date)
}

// Property is a property of a vertex: the index of its type in
// Scheme().Properties and its value.
type Property struct {
	Type  int
	Value gdi.Value
}

// VertexProperties returns the properties of vertex x, in the order of its
// label's PropertyUse list.
func (g *Graph) VertexProperties(x uint64) []Property {
	uses := g.scheme.VertexLabels[g.VertexLabel(x)].Properties
	ps := make([]Property, 0, len(uses))
	for _, u := range uses {
		if g.carries(x, u) {
			ps = append(ps, Property{u.Property, g.value(x, u.Property)})
		}
	}
	return ps
}

// appendText appends the CSV text of property p of vertex x (nothing if x
// does not carry it, which a CSV loader reads as a missing property).
func (g *Graph) appendText(buf []byte, x uint64, u PropertyUse) []byte {
	if !g.carries(x, u) {
		return buf
	}
	switch g.scheme.Properties[u.Property].Kind {
	case String:
		return g.draw(x, u.Property, buf).str
	case Date:
		d := g.draw(x, u.Property, nil)
		buf = appendPadded(buf, d.year, 4)
		buf = append(buf, '-')
		buf = appendPadded(buf, d.month, 2)
		buf = append(buf, '-')
		return appendPadded(buf, d.day, 2)
	}
	return strconv.AppendUint(buf, g.draw(x, u.Property, nil).n, 10)
}

func appendPadded(buf []byte, n, width int) []byte {
	s := strconv.Itoa(n)
	for range width - len(s) {
		buf = append(buf, '0')
	}
	return append(buf, s...)
}

// EachRankEdge calls fn for every edge of the slice of rank (of size ranks,
// see RankSlice), in the order of edge index, with its ends and its label
// (EdgeLabel). It stops at the first error of fn and returns it.
func (g *Graph) EachRankEdge(rank, size int, fn func(u, v uint64, label int) error) error {
	lo, hi := g.RankSlice(rank, size)
	const chunk = 1 << 14
	us, vs := make([]uint64, chunk), make([]uint64, chunk)
	for a := lo; a < hi; a += chunk {
		n := min(chunk, hi-a)
		g.Fill(a, us[:n], vs[:n])
		for i := range n {
			if err := fn(us[i], vs[i], g.EdgeLabel(us[i], vs[i])); err != nil {
				return err
			}
		}
	}
	return nil
}
