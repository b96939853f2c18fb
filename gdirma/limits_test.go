package gdirma_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
)

// The limits tests run an OLTP-like load (several goroutines on every rank
// creating vertices with labels and properties, and heavyweight edges)
// against a database that is deliberately too small, in one resource at a
// time: the block pool, the DHT of the implicit index, and the memory of
// the explicit indexes. They check that
//
//   - running out is reported with the spec's resource error: ErrNoMemory
//     from the call, or ErrTransactionCommitFail from Commit (which rolls
//     back) with the lack of memory as its reason; never a panic, a hang or
//     another class;
//   - every acknowledged commit is intact, and no failed one left a trace;
//   - the holders check out (CheckHolders);
//   - deleting data gives the space back: afterwards new transactions
//     commit again, and the data stays intact.

// limitCase is one resource to exhaust.
type limitCase struct {
	name   string
	params gdirma.Params
	index  bool   // keep an explicit index on label L and property n
	cause  string // in the message of the errors this case is about
}

var limitCases = []limitCase{
	// 64-byte blocks and a long Char value: a vertex spans several
	// blocks, so the pool runs dry in the middle of commits.
	{name: "blocks", params: gdirma.Params{BlockSize: 64, MemoryPerRank: 64 * 96, DHTEntries: 4096}, cause: "no free block"},
	{name: "dht", params: gdirma.Params{BlockSize: 64, MemoryPerRank: 1 << 20, DHTBuckets: 4, DHTEntries: 24}, cause: "dht"},
	{name: "index", params: gdirma.Params{BlockSize: 64, MemoryPerRank: 1 << 20, DHTEntries: 1 << 14, IndexMemoryPerRank: 4096}, index: true, cause: "index"},
}

func TestLimits(t *testing.T) {
	for _, lc := range limitCases {
		for _, ranks := range []int{1, 2, 4} {
			t.Run(fmt.Sprintf("%s/%dranks", lc.name, ranks), func(t *testing.T) {
				testLimit(t, lc, ranks)
			})
		}
	}
}

// limitVertex is what a worker knows of a vertex it committed.
type limitVertex struct {
	id    string
	n     int64
	edges int // edges created with this vertex as origin, all committed
	in    int // edges with this vertex as target
}

// isResource reports whether err is the spec's answer to exhausted
// memory: ErrNoMemory, or a commit that failed for lack of memory, which
// wraps it.
func isResource(err error) bool {
	switch gdi.ErrorClass(err) {
	case gdi.ErrNoMemory:
		return true
	case gdi.ErrTransactionCommitFail:
		return errors.Is(err, gdi.ErrNoMemory)
	}
	return false
}

func testLimit(t *testing.T, lc limitCase, ranks int) {
	workers, maxTx := 3, 400
	if testing.Short() {
		workers, maxTx = 2, 150
	}
	run(t, ranks, lc.params, func(c rma.Comm, db gdi.Database) error {
		l, err := db.CreateLabel("L")
		if err != nil {
			return err
		}
		knows, err := db.CreateLabel("Knows")
		if err != nil {
			return err
		}
		n, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "n", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
		if err != nil {
			return err
		}
		s, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "s", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit})
		if err != nil {
			return err
		}
		if lc.index {
			idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
			if err != nil {
				return err
			}
			if err := idx.AddLabelsAndPropertyTypes([]gdi.Label{l}, []gdi.PropertyType{n}); err != nil {
				return err
			}
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		text := func(id string) gdi.Value { return gdi.Chars(strings.Repeat(id+";", 4)) }

		// Phase 1: fill the database from every worker until each has
		// seen several resource errors in a row.
		kept := make([][]*limitVertex, workers)
		var failedIDs []string
		var mu sync.Mutex
		var resource, commits, cause int
		var wg sync.WaitGroup
		errs := make([]error, workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(c.Rank()), uint64(w)))
				var mine []*limitVertex
				inARow := 0
				for i := 0; i < maxTx && inARow < 4; i++ {
					tx, err := db.StartTransaction()
					if err != nil {
						errs[w] = err
						return
					}
					var created []*limitVertex
					var edgeTo []*limitVertex
					// fail ends the transaction after an error that
					// must be a resource error.
					fail := func(what string, err error) bool {
						if !isResource(err) && gdi.ErrorClass(err) != gdi.ErrTransactionCommitFail {
							errs[w] = fmt.Errorf("%s: %v, want ErrNoMemory or ErrTransactionCommitFail", what, err)
							return false
						}
						if isResource(err) {
							inARow++
							mu.Lock()
							resource++
							if strings.Contains(err.Error(), lc.cause) {
								cause++
							}
							mu.Unlock()
						}
						if what != "Commit" {
							if err := tx.Abort(); err != nil {
								errs[w] = err
								return false
							}
						}
						mu.Lock()
						for _, v := range created {
							failedIDs = append(failedIDs, v.id)
						}
						mu.Unlock()
						return true
					}
					err = func() error {
						var holders []gdi.VertexHolder
						for k := range 1 + rng.IntN(2) {
							v := &limitVertex{id: fmt.Sprintf("r%d-w%d-%d-%d", c.Rank(), w, i, k), n: rng.Int64()}
							h, err := tx.CreateVertex([]byte(v.id))
							if err != nil {
								return fmt.Errorf("CreateVertex: %w", err)
							}
							if err := h.AddLabel(l); err != nil {
								return fmt.Errorf("AddLabel: %w", err)
							}
							if err := h.AddProperty(n, gdi.Int64s(v.n)); err != nil {
								return fmt.Errorf("AddProperty: %w", err)
							}
							if err := h.AddProperty(s, text(v.id)); err != nil {
								return fmt.Errorf("AddProperty: %w", err)
							}
							created, holders = append(created, v), append(holders, h)
						}
						// A heavyweight edge from the first new vertex to
						// one committed before.
						if len(mine) > 0 {
							to := mine[rng.IntN(len(mine))]
							uid, ok, err := tx.TranslateVertexID(l, []byte(to.id))
							if err != nil || !ok {
								return fmt.Errorf("TranslateVertexID(%s): %v %w", to.id, ok, err)
							}
							th, err := tx.AssociateVertex(uid)
							if err != nil {
								return fmt.Errorf("AssociateVertex: %w", err)
							}
							e, err := tx.CreateEdge(gdi.Directed, holders[0], th)
							if err != nil {
								return fmt.Errorf("CreateEdge: %w", err)
							}
							if err := e.AddLabel(knows); err != nil {
								return fmt.Errorf("edge AddLabel: %w", err)
							}
							if err := e.AddProperty(n, gdi.Int64s(int64(i))); err != nil {
								return fmt.Errorf("edge AddProperty: %w", err)
							}
							edgeTo = append(edgeTo, to)
						}
						return nil
					}()
					if err != nil {
						if !fail("transaction", err) {
							return
						}
						continue
					}
					if err := tx.Commit(); err != nil {
						if !fail("Commit", err) {
							return
						}
						continue
					}
					inARow = 0
					mu.Lock()
					commits++
					mu.Unlock()
					if len(edgeTo) > 0 {
						created[0].edges++
						edgeTo[0].in++
					}
					mine = append(mine, created...)
				}
				kept[w] = mine
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		total := []int64{int64(resource), int64(commits), int64(cause)}
		if err := c.AllreduceInt64(total, rma.OpSum); err != nil {
			return err
		}
		if c.Rank() == 0 {
			t.Logf("%s on %d ranks: %d commits, %d resource errors (%d of them %q)", lc.name, ranks, total[1], total[0], total[2], lc.cause)
		}
		if total[2] == 0 {
			return fmt.Errorf("no resource error about %q after %d commits: the database is not small enough", lc.cause, total[1])
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if err := checkLimitData(db, l, n, s, kept, failedIDs, text); err != nil {
			return fmt.Errorf("after filling: %w", err)
		}
		if err := checkHolders(c, db); err != nil {
			return fmt.Errorf("after filling: %w", err)
		}

		// Phase 2: delete three quarters of each worker's vertices (with
		// their edges), which must commit and give the space back.
		refill := make([]int, workers)
		for w := range workers {
			var rest []*limitVertex
			for i, v := range kept[w] {
				if i%4 == 0 {
					rest = append(rest, v)
					continue
				}
				if err := inTx(db, func(tx gdi.Transaction) error {
					uid, ok, err := tx.TranslateVertexID(l, []byte(v.id))
					if err != nil || !ok {
						return fmt.Errorf("vertex %s: %v %v", v.id, ok, err)
					}
					h, err := tx.AssociateVertex(uid)
					if err != nil {
						return err
					}
					return h.Free()
				}); err != nil {
					return fmt.Errorf("deleting %s: %w", v.id, err)
				}
				refill[w]++
			}
			kept[w] = rest
			refill[w] /= 3
		}
		// Edges of the deleted vertices are gone: recount from the kept
		// ones by reading them back.
		if err := c.Barrier(); err != nil {
			return err
		}
		if err := recountEdges(db, l, kept); err != nil {
			return err
		}
		// Phase 3: new transactions commit again: a third as many vertices
		// as were deleted (the space of the implicit and explicit indexes
		// is spread over the ranks by hash, so not every freed entry is
		// where a new vertex needs one).
		for w := range workers {
			for i := range refill[w] {
				v := &limitVertex{id: fmt.Sprintf("r%d-w%d-again-%d", c.Rank(), w, i), n: int64(i)}
				if err := inTx(db, func(tx gdi.Transaction) error {
					h, err := tx.CreateVertex([]byte(v.id))
					if err != nil {
						return err
					}
					if err := h.AddLabel(l); err != nil {
						return err
					}
					if err := h.AddProperty(n, gdi.Int64s(v.n)); err != nil {
						return err
					}
					return h.AddProperty(s, text(v.id))
				}); err != nil {
					return fmt.Errorf("a new vertex after deleting: %w", err)
				}
				kept[w] = append(kept[w], v)
			}
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if err := checkLimitData(db, l, n, s, kept, failedIDs, text); err != nil {
			return fmt.Errorf("after deleting and refilling: %w", err)
		}
		return checkHolders(c, db)
	})
}

// inTx runs fn in a transaction and commits it, or aborts on error
// (gdirma.InTx, which internal tests use too).
var inTx = gdirma.InTx

// freeByID deletes the vertices with label l and the given IDs, in one
// transaction; each must exist.
func freeByID(db gdi.Database, l gdi.Label, ids []string) error {
	return inTx(db, func(tx gdi.Transaction) error {
		for _, id := range ids {
			uid, ok, err := tx.TranslateVertexID(l, []byte(id))
			if err != nil || !ok {
				return fmt.Errorf("vertex %s: %v %v", id, ok, err)
			}
			h, err := tx.AssociateVertex(uid)
			if err != nil {
				return err
			}
			if err := h.Free(); err != nil {
				return err
			}
		}
		return nil
	})
}

// checkHolders runs CheckHolders on every rank of a quiet database.
func checkHolders(c rma.Comm, db gdi.Database) error {
	err := db.(*gdirma.Database).CheckHolders()
	return errors.Join(err, c.Barrier())
}

// checkLimitData checks that every vertex in kept is present with its
// values and edge counts, and that no vertex of failedIDs exists.
func checkLimitData(db gdi.Database, l gdi.Label, n, s gdi.PropertyType, kept [][]*limitVertex, failedIDs []string, text func(string) gdi.Value) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	defer tx.Abort()
	for _, vs := range kept {
		for _, v := range vs {
			uid, ok, err := tx.TranslateVertexID(l, []byte(v.id))
			if err != nil || !ok {
				return fmt.Errorf("acknowledged vertex %s not found: %v", v.id, err)
			}
			h, err := tx.AssociateVertex(uid)
			if err != nil {
				return err
			}
			if got, err := h.Properties(n); err != nil || len(got) != 1 || got[0] != gdi.Int64s(v.n) {
				return fmt.Errorf("vertex %s: n = %v, %v; want %d", v.id, got, err, v.n)
			}
			if got, err := h.Properties(s); err != nil || len(got) != 1 || got[0] != text(v.id) {
				return fmt.Errorf("vertex %s: s = %v, %v", v.id, got, err)
			}
			out, err := h.Edges(gdi.EdgeOutgoing, nil)
			if err != nil {
				return err
			}
			in, err := h.Edges(gdi.EdgeIncoming, nil)
			if err != nil {
				return err
			}
			if len(out) != v.edges || len(in) != v.in {
				return fmt.Errorf("vertex %s: %d outgoing and %d incoming edges, want %d and %d", v.id, len(out), len(in), v.edges, v.in)
			}
			for _, e := range out {
				eh, err := tx.AssociateEdge(e)
				if err != nil {
					return err
				}
				if ls, err := eh.Labels(); err != nil || len(ls) != 1 {
					return fmt.Errorf("an edge of %s has labels %v, %v", v.id, ls, err)
				}
				if vals, err := eh.Properties(n); err != nil || len(vals) != 1 {
					return fmt.Errorf("an edge of %s has n = %v, %v", v.id, vals, err)
				}
			}
		}
	}
	for _, id := range failedIDs {
		if _, ok, err := tx.TranslateVertexID(l, []byte(id)); err != nil || ok {
			return fmt.Errorf("vertex %s of a failed transaction: found %v, %v", id, ok, err)
		}
	}
	return nil
}

// recountEdges sets the edge counts of the kept vertices from the
// database, after checking that every edge left joins two kept vertices.
func recountEdges(db gdi.Database, l gdi.Label, kept [][]*limitVertex) error {
	return inTx(db, func(tx gdi.Transaction) error {
		for _, vs := range kept {
			for _, v := range vs {
				uid, ok, err := tx.TranslateVertexID(l, []byte(v.id))
				if err != nil || !ok {
					return fmt.Errorf("kept vertex %s not found: %v", v.id, err)
				}
				h, err := tx.AssociateVertex(uid)
				if err != nil {
					return err
				}
				out, err := h.Edges(gdi.EdgeOutgoing, nil)
				if err != nil {
					return err
				}
				in, err := h.Edges(gdi.EdgeIncoming, nil)
				if err != nil {
					return err
				}
				if len(out) > v.edges || len(in) > v.in {
					return fmt.Errorf("vertex %s gained edges: %d out, %d in, had %d and %d", v.id, len(out), len(in), v.edges, v.in)
				}
				for _, e := range append(out, in...) {
					eh, err := tx.AssociateEdge(e)
					if err != nil {
						return fmt.Errorf("an edge of %s: %w", v.id, err)
					}
					o, t, err := eh.Vertices()
					if err != nil {
						return err
					}
					for _, end := range []gdi.VertexUID{o, t} {
						if _, err := tx.AssociateVertex(end); err != nil {
							return fmt.Errorf("an edge of %s has a dangling end: %w", v.id, err)
						}
					}
				}
				v.edges, v.in = len(out), len(in)
			}
		}
		return nil
	})
}

// TestLimitsCSV loads vertex and edge files larger than the database on 1,
// 2 and 4 ranks: the loaders report ErrNoMemory on every rank, the holders
// check out, every vertex loaded is whole, and after the loaded vertices
// are deleted the database takes new transactions.
func TestLimitsCSV(t *testing.T) {
	var vfile, efile strings.Builder
	for i := range 400 {
		fmt.Fprintf(&vfile, "v%d|%d|%s\n", i, i, strings.Repeat("x", i%50))
		fmt.Fprintf(&efile, "v%d|v%d|%d\n", i, (i*7+1)%400, i)
	}
	fs := fstest.MapFS{"v.csv": {Data: []byte(vfile.String())}, "e.csv": {Data: []byte(efile.String())}}
	for _, ranks := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("%dranks", ranks), func(t *testing.T) {
			run(t, ranks, gdirma.Params{BlockSize: 64, MemoryPerRank: 64 * 128, DHTEntries: 4096}, func(c rma.Comm, db gdi.Database) error {
				l, err := db.CreateLabel("L")
				if err != nil {
					return err
				}
				n, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "n", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
				if err != nil {
					return err
				}
				s, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "s", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit})
				if err != nil {
					return err
				}
				file := func(path string) gdi.CSVFile {
					return gdi.CSVFile{FS: fs, Path: path, FieldDelimiter: '|', ElementDelimiter: ';', Sort: gdi.NoSorting, TextIDs: true}
				}
				ld := db.(gdi.CSVLoader)
				err = ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: file("v.csv"), PropertyTypes: []gdi.PropertyType{n, s}, Labels: []gdi.Label{l}})
				if gdi.ErrorClass(err) != gdi.ErrNoMemory {
					return fmt.Errorf("LoadVertexCSV of too many vertices: %v, want ErrNoMemory", err)
				}
				if err := checkHolders(c, db); err != nil {
					return fmt.Errorf("after LoadVertexCSV: %w", err)
				}
				// Free a few vertices so that the edge load has blocks for
				// some edges, then let it run out too.
				var loaded []string
				if err := inTx(db, func(tx gdi.Transaction) error {
					for i := range 400 {
						id := fmt.Sprintf("v%d", i)
						uid, ok, err := tx.TranslateVertexID(l, []byte(id))
						if err != nil {
							return err
						}
						if !ok {
							continue
						}
						h, err := tx.AssociateVertex(uid)
						if err != nil {
							return err
						}
						got, err1 := h.Properties(n)
						str, err2 := h.Properties(s)
						wantS := []gdi.Value{gdi.Chars(strings.Repeat("x", i%50))}
						if i%50 == 0 {
							wantS = nil // an empty field is no value
						}
						if errors.Join(err1, err2) != nil || len(got) != 1 || got[0] != gdi.Int64s(int64(i)) || !slices.Equal(str, wantS) {
							return fmt.Errorf("vertex %s loaded as n = %v, s = %v (%v %v)", id, got, str, err1, err2)
						}
						loaded = append(loaded, id)
					}
					return nil
				}); err != nil {
					return err
				}
				if len(loaded) == 0 {
					return fmt.Errorf("no vertex loaded at all")
				}
				if err := c.Barrier(); err != nil {
					return err
				}
				if c.Rank() == 0 {
					t.Logf("%d ranks: %d of 400 vertices loaded", ranks, len(loaded))
					if err := freeByID(db, l, loaded[len(loaded)*3/4:]); err != nil {
						return fmt.Errorf("freeing a quarter: %w", err)
					}
				}
				if err := c.Barrier(); err != nil {
					return err
				}
				w, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "w", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
				if err != nil {
					return err
				}
				err = ld.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: file("e.csv"), Direction: gdi.Directed, PropertyTypes: []gdi.PropertyType{w}, OriginLabel: l, TargetLabel: l})
				if c := gdi.ErrorClass(err); c != gdi.ErrNoMemory && c != gdi.WarnNotAllDataLoaded {
					return fmt.Errorf("LoadEdgeCSV into a full database: %v, want ErrNoMemory or WarnNotAllDataLoaded", err)
				}
				if err := checkHolders(c, db); err != nil {
					return fmt.Errorf("after LoadEdgeCSV: %w", err)
				}
				// Delete everything; then transactions commit again.
				if c.Rank() == 0 {
					if err := freeByID(db, l, loaded[:len(loaded)*3/4]); err != nil {
						return fmt.Errorf("freeing everything: %w", err)
					}
				}
				if err := c.Barrier(); err != nil {
					return err
				}
				for i := range 10 {
					if err := inTx(db, func(tx gdi.Transaction) error {
						h, err := tx.CreateVertex([]byte(fmt.Sprintf("new-%d-%d", c.Rank(), i)))
						if err != nil {
							return err
						}
						return h.AddLabel(l)
					}); err != nil {
						return fmt.Errorf("a transaction after the loads: %w", err)
					}
				}
				return checkHolders(c, db)
			})
		})
	}
}
