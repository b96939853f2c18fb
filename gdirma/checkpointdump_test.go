package gdirma_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Dumps of a database for the checkpoint tests (see checkpoint_test.go):
// what a restore must give back.

// dumpCkpt describes everything a rank can ask of db, with UIDs (which a
// restore keeps), metadata by name, and every index's answers.
func dumpCkpt(db gdi.Database) (string, error) {
	var out []string
	p := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	labels, err := db.Labels()
	if err != nil {
		return "", err
	}
	lname := func(l gdi.Label) string {
		n, err := db.LabelName(l)
		if err != nil {
			return fmt.Sprintf("?%v", err)
		}
		return n
	}
	for _, l := range labels {
		p("label %s", lname(l))
	}
	pts, err := db.PropertyTypes()
	if err != nil {
		return "", err
	}
	for _, pt := range pts {
		info, err := db.PropertyTypeInfo(pt)
		if err != nil {
			return "", err
		}
		p("ptype %+v", info)
	}
	tx, err := db.StartTransaction()
	if err != nil {
		return "", err
	}
	defer tx.Abort()
	describe := func(h gdi.Holder) (string, error) {
		return describeHolder(db, h, func(l gdi.Label) (string, error) { return lname(l), nil })
	}
	idxs, err := db.Indexes()
	if err != nil {
		return "", err
	}
	age, err := db.PropertyTypeFromName("age")
	if err != nil {
		return "", err
	}
	cons, err := db.CreateConstraint()
	if err != nil {
		return "", err
	}
	defer cons.Free()
	sub, err := db.CreateSubconstraint()
	if err != nil {
		return "", err
	}
	if err := errors.Join(sub.AddPropertyCondition(age, gdi.EqGreater, gdi.Int64s(40)), cons.AddSubconstraint(sub)); err != nil {
		return "", err
	}
	var everything []gdi.VertexUID
	for i, x := range idxs {
		typ, err := x.Type()
		if err != nil {
			return "", err
		}
		ls, err := x.Labels()
		if err != nil {
			return "", err
		}
		var names []string
		for _, l := range ls {
			names = append(names, lname(l))
		}
		p("index %d: %v %v", i, typ, names)
		for _, f := range []gdi.Constraint{nil, cons} {
			vs, err := tx.VerticesOfIndex(x, f)
			if err != nil {
				return "", err
			}
			lv, err := tx.LocalVerticesOfIndex(x, f)
			if err != nil {
				return "", err
			}
			es, err := tx.EdgesOfIndex(x, f)
			if err != nil {
				return "", err
			}
			slices.Sort(vs)
			slices.Sort(lv)
			slices.SortFunc(es, func(a, b gdi.EdgeUID) int { return strings.Compare(a.String(), b.String()) })
			p("  filter %v: vertices %v local %v edges %v", f != nil, vs, lv, es)
			if i == 0 && f == nil {
				everything = vs
			}
		}
	}
	for _, u := range everything {
		v, err := tx.AssociateVertex(u)
		if err != nil {
			return "", err
		}
		d, err := describe(v)
		if err != nil {
			return "", err
		}
		p("vertex %v %s", u, d)
		ls, err := v.Labels()
		if err != nil {
			return "", err
		}
		ids, err := v.Properties(gdi.PropertyTypeID)
		if err != nil || len(ids) != 1 {
			return "", fmt.Errorf("ID of %v: %v %v", u, ids, err)
		}
		if len(ls) == 0 { // found by a scan of all holders
			ls = []gdi.Label{gdi.LabelNone}
		}
		for _, l := range ls {
			w, ok, err := tx.TranslateVertexID(l, ids[0].Raw())
			if err != nil || !ok || w != u {
				return "", fmt.Errorf("TranslateVertexID(%s, %q) = %v %v %v, want %v", lname(l), ids[0].Raw(), w, ok, err, u)
			}
		}
		es, err := v.Edges(gdi.EdgeAll, nil)
		if err != nil {
			return "", err
		}
		ns, err := v.Neighbors(gdi.EdgeAll, nil)
		if err != nil {
			return "", err
		}
		slices.Sort(ns)
		p("  neighbours %v", ns)
		for _, eu := range es {
			e, err := tx.AssociateEdge(eu)
			if err != nil {
				return "", err
			}
			o, t, err := e.Vertices()
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
			p("  edge %v %v %v->%v %s", eu, dir, o, t, d)
		}
	}
	return strings.Join(out, "\n"), nil
}

// moreWork changes a database deterministically, rank after rank: it
// creates vertices and edges, deletes some and commits, and returns a
// dump. Done on the original and on the restored database, it must give
// the same UIDs, which it does only if the free lists, counters and DHT
// are restored exactly.
func moreWork(c rma.Comm, db gdi.Database, s *ckptSchema, n int) (string, error) {
	if err := c.Barrier(); err != nil { // everyone is done reading
		return "", err
	}
	// A new index (collective): its tree takes a free slot of the forest.
	idx, err := db.CreateIndex(gdi.BTreeIndex, 0)
	if err != nil {
		return "", err
	}
	if err := errors.Join(idx.AddLabel(s.city), idx.AddPropertyType(s.age)); err != nil {
		return "", err
	}
	for turn := range c.Size() {
		if turn == c.Rank() {
			err := retry(db, func(tx gdi.Transaction) error {
				var prev gdi.VertexHolder
				for i := range n {
					v, err := tx.CreateVertex([]byte(fmt.Sprintf("new-r%d-%d", c.Rank(), i)))
					if err != nil {
						return err
					}
					if err := errors.Join(v.AddLabel(s.person), v.AddProperty(s.age, gdi.Int64s(int64(i)))); err != nil {
						return err
					}
					u, ok, err := tx.TranslateVertexID(s.person, []byte(fmt.Sprintf("r%d-v%d", (c.Rank()+1)%c.Size(), 5)))
					if err != nil || !ok {
						return fmt.Errorf("old vertex: %v %v", ok, err)
					}
					old, err := tx.AssociateVertex(u)
					if err != nil {
						return err
					}
					if _, err := tx.CreateEdge(gdi.Directed, v, old); err != nil {
						return err
					}
					if prev != nil {
						e, err := tx.CreateEdge(gdi.Undirected, prev, v)
						if err != nil {
							return err
						}
						if err := e.AddProperty(s.name, gdi.Chars("chain")); err != nil {
							return err
						}
					}
					prev = v
				}
				return nil
			})
			if err != nil {
				return "", err
			}
			// A label clash with an old vertex: the DHT must know it.
			err = retry(db, func(tx gdi.Transaction) error {
				v, err := tx.CreateVertex([]byte(fmt.Sprintf("r%d-v%d", c.Rank(), 1)))
				if err != nil {
					return err
				}
				if err := v.AddLabel(s.person); err != nil {
					return err
				}
				return nil
			})
			if gdi.ErrorClass(err) != gdi.ErrNonUniqueID {
				return "", fmt.Errorf("a vertex with the ID of an old one: %v, want ErrNonUniqueID", err)
			}
			err = retry(db, func(tx gdi.Transaction) error {
				for i := range n {
					v, err := tx.CreateVertex([]byte(fmt.Sprintf("new-r%d-%d", c.Rank(), i)))
					if err != nil {
						return err
					}
					if err := errors.Join(v.AddLabel(s.city), v.AddProperty(s.age, gdi.Int64s(int64(40+i)))); err != nil {
						return err
					}
				}
				u, ok, err := tx.TranslateVertexID(s.person, []byte(fmt.Sprintf("r%d-v%d", c.Rank(), 4)))
				if err != nil || !ok {
					return fmt.Errorf("old vertex: %v %v", ok, err)
				}
				v, err := tx.AssociateVertex(u)
				if err != nil {
					return err
				}
				return v.Free()
			})
			if err != nil {
				return "", err
			}
		}
		if err := c.Barrier(); err != nil {
			return "", err
		}
	}
	return dumpCkpt(db)
}
