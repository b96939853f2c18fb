package conformance

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// FuzzConstraints decodes its input into a small graph and a constraint and
// runs the same program on every backend given:
//
//   - three labels and four property types of fuzzed datatypes, entity and
//     size types, plus a Char type "eid" that names each edge;
//   - up to six vertices and six edges (directed or undirected, loops
//     included) with fuzzed labels and property values, committed in one
//     transaction (values may have the wrong datatype or size, or be zero);
//   - a constraint of up to three subconstraints of up to three label and
//     property conditions with fuzzed labels (LabelNone included), property
//     types (the ID and degree types included), operations (invalid ones
//     included) and values; or a nil constraint;
//   - the queries VerticesOfIndex, EdgesOfIndex, and Edges and Neighbors of
//     every vertex with a fuzzed orientation, all under the constraint.
//
// Every call's error class and every query's result go into a transcript.
// Each backend must agree with a model that evaluates the accepted
// conditions with gdi.DNF on the accepted labels and values, and all
// backends must write the same transcript. No call may panic or return an
// error without a GDI code.
func FuzzConstraints(f *testing.F, backends ...Backend) {
	f.Add([]byte{})
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f"))
	// Int64 and Char types, vertices with labels and values, label and
	// property conditions.
	f.Add([]byte("\x05\x00\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x04\x03\x01\x02\x00\x01\x01\x01\x02\x00\x01\x02\x01\x05\x02\x01\x01\x00\x02\x01\x01\x01\x03\x01\x02\x00\x01\x03\x03\x00\x01\x02\x01\x01\x01\x00\x01\x05\x01"))
	f.Add([]byte(strings.Repeat("\x07", 200)))
	f.Add([]byte(strings.Repeat("\xff\x00\x13", 100)))
	f.Add([]byte(strings.Repeat("\x02\x05\x09", 100)))
	f.Fuzz(func(t *testing.T, in []byte) {
		var transcripts [][]string
		for _, b := range backends {
			var tr []string
			err := onOneRank(b, func(db gdi.Database, c rma.Comm) error {
				var err error
				tr, err = constraintProgram(db, &fuzzReader{b: in})
				return err
			})
			if err != nil {
				t.Fatalf("%s: %v", b.Name, err)
			}
			transcripts = append(transcripts, tr)
		}
		if testing.Verbose() && len(transcripts) > 0 {
			t.Logf("transcript:\n%s", strings.Join(transcripts[0], "\n"))
		}
		for i := 1; i < len(transcripts); i++ {
			if !slices.Equal(transcripts[0], transcripts[i]) {
				t.Fatalf("%s and %s differ:\n%s", backends[0].Name, backends[i].Name, diffLines(transcripts[0], transcripts[i]))
			}
		}
	})
}

// diffLines shows the first line where a and b differ, with context.
func diffLines(a, b []string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-3, 0)
	var sb strings.Builder
	for j := lo; j < i; j++ {
		fmt.Fprintf(&sb, "  = %s\n", a[j])
	}
	if i < len(a) {
		fmt.Fprintf(&sb, "  A %s\n", a[i])
	}
	if i < len(b) {
		fmt.Fprintf(&sb, "  B %s\n", b[i])
	}
	return sb.String()
}

// fuzzReader hands out the bytes of a fuzz input, then zeros.
type fuzzReader struct{ b []byte }

func (r *fuzzReader) byte() byte {
	if len(r.b) == 0 {
		return 0
	}
	x := r.b[0]
	r.b = r.b[1:]
	return x
}

func (r *fuzzReader) n(k int) int { return int(r.byte()) % k }

func (r *fuzzReader) bytes(n int) []byte {
	n = min(n, len(r.b))
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// fuzzTexts are CSV texts of values; each parses as some datatypes.
var fuzzTexts = []string{"0", "1", "-1", "7;-7", "255", "3;1;2", "2020-01-02", "1999-12-31;2020-02-29",
	"12:00:00.000", "23:59:59.999;00:00:00.000", "+0100 2020-01-01 00:00:00.000", "-0130 1970-01-01 12:00:00.500",
	"true", "false;true", "aGVsbG8=", "", "abc", "ab;c", "1.5", "-0.0;NaN", "1e308", "-2.5;2.5", "0.001"}

// value returns a value for a property of datatype dt: usually of dt,
// sometimes of another datatype; from raw bytes or from a text; possibly
// the zero Value.
func (r *fuzzReader) value(dt gdi.Datatype) gdi.Value {
	mode := r.byte()
	if mode&3 == 0 {
		all := gdi.Datatypes()
		dt = all[r.n(len(all))]
	}
	if mode&4 != 0 {
		if v, err := gdi.NewValue(dt, r.bytes(r.n(17))); err == nil {
			return v
		}
	}
	if mode&8 != 0 {
		return gdi.Value{}
	}
	v, ok, err := gdi.ParseCSVValue(dt, fuzzTexts[r.n(len(fuzzTexts))], ';')
	if err != nil || !ok {
		return gdi.Value{}
	}
	return v
}

// modelObject is a vertex or edge as the model sees it.
type modelObject struct {
	name           string // v<i> or e<i>
	labels         []gdi.Label
	props          map[gdi.PropertyType][]gdi.Value
	dir            gdi.DirectionType // edges
	origin, target int               // edges: vertex numbers
}

func (o *modelObject) Labels() []gdi.Label                   { return o.labels }
func (o *modelObject) Values(p gdi.PropertyType) []gdi.Value { return o.props[p] }

// transcript records calls and their error classes.
type transcript struct{ lines []string }

func (tr *transcript) call(what string, err error) error {
	tr.lines = append(tr.lines, fmt.Sprintf("%s: %v", what, gdi.ErrorClass(err)))
	return mustCode(what, err)
}

func (tr *transcript) printf(format string, args ...any) {
	tr.lines = append(tr.lines, fmt.Sprintf(format, args...))
}

// constraintProgram runs the program that r describes on db (see
// FuzzConstraints) and returns its transcript.
func constraintProgram(db gdi.Database, r *fuzzReader) ([]string, error) {
	tr := &transcript{}
	var labels []gdi.Label
	for _, name := range []string{"L0", "L1", "L2"} {
		l, err := db.CreateLabel(name)
		if err != nil {
			return nil, err
		}
		labels = append(labels, l)
	}
	// Property types 0 to 3 are fuzzed; 4 is eid, 5 the ID, 6 the degree.
	var ptypes []gdi.PropertyType
	var dts []gdi.Datatype
	all := gdi.Datatypes()
	for i := range 4 {
		info := gdi.PropertyTypeInfo{Name: fmt.Sprintf("p%d", i), Datatype: all[r.n(len(all))], Entity: gdi.SingleEntity}
		b := r.byte()
		if b&1 != 0 {
			info.Entity = gdi.MultipleEntity
		}
		switch (b >> 1) % 3 {
		case 0:
			info.Size, info.Count = gdi.FixedSize, 1+int(b>>3)%2
		case 1:
			info.Size, info.Count = gdi.MaxSize, 1+int(b>>3)%3
		default:
			info.Size = gdi.NoSizeLimit
		}
		p, err := db.CreatePropertyType(info)
		if err := tr.call(fmt.Sprintf("CreatePropertyType(%v %v %v %v %d)", info.Name, info.Datatype, info.Entity, info.Size, info.Count), err); err != nil {
			return nil, err
		}
		ptypes, dts = append(ptypes, p), append(dts, info.Datatype)
	}
	eid, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "eid", Datatype: gdi.Char, Entity: gdi.SingleEntity, Size: gdi.NoSizeLimit})
	if err != nil {
		return nil, err
	}
	ptypes = append(ptypes, eid, gdi.PropertyTypeID, gdi.PropertyTypeDegree)
	dts = append(dts, gdi.Char, gdi.Byte, gdi.Uint64)
	idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
	if err != nil {
		return nil, err
	}
	defer idx.Free()
	if err := idx.AddLabelsAndPropertyTypes(append(slices.Clone(labels), gdi.LabelNone), nil); err != nil {
		return nil, err
	}

	// The graph.
	var vertices, edges []*modelObject
	addLabelsAndValues := func(o *modelObject, h interface {
		AddLabel(gdi.Label) error
		AddProperty(gdi.PropertyType, gdi.Value) error
	}) error {
		bits := r.byte()
		for i, l := range labels {
			if bits&(1<<i) == 0 {
				continue
			}
			err := h.AddLabel(l)
			if err := tr.call(fmt.Sprintf("%s.AddLabel(L%d)", o.name, i), err); err != nil {
				return err
			}
			if err == nil && !slices.Contains(o.labels, l) {
				o.labels = append(o.labels, l)
			}
		}
		for range r.n(4) {
			i := r.n(4)
			v := r.value(dts[i])
			err := h.AddProperty(ptypes[i], v)
			if err := tr.call(fmt.Sprintf("%s.AddProperty(p%d, %v %v)", o.name, i, v.Datatype(), v), err); err != nil {
				return err
			}
			if err == nil {
				o.props[ptypes[i]] = append(o.props[ptypes[i]], v)
			}
		}
		return nil
	}
	tx, err := db.StartTransaction()
	if err != nil {
		return nil, err
	}
	var holders []gdi.VertexHolder
	for i := range 2 + r.n(5) {
		o := &modelObject{name: fmt.Sprintf("v%d", i), props: map[gdi.PropertyType][]gdi.Value{}}
		h, err := tx.CreateVertex([]byte(o.name))
		if err != nil {
			return nil, errors.Join(err, tx.Abort())
		}
		o.props[gdi.PropertyTypeID] = []gdi.Value{gdi.Bytes([]byte(o.name))}
		if err := addLabelsAndValues(o, h); err != nil {
			return nil, errors.Join(err, tx.Abort())
		}
		vertices, holders = append(vertices, o), append(holders, h)
	}
	for i := range r.n(7) {
		o := &modelObject{name: fmt.Sprintf("e%d", i), props: map[gdi.PropertyType][]gdi.Value{},
			dir: gdi.Directed + gdi.DirectionType(r.n(2)), origin: r.n(len(vertices)), target: r.n(len(vertices))}
		h, err := tx.CreateEdge(o.dir, holders[o.origin], holders[o.target])
		if err != nil {
			return nil, errors.Join(err, tx.Abort())
		}
		if err := h.AddProperty(eid, gdi.Chars(o.name)); err != nil {
			return nil, errors.Join(err, tx.Abort())
		}
		o.props[eid] = []gdi.Value{gdi.Chars(o.name)}
		if err := addLabelsAndValues(o, h); err != nil {
			return nil, errors.Join(err, tx.Abort())
		}
		edges = append(edges, o)
	}
	err = tx.Commit()
	if e := tr.call("Commit", err); e != nil {
		return nil, e
	}
	if err != nil {
		return tr.lines, nil
	}
	degree := make([]uint64, len(vertices))
	for _, e := range edges {
		degree[e.origin]++
		degree[e.target]++
	}
	for i, v := range vertices {
		v.props[gdi.PropertyTypeDegree] = []gdi.Value{gdi.Uint64s(degree[i])}
	}

	// The constraint.
	var c gdi.Constraint
	var dnf gdi.DNF
	if r.byte()%8 != 0 {
		if c, err = db.CreateConstraint(); err != nil {
			return nil, err
		}
		defer c.Free()
		dnf = gdi.DNF{}
		for i := range r.n(4) {
			s, err := db.CreateSubconstraint()
			if err != nil {
				return nil, err
			}
			var conj gdi.Conjunction
			for range r.n(4) {
				op := gdi.Op(r.n(8))
				if r.byte()&1 == 0 {
					li := r.n(len(labels) + 1)
					l := gdi.LabelNone
					if li < len(labels) {
						l = labels[li]
					}
					err := s.AddLabelCondition(l, op)
					if err := tr.call(fmt.Sprintf("s%d.AddLabelCondition(L%d, %v)", i, li, op), err); err != nil {
						return nil, errors.Join(err, s.Free())
					}
					if err == nil {
						conj.Labels = append(conj.Labels, gdi.LabelCondition{Label: l, Op: op})
					}
					continue
				}
				pi := r.n(len(ptypes))
				v := r.value(dts[pi])
				err := s.AddPropertyCondition(ptypes[pi], op, v)
				if err := tr.call(fmt.Sprintf("s%d.AddPropertyCondition(p%d, %v, %v %v)", i, pi, op, v.Datatype(), v), err); err != nil {
					return nil, errors.Join(err, s.Free())
				}
				if err == nil {
					conj.Properties = append(conj.Properties, gdi.PropertyCondition{PropertyType: ptypes[pi], Op: op, Value: v})
				}
			}
			for range 1 + r.n(2) { // a subconstraint may be added twice
				err := c.AddSubconstraint(s)
				if err := tr.call(fmt.Sprintf("AddSubconstraint(s%d)", i), err); err != nil {
					return nil, errors.Join(err, s.Free())
				}
				if err == nil {
					dnf = append(dnf, conj)
				}
			}
			if err := s.Free(); err != nil {
				return nil, err
			}
		}
	}
	// match evaluates the model; a nil dnf (nil constraint) matches all.
	match := func(o *modelObject) (bool, error) {
		if dnf == nil {
			return true, nil
		}
		return dnf.Eval(o)
	}
	// want returns the names of the objects that match, sorted, or the
	// error class of the first that cannot be evaluated.
	want := func(objs []*modelObject) ([]string, gdi.Code) {
		var names []string
		for _, o := range objs {
			ok, err := match(o)
			if err != nil {
				return nil, gdi.ErrorClass(err)
			}
			if ok {
				names = append(names, o.name)
			}
		}
		slices.Sort(names)
		return names, gdi.Success
	}

	// The queries.
	tx, err = db.StartTransaction()
	if err != nil {
		return nil, err
	}
	defer tx.Abort()
	nameOf := func(h interface {
		Properties(gdi.PropertyType) ([]gdi.Value, error)
	}, p gdi.PropertyType) (string, error) {
		vals, err := h.Properties(p)
		if err != nil {
			return "", err
		}
		if len(vals) != 1 {
			return "", fmt.Errorf("an object with %d names", len(vals))
		}
		return string(vals[0].Raw()), nil
	}
	vertexNames := func(uids []gdi.VertexUID) ([]string, error) {
		var names []string
		for _, u := range uids {
			h, err := tx.AssociateVertex(u)
			if err != nil {
				return nil, err
			}
			name, err := nameOf(h, gdi.PropertyTypeID)
			if err != nil {
				return nil, err
			}
			names = append(names, name)
		}
		slices.Sort(names)
		return names, nil
	}
	edgeNames := func(uids []gdi.EdgeUID) ([]string, error) {
		var names []string
		for _, u := range uids {
			h, err := tx.AssociateEdge(u)
			if err != nil {
				return nil, err
			}
			name, err := nameOf(h, eid)
			if err != nil {
				return nil, err
			}
			names = append(names, name)
		}
		slices.Sort(names)
		return names, nil
	}
	// check records a query's outcome and compares it with the model.
	check := func(what string, got []string, err error, want []string, wantErr gdi.Code) error {
		if err := tr.call(what, err); err != nil {
			return err
		}
		tr.printf("%s = %q", what, got)
		if gdi.ErrorClass(err) != wantErr {
			return fmt.Errorf("%s: %v, the model says %v", what, err, wantErr)
		}
		if err == nil && !slices.Equal(got, want) {
			return fmt.Errorf("%s = %q, the model says %q", what, got, want)
		}
		return nil
	}

	uidOf := map[string]gdi.VertexUID{}
	allUIDs, err := tx.VerticesOfIndex(idx, nil)
	if err != nil {
		return nil, err
	}
	for _, u := range allUIDs {
		h, err := tx.AssociateVertex(u)
		if err != nil {
			return nil, err
		}
		name, err := nameOf(h, gdi.PropertyTypeID)
		if err != nil {
			return nil, err
		}
		uidOf[name] = u
	}
	if len(uidOf) != len(vertices) {
		return nil, fmt.Errorf("the index holds %d vertices, want %d", len(uidOf), len(vertices))
	}
	uids, err := tx.VerticesOfIndex(idx, c)
	var got []string
	if err == nil {
		if got, err = vertexNames(uids); err != nil {
			return nil, err
		}
	}
	w, werr := want(vertices)
	if err := check("VerticesOfIndex", got, err, w, werr); err != nil {
		return nil, err
	}
	euids, err := tx.EdgesOfIndex(idx, c)
	got = nil
	if err == nil {
		if got, err = edgeNames(euids); err != nil {
			return nil, err
		}
	}
	w, werr = want(edges)
	if err := check("EdgesOfIndex", got, err, w, werr); err != nil {
		return nil, err
	}
	for i := range vertices {
		o := gdi.Orientation(r.n(8))
		h, err := tx.AssociateVertex(uidOf[vertices[i].name])
		if err != nil {
			return nil, err
		}
		// The edges of vertex i that o selects.
		var mine []*modelObject
		for _, e := range edges {
			switch {
			case e.dir == gdi.Undirected && (e.origin == i || e.target == i) && o&gdi.EdgeUndirected != 0,
				e.dir == gdi.Directed && e.origin == i && o&gdi.EdgeOutgoing != 0,
				e.dir == gdi.Directed && e.target == i && o&gdi.EdgeIncoming != 0:
				mine = append(mine, e)
			}
		}
		w, werr := want(mine)
		if o.Valid() != nil {
			w, werr = nil, gdi.ErrEdgeOrientation
		}
		euids, err := h.Edges(o, c)
		got = nil
		if err == nil {
			if got, err = edgeNames(euids); err != nil {
				return nil, err
			}
		}
		if err := check(fmt.Sprintf("v%d.Edges(%d)", i, o), got, err, w, werr); err != nil {
			return nil, err
		}
		// Neighbors: the other ends of those edges, each once.
		var wn []string
		for _, name := range w {
			e := edges[slices.IndexFunc(edges, func(e *modelObject) bool { return e.name == name })]
			other := e.origin
			if other == i {
				other = e.target
			}
			if n := vertices[other].name; !slices.Contains(wn, n) {
				wn = append(wn, n)
			}
		}
		slices.Sort(wn)
		nuids, err := h.Neighbors(o, c)
		got = nil
		if err == nil {
			if got, err = vertexNames(nuids); err != nil {
				return nil, err
			}
		}
		if err := check(fmt.Sprintf("v%d.Neighbors(%d)", i, o), got, err, wn, werr); err != nil {
			return nil, err
		}
	}
	return tr.lines, nil
}
