package graphalytics

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

const datasets = "../../../shared/testdata/graphalytics/datasets"

// Names are the 14 graphs of the official small suite.
var names = []string{
	"example-directed", "example-undirected",
	"test-bfs-directed", "test-bfs-undirected", "test-cdlp-directed", "test-cdlp-undirected",
	"test-lcc-directed", "test-lcc-undirected", "test-pr-directed", "test-pr-undirected",
	"test-sssp-directed", "test-sssp-undirected", "test-wcc-directed", "test-wcc-undirected",
}

func needData(t testing.TB) {
	if _, err := os.Stat(datasets); err != nil {
		t.Skipf("no Graphalytics data sets: %v", err)
	}
}

func TestReadDatasets(t *testing.T) {
	needData(t)
	for _, name := range names {
		d, err := ReadDataset(datasets, name)
		if err != nil {
			t.Fatal(err)
		}
		nv, _ := d.PropUint("meta.vertices", 0)
		ne, _ := d.PropUint("meta.edges", 0)
		if uint64(len(d.Vertices)) != nv || uint64(len(d.Edges)) != ne {
			t.Errorf("%s: %d vertices, %d edges; properties say %d, %d", name, len(d.Vertices), len(d.Edges), nv, ne)
		}
		wantDir := strings.HasSuffix(name, "-directed")
		wantW := strings.HasPrefix(name, "example") || strings.HasPrefix(name, "test-sssp")
		if d.Directed != wantDir || d.Weighted != wantW {
			t.Errorf("%s: directed %v weighted %v", name, d.Directed, d.Weighted)
		}
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	props := "graph.g.directed = true\n"
	for _, c := range []struct{ props, v, e, want string }{
		{"", "1\n", "", "no such file"},
		{props, "1\n2\n", "1 2\n1 x\n", "g.e:2"},
		{props, "1\n2\n", "1 2\n1 2 3\n", "g.e:2"},
		{props, "1\n2\n", "1 2 -\n", "not a real"},
		{props, "1\nfoo\n", "1 2\n", "g.v:2"},
		{props, "1\n02\n", "", "g.v:2"},
		{props, "0\n1\n", "00 1\n", "g.e:1"},
		{props, "2\n1\n", "1 2\n", "ascending"},
		{props, "1\n2\n", "1 3\n", "unknown vertex 3"},
		{"graph.g.directed = maybe\n", "1\n", "", "directed"},
		{"junk line\n", "1\n", "", "no '='"},
	} {
		os.Remove(filepath.Join(dir, "g.properties"))
		if c.props != "" {
			write("g.properties", c.props)
		}
		write("g.v", c.v)
		write("g.e", c.e)
		_, err := ReadDataset(dir, "g")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %q %q: error %v, want %q", c.props, c.v, c.e, err, c.want)
		}
	}
}

func TestValidate(t *testing.T) {
	m := func(kv ...string) map[uint64]string {
		out := map[uint64]string{}
		for i := 0; i < len(kv); i += 2 {
			x, _ := parseID(kv[i])
			out[x] = kv[i+1]
		}
		return out
	}
	for _, c := range []struct {
		alg      string
		exp, act map[uint64]string
		ok       bool
	}{
		{"BFS", m("1", "0", "2", "1"), m("1", "0", "2", "1"), true},
		{"BFS", m("1", "0", "2", "1"), m("1", "0", "2", "2"), false},
		{"BFS", m("1", "0", "2", "1"), m("1", "0", "3", "1"), false},
		{"BFS", m("1", "0", "2", "1"), m("1", "0"), false},
		{"CDLP", m("1", "5"), m("1", "5"), true},
		{"WCC", m("1", "1", "2", "1", "3", "3"), m("1", "7", "2", "7", "3", "9"), true},
		{"WCC", m("1", "1", "2", "1", "3", "3"), m("1", "7", "2", "7", "3", "7"), false},
		{"WCC", m("1", "1", "2", "1", "3", "3"), m("1", "7", "2", "8", "3", "9"), false},
		{"PR", m("1", "0.5"), m("1", "0.50004"), true},
		{"PR", m("1", "0.5"), m("1", "0.5001"), false},
		{"SSSP", m("1", "infinity"), m("1", "Infinity"), true},
		{"SSSP", m("1", "infinity"), m("1", "1e300"), false},
		{"SSSP", m("1", "2"), m("1", "infinity"), false},
		{"LCC", m("1", "0"), m("1", "0.0"), true},
		{"LCC", m("1", "0"), m("1", "1e-9"), false},
		{"FOO", m("1", "0"), m("1", "0"), false},
	} {
		err := Validate(c.alg, c.exp, c.act)
		if (err == nil) != c.ok {
			t.Errorf("%s %v vs %v: %v", c.alg, c.exp, c.act, err)
		}
	}
}

// TestLoad loads a weighted data set both ways on 3 ranks and checks the
// vertices, edges and weights through a collective transaction.
func TestLoad(t *testing.T) {
	needData(t)
	d, err := ReadDataset(datasets, "example-directed")
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []LoadMode{LoadCSV, LoadTransactions} {
		err := local.Run(3, func(comm rma.Comm) error {
			db, err := refdb.Driver{}.CreateDatabase(comm, nil)
			if err != nil {
				return err
			}
			defer db.Free()
			s, err := Load(db, comm, d, mode)
			if err != nil {
				return err
			}
			if comm.Rank() != 0 {
				return nil
			}
			tx, err := db.StartTransaction()
			if err != nil {
				return err
			}
			defer tx.Abort()
			weights := 0.0
			for _, e := range d.Edges {
				uid, ok, err := tx.TranslateVertexID(s.Vertex, AppID(e.Src))
				if err != nil || !ok {
					t.Errorf("mode %d: vertex %d: %v %v", mode, e.Src, ok, err)
					continue
				}
				h, _ := tx.AssociateVertex(uid)
				es, err := h.Edges(gdi.EdgeOutgoing, nil)
				if err != nil {
					return err
				}
				for _, eu := range es {
					eh, _ := tx.AssociateEdge(eu)
					_, tgt, _ := eh.Vertices()
					th, _ := tx.AssociateVertex(tgt)
					id, _ := th.Properties(gdi.PropertyTypeID)
					if string(id[0].Raw()) == string(AppID(e.Dst)) {
						w, _ := eh.Properties(s.Weight)
						f, _ := w[0].Float64Slice()
						weights += f[0]
					}
				}
			}
			want := 0.0
			for _, e := range d.Edges {
				want += e.W
			}
			if weights != want {
				t.Errorf("mode %d: weights sum to %v, want %v", mode, weights, want)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("mode %d: %v", mode, err)
		}
	}
}
