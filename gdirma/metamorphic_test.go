package gdirma_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// TestMetamorphic runs the same random sequence of transactions (one seed)
// against gdirma and against refdb, the reference backend, and compares
// the committed graphs. The ranks take turns: step i runs on rank i mod n,
// so the sequence and every outcome are deterministic, while the data of
// each step is spread over all ranks.
func TestMetamorphic(t *testing.T) {
	seeds, steps := []uint64{1, 2, 3, 4, 5, 6}, 300
	if testing.Short() {
		seeds, steps = []uint64{1, 2}, 60
	}
	for _, ranks := range []int{1, 3} {
		for _, seed := range seeds {
			t.Run(fmt.Sprintf("ranks=%d/seed=%d", ranks, seed), func(t *testing.T) {
				want := metamorphicRun(t, refdb.Driver{}, nil, ranks, seed, steps)
				for _, bs := range []int{64, 512} {
					got := metamorphicRun(t, gdirma.Driver{}, gdirma.Params{BlockSize: bs, MemoryPerRank: 1 << 20}, ranks, seed, steps)
					if got != want {
						t.Fatalf("block size %d: gdirma and refdb differ\ngdirma:\n%s\nrefdb:\n%s", bs, got, want)
					}
				}
				// Checkpointed and restored halfway, gdirma goes on alike.
				got := metamorphicRunAt(t, gdirma.Driver{}, gdirma.Params{BlockSize: 64, MemoryPerRank: 1 << 20}, ranks, seed, steps, steps/2)
				if got != want {
					t.Fatalf("restored at step %d: gdirma and refdb differ\ngdirma:\n%s\nrefdb:\n%s", steps/2, got, want)
				}
			})
		}
	}
}

func metamorphicRun(t *testing.T, d gdi.Driver, params any, ranks int, seed uint64, steps int) string {
	t.Helper()
	return metamorphicRunAt(t, d, params, ranks, seed, steps, -1)
}

// metamorphicRunAt is metamorphicRun that, before step restoreAt (if not
// negative), checkpoints the database, frees it, and goes on with a
// database restored from the checkpoint.
func metamorphicRunAt(t *testing.T, d gdi.Driver, params any, ranks int, seed uint64, steps, restoreAt int) string {
	t.Helper()
	dump, err := metamorphicDump(d, params, ranks, seed, steps, restoreAt, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dump
}

// metamorphicDump runs the sequence of seed on a database of d and
// returns the dump of the graph and the query transcripts; dir holds the
// checkpoint of restoreAt.
func metamorphicDump(d gdi.Driver, params any, ranks int, seed uint64, steps, restoreAt int, dir string) (string, error) {
	var dump string
	err := local.Run(ranks, func(c rma.Comm) error {
		db, err := d.CreateDatabase(c, params)
		if err != nil {
			return err
		}
		out, err := metamorphicRank(c, &db, seed, steps, restoreAt, dir)
		if err != nil {
			return fmt.Errorf("rank %d: %w", c.Rank(), err)
		}
		if c.Rank() == 0 {
			dump = out
		}
		return db.Free()
	})
	return dump, err
}

// metamorphicRank is one rank's part. Every rank draws the same random
// numbers; only the rank whose turn it is acts on them. At step restoreAt
// it replaces *dbp by a database restored from a checkpoint in dir.
func metamorphicRank(c rma.Comm, dbp *gdi.Database, seed uint64, steps, restoreAt int, dir string) (string, error) {
	db := *dbp
	rng := rand.New(rand.NewPCG(seed, 99))
	v, err := db.CreateLabel("V")
	if err != nil {
		return "", err
	}
	var extra []gdi.Label
	for _, n := range []string{"A", "B", "C"} {
		l, err := db.CreateLabel(n)
		if err != nil {
			return "", err
		}
		extra = append(extra, l)
	}
	num, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "num", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
	if err != nil {
		return "", err
	}
	tags, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "tags", Entity: gdi.MultipleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit})
	if err != nil {
		return "", err
	}
	// Explicit indexes, changed collectively as the steps go, and the
	// constraints queries filter them with.
	byLabel, err := db.CreateIndex(gdi.HashTableIndex, 0)
	if err != nil {
		return "", err
	}
	byNum, err := db.CreateIndex(gdi.BTreeIndex, 0)
	if err != nil {
		return "", err
	}
	mixed, err := db.CreateIndex(gdi.BTreeIndex, 0)
	if err != nil {
		return "", err
	}
	if err := errors.Join(byLabel.AddLabel(extra[0]), byNum.AddPropertyType(num),
		mixed.AddLabelsAndPropertyTypes([]gdi.Label{extra[1], gdi.LabelNone}, []gdi.PropertyType{tags})); err != nil {
		return "", err
	}
	indexes := []gdi.Index{byLabel, byNum, mixed}
	constraint := func(conds ...func(s gdi.Subconstraint) error) (gdi.Constraint, error) {
		cs, err := db.CreateConstraint()
		if err != nil {
			return nil, err
		}
		for _, cond := range conds {
			s, err := db.CreateSubconstraint()
			if err != nil {
				return nil, err
			}
			if err := errors.Join(cond(s), cs.AddSubconstraint(s)); err != nil {
				return nil, err
			}
		}
		return cs, nil
	}
	numIs := func(op gdi.Op, x int64) func(s gdi.Subconstraint) error {
		return func(s gdi.Subconstraint) error { return s.AddPropertyCondition(num, op, gdi.Int64s(x)) }
	}
	makeFilters := func() ([]gdi.Constraint, error) {
		var filters []gdi.Constraint
		for _, conds := range [][]func(s gdi.Subconstraint) error{
			{numIs(gdi.Smaller, 300)},
			{numIs(gdi.EqGreater, 700), numIs(gdi.Equal, 5)},
			{func(s gdi.Subconstraint) error { return s.AddLabelCondition(extra[0], gdi.Equal) }},
			{func(s gdi.Subconstraint) error {
				return errors.Join(s.AddPropertyCondition(tags, gdi.Equal, gdi.Chars("t1")), s.AddLabelCondition(extra[2], gdi.NotEqual))
			}},
		} {
			f, err := constraint(conds...)
			if err != nil {
				return nil, err
			}
			filters = append(filters, f)
		}
		return filters, nil
	}
	filters, err := makeFilters()
	if err != nil {
		return "", err
	}
	var transcript []string // this rank's query results
	var ids []string        // vertices believed alive, identical on every rank
	next := 0
	for step := range steps {
		if step == restoreAt { // every rank: checkpoint, free, restore
			if err := db.(gdi.Checkpointer).Checkpoint(dir); err != nil {
				return "", fmt.Errorf("step %d: checkpoint: %w", step, err)
			}
			if err := db.Free(); err != nil {
				return "", err
			}
			if db, err = (gdirma.Driver{}).CreateDatabase(c, gdirma.Params{Restore: dir}); err != nil {
				return "", fmt.Errorf("step %d: restore: %w", step, err)
			}
			*dbp = db
			// Handles are the restored database's, found by name.
			var errs []error
			byName := func(n string) gdi.Label {
				l, err := db.LabelFromName(n)
				errs = append(errs, err)
				return l
			}
			v = byName("V")
			for i, n := range []string{"A", "B", "C"} {
				extra[i] = byName(n)
			}
			num, err = db.PropertyTypeFromName("num")
			errs = append(errs, err)
			tags, err = db.PropertyTypeFromName("tags")
			errs = append(errs, err)
			if indexes, err = db.Indexes(); err == nil && len(indexes) != 3 {
				err = fmt.Errorf("%d indexes restored, want 3", len(indexes))
			}
			errs = append(errs, err)
			if err := errors.Join(errs...); err != nil {
				return "", fmt.Errorf("step %d: restored metadata: %w", step, err)
			}
			if filters, err = makeFilters(); err != nil {
				return "", err
			}
		}
		if step%20 == 19 { // every rank: change an index (collective)
			x := indexes[rng.IntN(len(indexes))]
			var err error
			switch rng.IntN(4) {
			case 0:
				err = x.AddLabel(extra[rng.IntN(len(extra))])
			case 1:
				err = x.RemoveLabel(extra[rng.IntN(len(extra))])
			case 2:
				err = x.AddPropertyType(num)
			default:
				err = x.RemovePropertyType(tags)
			}
			if err != nil {
				return "", fmt.Errorf("step %d: index change: %w", step, err)
			}
		}
		mine := step%c.Size() == c.Rank()
		op := rng.IntN(13)
		qi, qf := rng.IntN(len(indexes)), rng.IntN(len(filters)+1)
		abort := rng.IntN(8) == 0
		pick := func() string {
			if len(ids) == 0 {
				return ""
			}
			return ids[rng.IntN(len(ids))]
		}
		a, b := pick(), pick()
		lab := extra[rng.IntN(len(extra))]
		val := rng.Int64N(1000)
		tag := fmt.Sprintf("t%d", rng.IntN(4))
		dir := gdi.Directed
		if rng.IntN(3) == 0 {
			dir = gdi.Undirected
		}
		newID := fmt.Sprintf("v%03d", next)
		next++
		var created, deleted string
		ok := int64(0)
		if mine {
			err := func() error {
				tx, err := db.StartTransaction()
				if err != nil {
					return err
				}
				find := func(id string) (gdi.VertexHolder, error) {
					uid, found, err := tx.TranslateVertexID(v, []byte(id))
					if err != nil || !found {
						return nil, fmt.Errorf("vertex %s: found %v, %v", id, found, err)
					}
					return tx.AssociateVertex(uid)
				}
				switch {
				case op >= 11: // an index query
					var f gdi.Constraint
					if qf < len(filters) {
						f = filters[qf]
					}
					us, err := tx.VerticesOfIndex(indexes[qi], f)
					if err != nil {
						return err
					}
					if op == 12 {
						// Which vertices are local depends on the
						// backend's placement: they must be a part of the
						// global answer.
						local, err := tx.LocalVerticesOfIndex(indexes[qi], f)
						if err != nil {
							return err
						}
						for _, u := range local {
							if !slices.Contains(us, u) {
								return fmt.Errorf("local index query found %v, which the global one did not", u)
							}
						}
					}
					var found []string
					for _, u := range us {
						x, err := tx.AssociateVertex(u)
						if err != nil {
							return err
						}
						vs, err := x.Properties(gdi.PropertyTypeID)
						if err != nil || len(vs) != 1 {
							return fmt.Errorf("ID of a vertex found: %v %v", vs, err)
						}
						found = append(found, string(vs[0].Raw()))
					}
					slices.Sort(found)
					edges, err := describeEdges(tx, indexes[qi], f)
					if err != nil {
						return err
					}
					transcript = append(transcript, fmt.Sprintf("step %d: index %d filter %d: %v edges %v", step, qi, qf, found, edges))
				case op < 4 || a == "": // create a vertex
					x, err := tx.CreateVertex([]byte(newID))
					if err == nil {
						err = errors.Join(x.AddLabel(v), x.AddProperty(num, gdi.Int64s(val)))
					}
					if err != nil {
						return err
					}
					created = newID
				case op < 6: // an edge from a to b
					x, err := find(a)
					if err != nil {
						return err
					}
					y, err := find(b)
					if err != nil {
						return err
					}
					e, err := tx.CreateEdge(dir, x, y)
					if err != nil {
						return err
					}
					if rng2 := val % 3; rng2 == 0 {
						if err := e.AddLabel(lab); err != nil {
							return err
						}
					} else if rng2 == 1 {
						if err := errors.Join(e.AddProperty(tags, gdi.Chars(tag)), e.AddProperty(num, gdi.Int64s(val))); err != nil {
							return err
						}
					}
				case op < 7: // delete a vertex and its edges
					x, err := find(a)
					if err != nil {
						return err
					}
					if err := x.Free(); err != nil {
						return err
					}
					deleted = a
				case op < 8: // relabel and retag
					x, err := find(a)
					if err != nil {
						return err
					}
					if err := errors.Join(x.AddLabel(lab), x.AddProperty(tags, gdi.Chars(tag)), x.UpdateProperty(num, gdi.Int64s(val))); err != nil {
						return err
					}
				case op < 9: // drop a label and the outgoing edges
					x, err := find(a)
					if err != nil {
						return err
					}
					if err := x.RemoveLabel(lab); err != nil {
						return err
					}
					es, err := x.Edges(gdi.EdgeOutgoing, nil)
					if err != nil {
						return err
					}
					// All of them: which edge is "the i-th" depends on
					// the backend's UIDs.
					for _, eu := range es {
						e, err := tx.AssociateEdge(eu)
						if err != nil {
							return err
						}
						if err := e.Free(); err != nil {
							return err
						}
					}
				case op < 10: // move the outgoing edges of a to origin b
					x, err := find(a)
					if err != nil {
						return err
					}
					y, err := find(b)
					if err != nil {
						return err
					}
					es, err := x.Edges(gdi.EdgeOutgoing, nil)
					if err != nil {
						return err
					}
					for _, eu := range es {
						e, err := tx.AssociateEdge(eu)
						if err != nil {
							return err
						}
						if err := e.SetOrigin(y); err != nil {
							return err
						}
						if val%2 == 0 {
							if err := e.SetTarget(x); err != nil {
								return err
							}
						}
					}
				default: // remove one tag value
					x, err := find(a)
					if err != nil {
						return err
					}
					if err := x.RemoveProperty(tags, gdi.Chars(tag)); err != nil {
						return err
					}
				}
				if abort {
					created, deleted = "", ""
					return tx.Abort()
				}
				return tx.Commit()
			}()
			if err != nil {
				return "", fmt.Errorf("step %d (op %d): %w", step, op, err)
			}
			ok = 1
		}
		// Every rank learns which vertex the step created or deleted.
		msg := []byte(fmt.Sprintf("%d %s %s", ok, created+"-", deleted+"-"))
		all, err := c.Allgatherv(msg)
		if err != nil {
			return "", err
		}
		var okr int64
		var cr, dl string
		if _, err := fmt.Sscanf(string(all[step%c.Size()]), "%d %s %s", &okr, &cr, &dl); err != nil || okr != 1 {
			return "", fmt.Errorf("step %d failed on rank %d", step, step%c.Size())
		}
		if cr = strings.TrimSuffix(cr, "-"); cr != "" {
			ids = append(ids, cr)
		}
		if dl = strings.TrimSuffix(dl, "-"); dl != "" {
			ids = slices.DeleteFunc(ids, func(s string) bool { return s == dl })
		}
	}
	// Every rank's holders read back as the encoder writes them, with the
	// fences it would give their blocks.
	if h, ok := db.(interface{ CheckHolders() error }); ok {
		if err := h.CheckHolders(); err != nil {
			return "", err
		}
	}
	// The query transcripts of all ranks, in step order.
	all, err := c.Allgatherv([]byte(strings.Join(transcript, "\n")))
	if err != nil {
		return "", err
	}
	var lines []string
	for _, t := range all {
		if len(t) > 0 {
			lines = append(lines, strings.Split(string(t), "\n")...)
		}
	}
	slices.SortFunc(lines, func(a, b string) int {
		var x, y int
		fmt.Sscanf(a, "step %d", &x)
		fmt.Sscanf(b, "step %d", &y)
		return x - y
	})
	if c.Rank() != 0 {
		return "", nil
	}
	g, err := dumpGraph(db, v, ids)
	return g + strings.Join(lines, "\n"), err
}

// dumpGraph describes the vertices ids and their edges by application IDs,
// labels and properties, sorted, so that backends can be compared.
func dumpGraph(db gdi.Database, v gdi.Label, ids []string) (string, error) {
	tx, err := db.StartTransaction()
	if err != nil {
		return "", err
	}
	defer tx.Abort()
	idOf := map[gdi.VertexUID]string{}
	holders := map[string]gdi.VertexHolder{}
	for _, id := range ids {
		uid, found, err := tx.TranslateVertexID(v, []byte(id))
		if err != nil || !found {
			return "", fmt.Errorf("dump: vertex %s: %v %v", id, found, err)
		}
		x, err := tx.AssociateVertex(uid)
		if err != nil {
			return "", err
		}
		idOf[uid] = id
		holders[id] = x
	}
	describe := func(h gdi.Holder) (string, error) { return describeHolder(db, h, db.LabelName) }
	var lines []string
	for _, id := range ids {
		x := holders[id]
		d, err := describe(x)
		if err != nil {
			return "", err
		}
		lines = append(lines, id+" "+d)
		es, err := x.Edges(gdi.EdgeOutgoing|gdi.EdgeUndirected, nil)
		if err != nil {
			return "", err
		}
		var edges []string
		for _, eu := range es {
			e, err := tx.AssociateEdge(eu)
			if err != nil {
				return "", err
			}
			o, tg, err := e.Vertices()
			if err != nil {
				return "", err
			}
			dir, err := e.Direction()
			if err != nil {
				return "", err
			}
			d, err := describe(e)
			if err != nil {
				return "", err
			}
			edges = append(edges, fmt.Sprintf("  %v %s->%s %s", dir, idOf[o], idOf[tg], d))
		}
		slices.Sort(edges)
		lines = append(lines, edges...)
	}
	return strings.Join(lines, "\n"), nil
}

// describeEdges runs EdgesOfIndex(idx, f) and describes the edges found by
// the IDs of their ends and their direction, sorted.
func describeEdges(tx gdi.Transaction, idx gdi.Index, f gdi.Constraint) ([]string, error) {
	us, err := tx.EdgesOfIndex(idx, f)
	if err != nil {
		return nil, err
	}
	id := func(u gdi.VertexUID) (string, error) {
		x, err := tx.AssociateVertex(u)
		if err != nil {
			return "", err
		}
		vs, err := x.Properties(gdi.PropertyTypeID)
		if err != nil || len(vs) != 1 {
			return "", fmt.Errorf("ID of an end: %v %v", vs, err)
		}
		return string(vs[0].Raw()), nil
	}
	var out []string
	for _, u := range us {
		e, err := tx.AssociateEdge(u)
		if err != nil {
			return nil, err
		}
		o, t, err := e.Vertices()
		if err != nil {
			return nil, err
		}
		d, err := e.Direction()
		if err != nil {
			return nil, err
		}
		a, err := id(o)
		if err != nil {
			return nil, err
		}
		b, err := id(t)
		if err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("%s-%d-%s", a, d, b))
	}
	slices.Sort(out)
	return out, nil
}
