package conformance

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// fuzzEdgeIDs are the application IDs of the vertices FuzzEdgeCSV commits
// before each load, all with label V; the last two are awkward bytes.
var fuzzEdgeIDs = []string{"1", "2", "3", "\x00", "é"}

// edgeLine is what a line of an edge file should become: the IDs of its
// ends and the values of the property columns that fit their types.
type edgeLine struct {
	origin, target string
	undirected     bool
	n, s           gdi.Value // zero: no value
}

func (l edgeLine) key() string {
	o, t, arrow := l.origin, l.target, ">"
	if l.undirected {
		arrow = "-"
		if t < o {
			o, t = t, o
		}
	}
	return fmt.Sprintf("%q%s%q n=%v s=%v", o, arrow, t, l.n, l.s)
}

// modelEdgeCSV reads file as the specification describes a CSV file with
// text IDs, '|' between fields and ';' between elements, two ID columns and
// the columns n (Int64, at most 3 elements) and s (Char, at most 8): it
// returns the edges a load must create, whether it must warn (a line names
// an unknown vertex or a value does not fit), and whether the file is
// malformed (a line with the wrong number of fields or a field that does
// not parse).
func modelEdgeCSV(file string, header, undirected bool, known map[string]bool) (edges []edgeLine, warn, malformed bool) {
	for i, line := range strings.Split(file, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || (i == 0 && header) {
			continue
		}
		fields := gdi.SplitCSVLine(line, '|')
		if len(fields) != 4 {
			return nil, false, true
		}
		e := edgeLine{undirected: undirected}
		var err1, err2, err3, err4 error
		e.origin, err1 = gdi.UnescapeCSV(fields[0])
		e.target, err2 = gdi.UnescapeCSV(fields[1])
		e.n, _, err3 = gdi.ParseCSVValue(gdi.Int64, fields[2], ';')
		e.s, _, err4 = gdi.ParseCSVValue(gdi.Char, fields[3], ';')
		if errors.Join(err1, err2, err3, err4) != nil {
			return nil, false, true
		}
		if !known[e.origin] || !known[e.target] {
			warn = true
			continue
		}
		if e.n.Len() > 3 {
			e.n, warn = gdi.Value{}, true
		}
		if e.s.Len() > 8 {
			e.s, warn = gdi.Value{}, true
		}
		edges = append(edges, e)
	}
	return edges, warn, false
}

// FuzzEdgeCSV loads arbitrary files with LoadEdgeCSV into a database that
// holds five committed vertices (label V, IDs fuzzEdgeIDs, the first with
// the property n = [7]). The file has text IDs, '|' between fields, ';'
// between elements, and the property columns n (Int64, at most 3 elements)
// and s (Char, at most 8); flags bit 0 makes the edges undirected and bit 1
// says the file has a header. Every edge gets label E.
//
// The outcome must be exactly what the specification describes (section
// 14): ErrFileFormat and no edge at all for a malformed file; otherwise one
// edge per line between known vertices, with the values that fit, and
// WarnNotAllDataLoaded if anything was skipped. Afterwards the vertices and
// their properties are as committed, the degrees agree with the edges, and a
// new transaction can add an edge and commit.
func FuzzEdgeCSV(f *testing.F, b Backend) {
	f.Add("o|t|n|s\n1|2|1;2|ab\n2|3||\n", byte(2))
	f.Add("1|2|1;2;3;4|toolongstring\n3|3||\n", byte(1))
	f.Add("1|nobody||\n\\x|1||\n", byte(0))
	f.Add("1|2|3\n", byte(0))
	f.Add("1|2|3|4|5\n", byte(0))
	f.Add("1|2|x|\n", byte(0))
	f.Add("1|2|1|a\\\n", byte(0))
	f.Add("1|2||\\|\n", byte(0))
	f.Add("\x00|é|-9223372036854775808|\xff\xfe\n\r\n2|1||\x00\r\n", byte(1))
	f.Add("o|t|n|s\r\n1\\|2|3||\n", byte(2))
	f.Add("1|1|1|"+strings.Repeat("z", 5000)+"\n1|2|"+strings.Repeat("9;", 2000)+"9|\n", byte(0))
	f.Add(strings.Repeat("1|2||\n", 100), byte(1))
	f.Fuzz(func(t *testing.T, file string, flags byte) {
		undirected, header := flags&1 != 0, flags&2 != 0
		dir := gdi.Directed
		if undirected {
			dir = gdi.Undirected
		}
		known := map[string]bool{}
		for _, id := range fuzzEdgeIDs {
			known[id] = true
		}
		want, warn, malformed := modelEdgeCSV(file, header, undirected, known)
		err := onOneRank(b, func(db gdi.Database, c rma.Comm) error {
			want := want // each rank's
			loader, ok := db.(gdi.CSVLoader)
			if !ok {
				return nil
			}
			v, err := db.CreateLabel("V")
			if err != nil {
				return err
			}
			el, err := db.CreateLabel("E")
			if err != nil {
				return err
			}
			n, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "n", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.MaxSize, Count: 3})
			if err != nil {
				return err
			}
			s, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "s", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.MaxSize, Count: 8})
			if err != nil {
				return err
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			if err := inTx(db, func(tx gdi.Transaction) error {
				if c.Rank() != 0 {
					return nil // rank 0 makes the vertices
				}
				for i, id := range fuzzEdgeIDs {
					h, err := tx.CreateVertex([]byte(id))
					if err != nil {
						return err
					}
					if err := h.AddLabel(v); err != nil {
						return err
					}
					if i == 0 {
						if err := h.AddProperty(n, gdi.Int64s(7)); err != nil {
							return err
						}
					}
				}
				return nil
			}); err != nil {
				return fmt.Errorf("committing the vertices: %w", err)
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			loadErr := loader.LoadEdgeCSV(gdi.EdgeCSV{
				CSVFile: gdi.CSVFile{FS: fstest.MapFS{"e.csv": {Data: []byte(file)}}, Path: "e.csv", Header: header,
					FieldDelimiter: '|', ElementDelimiter: ';', Sort: gdi.NoSorting, TextIDs: true},
				Direction: dir, PropertyTypes: []gdi.PropertyType{n, s}, Labels: []gdi.Label{el},
				OriginLabel: v, TargetLabel: v,
			})
			if err := mustCode("LoadEdgeCSV", loadErr); err != nil {
				return err
			}
			wantClass := gdi.Success
			switch {
			case malformed:
				wantClass, want = gdi.ErrFileFormat, nil
			case warn:
				wantClass = gdi.WarnNotAllDataLoaded
			}
			if got := gdi.ErrorClass(loadErr); got != wantClass {
				return fmt.Errorf("LoadEdgeCSV returned %v (%v), want %v", got, loadErr, wantClass)
			}
			if err := checkEdgeLoad(db, v, el, n, s, want); err != nil {
				return fmt.Errorf("after LoadEdgeCSV (%v): %w", loadErr, err)
			}
			// The database still takes transactions (rank 0 makes an
			// edge, once every rank has checked the load).
			if err := c.Barrier(); err != nil {
				return err
			}
			if err := inTx(db, func(tx gdi.Transaction) error {
				if c.Rank() != 0 {
					return nil
				}
				a, err := findVertex(tx, v, "1")
				if err != nil {
					return err
				}
				b, err := findVertex(tx, v, "2")
				if err != nil {
					return err
				}
				_, err = tx.CreateEdge(gdi.Directed, a, b)
				return err
			}); err != nil {
				return fmt.Errorf("adding an edge after the load: %w", err)
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			want = append(slices.Clone(want), edgeLine{origin: "1", target: "2"})
			if err := checkEdgeLoad(db, v, gdi.LabelNone, n, s, want); err != nil {
				return fmt.Errorf("after adding an edge: %w", err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func findVertex(tx gdi.Transaction, l gdi.Label, id string) (gdi.VertexHolder, error) {
	uid, found, err := tx.TranslateVertexID(l, []byte(id))
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("vertex %q with label %v not found", id, l)
	}
	return tx.AssociateVertex(uid)
}

// checkEdgeLoad checks that the database holds the vertices of
// fuzzEdgeIDs as committed and exactly the edges want, each with label el
// (unless el is LabelNone, which skips the label check).
func checkEdgeLoad(db gdi.Database, v, el gdi.Label, n, s gdi.PropertyType, want []edgeLine) error {
	return inTx(db, func(tx gdi.Transaction) error {
		idOf := map[gdi.VertexUID]string{}
		edges := map[gdi.EdgeUID]bool{}
		var holders []gdi.VertexHolder
		for _, id := range fuzzEdgeIDs {
			h, err := findVertex(tx, v, id)
			if err != nil {
				return err
			}
			uid, err := h.UID()
			if err != nil {
				return err
			}
			idOf[uid] = id
			holders = append(holders, h)
			labels, err := h.Labels()
			if err != nil {
				return err
			}
			if len(labels) != 1 || labels[0] != v {
				return fmt.Errorf("vertex %q has labels %v, want [%v]", id, labels, v)
			}
			vals, err := h.Properties(n)
			if err != nil {
				return err
			}
			wantN := []gdi.Value(nil)
			if id == fuzzEdgeIDs[0] {
				wantN = []gdi.Value{gdi.Int64s(7)}
			}
			if !slices.Equal(vals, wantN) {
				return fmt.Errorf("vertex %q has n = %v, want %v", id, vals, wantN)
			}
			es, err := h.Edges(gdi.EdgeAll, nil)
			if err != nil {
				return err
			}
			for _, e := range es {
				edges[e] = true
			}
		}
		var got []string
		degree := map[string]uint64{}
		for e := range edges {
			eh, err := tx.AssociateEdge(e)
			if err != nil {
				return err
			}
			o, t, err := eh.Vertices()
			if err != nil {
				return err
			}
			oid, ok1 := idOf[o]
			tid, ok2 := idOf[t]
			if !ok1 || !ok2 {
				return fmt.Errorf("edge %v joins %v and %v, not both known vertices", e, o, t)
			}
			degree[oid]++
			degree[tid]++
			d, err := eh.Direction()
			if err != nil {
				return err
			}
			if el != gdi.LabelNone {
				labels, err := eh.Labels()
				if err != nil {
					return err
				}
				if len(labels) != 1 || labels[0] != el {
					return fmt.Errorf("edge %q-%q has labels %v, want [%v]", oid, tid, labels, el)
				}
			}
			line := edgeLine{origin: oid, target: tid, undirected: d == gdi.Undirected}
			for _, col := range []struct {
				p   gdi.PropertyType
				val *gdi.Value
			}{{n, &line.n}, {s, &line.s}} {
				vals, err := eh.Properties(col.p)
				if err != nil {
					return err
				}
				if len(vals) > 1 {
					return fmt.Errorf("edge %q-%q has %d values of a single-entity type", oid, tid, len(vals))
				}
				if len(vals) == 1 {
					*col.val = vals[0]
				}
			}
			got = append(got, line.key())
		}
		var wantKeys []string
		for _, e := range want {
			wantKeys = append(wantKeys, e.key())
		}
		slices.Sort(got)
		slices.Sort(wantKeys)
		if !slices.Equal(got, wantKeys) {
			return fmt.Errorf("the edges are\n\t%q\nwant\n\t%q", got, wantKeys)
		}
		for i, h := range holders {
			vals, err := h.Properties(gdi.PropertyTypeDegree)
			if err != nil {
				return err
			}
			id := fuzzEdgeIDs[i]
			if len(vals) != 1 || vals[0] != gdi.Uint64s(degree[id]) {
				return fmt.Errorf("vertex %q has degree %v, want %d", id, vals, degree[id])
			}
		}
		return nil
	})
}
