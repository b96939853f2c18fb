package conformance

import (
	"github.com/gdi-go/gdi/gdi"
)

var edgeCases = []Case{
	c("Edge/create-directed-and-undirected", edgeCreate),
	c("Edge/orientation-filter", edgeOrientation),
	c("Edge/invalid-orientation", edgeInvalidOrientation),
	c("Edge/neighbors-each-once", edgeNeighbors),
	c("Edge/constraint-filter", edgeConstraintFilter),
	c("Edge/set-origin-target-direction", edgeSetters),
	c("Edge/invalid-direction", edgeInvalidDirection),
	c("Edge/free-invalidates-and-removes", edgeFree),
	c("Edge/holders-of-another-transaction", edgeOtherTx),
	c("Edge/heavyweight-labels-and-properties", edgeHeavyweight),
	c("Edge/between-vertices-of-different-ranks", edgeCrossRank),
	c("Edge/id-unique-within-label", edgeIDUnique),
}

// edgeIDUnique: edges may carry application-level IDs, and AddLabel on an
// edge follows the uniqueness rule of vertices (spec 8.4).
func edgeIDUnique(e *Env) {
	l := e.label("L")
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		a := vertex(tx, e.id("a"), nil)
		b := vertex(tx, e.id("b"), nil)
		h1 := edge(tx, gdi.Directed, a, b, gdi.PropertyTypeNull, "")
		okf(h1.AddProperty(gdi.PropertyTypeID, gdi.Bytes(e.id("e"))), "edge AddProperty(PropertyTypeID)")
		okf(h1.AddLabel(l), "AddLabel")
		h2 := edge(tx, gdi.Directed, b, a, gdi.PropertyTypeNull, "")
		okf(h2.AddProperty(gdi.PropertyTypeID, gdi.Bytes(e.id("e"))), "second edge AddProperty(PropertyTypeID)")
		is(h2.AddLabel(l), gdi.ErrNonUniqueID, "AddLabel to a second edge with the same label and ID")
		sameSet(labelsOf(h2), nil, "labels of the rejected edge")
	})
}

func edgeCreate(e *Env) {
	name := e.single("name", gdi.Char)
	var d, u gdi.EdgeUID
	var a, b gdi.VertexUID
	e.update(func(tx gdi.Transaction) {
		x := vertex(tx, e.id("a"), nil)
		y := vertex(tx, e.id("b"), nil)
		a, b = vuid(x), vuid(y)
		hd := edge(tx, gdi.Directed, x, y, name, "d")
		hu := edge(tx, gdi.Undirected, x, y, name, "u")
		d, u = euid(hd), euid(hu)
		if d == u || d.IsZero() || u.IsZero() {
			failf("edge UIDs %v %v", d, u)
		}
		o, t := must2(hd.Vertices())
		if o != a || t != b {
			failf("Vertices of a directed edge = %v, %v, want %v, %v", o, t, a, b)
		}
		if got := must(hd.Direction()); got != gdi.Directed {
			failf("Direction = %v", got)
		}
		if got := must(hu.Direction()); got != gdi.Undirected {
			failf("Direction = %v", got)
		}
		sameSet(labelsOf(hd), nil, "labels of a new edge")
	})
	e.view(func(tx gdi.Transaction) {
		x := find(tx, gdi.LabelNone, e.id("a"))
		y := find(tx, gdi.LabelNone, e.id("b"))
		hd := must(tx.AssociateEdge(d))
		o, t := must2(hd.Vertices())
		if o != vuid(x) || t != vuid(y) {
			failf("Vertices after commit = %v, %v, want %v, %v", o, t, vuid(x), vuid(y))
		}
		hu := must(tx.AssociateEdge(u))
		o1, t1 := must2(hu.Vertices())
		o2, t2 := must2(hu.Vertices())
		if o1 != o2 || t1 != t2 {
			failf("undirected edge: Vertices changed between calls")
		}
		if !sameMultiset([]gdi.VertexUID{o1, t1}, []gdi.VertexUID{vuid(x), vuid(y)}) {
			failf("undirected edge joins %v, %v, want %v, %v", o1, t1, vuid(x), vuid(y))
		}
		sameStrings(edgeNames(tx, name, must(x.Edges(gdi.EdgeAll, nil))), strs("d", "u"), "edges of a")
		sameStrings(edgeNames(tx, name, must(y.Edges(gdi.EdgeAll, nil))), strs("d", "u"), "edges of b")
	})
}

// orientationGraph builds, around a: a->b, c->a, a-d (undirected), a->a,
// a-a (undirected loop), e->f (not touching a).
func orientationGraph(e *Env, name gdi.PropertyType) {
	e.update(func(tx gdi.Transaction) {
		a := vertex(tx, e.id("a"), nil)
		b := vertex(tx, e.id("b"), nil)
		c := vertex(tx, e.id("c"), nil)
		d := vertex(tx, e.id("d"), nil)
		x := vertex(tx, e.id("e"), nil)
		f := vertex(tx, e.id("f"), nil)
		edge(tx, gdi.Directed, a, b, name, "ab")
		edge(tx, gdi.Directed, c, a, name, "ca")
		edge(tx, gdi.Undirected, a, d, name, "ad")
		edge(tx, gdi.Directed, a, a, name, "aa")
		edge(tx, gdi.Undirected, a, a, name, "a-a")
		edge(tx, gdi.Directed, x, f, name, "ef")
	})
}

func edgeOrientation(e *Env) {
	name := e.single("name", gdi.Char)
	orientationGraph(e, name)
	e.view(func(tx gdi.Transaction) {
		a := find(tx, gdi.LabelNone, e.id("a"))
		for _, c := range []struct {
			o    gdi.Orientation
			want []string
		}{
			{gdi.EdgeOutgoing, strs("ab", "aa")},
			{gdi.EdgeIncoming, strs("ca", "aa")},
			{gdi.EdgeUndirected, strs("ad", "a-a")},
			{gdi.EdgeIncoming | gdi.EdgeOutgoing, strs("ab", "ca", "aa")},
			{gdi.EdgeOutgoing | gdi.EdgeUndirected, strs("ab", "aa", "ad", "a-a")},
			{gdi.EdgeIncoming | gdi.EdgeUndirected, strs("ca", "aa", "ad", "a-a")},
			{gdi.EdgeAll, strs("ab", "ca", "ad", "aa", "a-a")},
		} {
			sameStrings(edgeNames(tx, name, must(a.Edges(c.o, nil))), c.want, "Edges(%v) of a", c.o)
		}
		b := find(tx, gdi.LabelNone, e.id("b"))
		sameStrings(edgeNames(tx, name, must(b.Edges(gdi.EdgeOutgoing, nil))), nil, "Edges(outgoing) of b")
		sameStrings(edgeNames(tx, name, must(b.Edges(gdi.EdgeIncoming, nil))), strs("ab"), "Edges(incoming) of b")
		d := find(tx, gdi.LabelNone, e.id("d"))
		sameStrings(edgeNames(tx, name, must(d.Edges(gdi.EdgeIncoming|gdi.EdgeOutgoing, nil))), nil, "directed edges of d")
		sameStrings(edgeNames(tx, name, must(d.Edges(gdi.EdgeUndirected, nil))), strs("ad"), "undirected edges of d")
	})
}

func edgeInvalidOrientation(e *Env) {
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil)
		for _, o := range []gdi.Orientation{0, 8, gdi.EdgeAll | 16} {
			_, err := v.Edges(o, nil)
			is(err, gdi.ErrEdgeOrientation, "Edges(%#x)", uint8(o))
			_, err = v.Neighbors(o, nil)
			is(err, gdi.ErrEdgeOrientation, "Neighbors(%#x)", uint8(o))
		}
	})
}

func edgeNeighbors(e *Env) {
	name := e.single("name", gdi.Char)
	orientationGraph(e, name)
	e.update(func(tx gdi.Transaction) {
		a := find(tx, gdi.LabelNone, e.id("a"))
		b := find(tx, gdi.LabelNone, e.id("b"))
		edge(tx, gdi.Directed, a, b, name, "ab2") // parallel edge
	})
	e.view(func(tx gdi.Transaction) {
		a := find(tx, gdi.LabelNone, e.id("a"))
		id := func(s ...string) []string {
			var out []string
			for _, x := range s {
				out = append(out, string(e.id(x)))
			}
			return strs(out...)
		}
		for _, c := range []struct {
			o    gdi.Orientation
			want []string
		}{
			{gdi.EdgeOutgoing, id("b", "a")},
			{gdi.EdgeIncoming, id("c", "a")},
			{gdi.EdgeUndirected, id("d", "a")},
			{gdi.EdgeAll, id("a", "b", "c", "d")},
		} {
			got := must(a.Neighbors(c.o, nil))
			sameStrings(idsOfVertices(tx, got), c.want, "Neighbors(%v) of a (each once)", c.o)
		}
		if n := len(must(a.Edges(gdi.EdgeOutgoing, nil))); n != 3 {
			failf("Edges(outgoing) of a has %d edges, want 3 (parallel edges are distinct)", n)
		}
	})
}

func edgeConstraintFilter(e *Env) {
	name := e.single("name", gdi.Char)
	w := e.single("w", gdi.Int32)
	knows, likes := e.label("Knows"), e.label("Likes")
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		a := vertex(tx, e.id("a"), nil)
		b := vertex(tx, e.id("b"), nil)
		c := vertex(tx, e.id("c"), nil)
		h := edge(tx, gdi.Directed, a, b, name, "k1", knows)
		okf(h.AddProperty(w, gdi.Int32s(5)), "AddProperty")
		h = edge(tx, gdi.Directed, a, c, name, "k2", knows)
		okf(h.AddProperty(w, gdi.Int32s(10)), "AddProperty")
		edge(tx, gdi.Directed, a, c, name, "l1", likes)
		edge(tx, gdi.Undirected, a, b, name, "kl", knows, likes)
		edge(tx, gdi.Directed, b, a, name, "none")
	})
	e.view(func(tx gdi.Transaction) {
		a := find(tx, gdi.LabelNone, e.id("a"))
		for _, c := range []struct {
			what string
			c    gdi.Constraint
			o    gdi.Orientation
			want []string
		}{
			{"label Knows", e.constraint(and(hasL(knows))), gdi.EdgeAll, strs("k1", "k2", "kl")},
			{"Knows, outgoing", e.constraint(and(hasL(knows))), gdi.EdgeOutgoing, strs("k1", "k2")},
			{"not Knows", e.constraint(and(notL(knows))), gdi.EdgeAll, strs("l1", "none")},
			{"Knows and Likes", e.constraint(and(hasL(knows), hasL(likes))), gdi.EdgeAll, strs("kl")},
			{"Knows or Likes", e.constraint(and(hasL(knows)), and(hasL(likes))), gdi.EdgeAll, strs("k1", "k2", "l1", "kl")},
			{"no label", e.constraint(and(hasL(gdi.LabelNone))), gdi.EdgeAll, strs("none")},
			{"w > 5", e.constraint(and(pc(w, gdi.Greater, gdi.Int32s(5)))), gdi.EdgeAll, strs("k2")},
			{"w <= 10 and Knows", e.constraint(and(pc(w, gdi.EqSmaller, gdi.Int32s(10)), hasL(knows))), gdi.EdgeAll, strs("k1", "k2")},
			{"empty constraint", e.constraint(), gdi.EdgeAll, nil},
			{"empty subconstraint", e.constraint(and()), gdi.EdgeAll, strs("k1", "k2", "l1", "kl", "none")},
		} {
			sameStrings(edgeNames(tx, name, must(a.Edges(c.o, c.c))), c.want, "Edges(%v, %s)", c.o, c.what)
		}
		nb := must(a.Neighbors(gdi.EdgeOutgoing, e.constraint(and(hasL(likes)))))
		sameStrings(idsOfVertices(tx, nb), []string{string(e.id("c"))}, "Neighbors(outgoing, Likes)")
		nb = must(a.Neighbors(gdi.EdgeAll, e.constraint(and(notL(knows)))))
		sameStrings(idsOfVertices(tx, nb), strs(string(e.id("b")), string(e.id("c"))), "Neighbors(all, not Knows)")
	})
}

// edgeSetters: SetOrigin, SetTarget and SetDirection change the edge, the
// vertices' edge lists and degrees, within the transaction and after
// commit (spec 8.3).
func edgeSetters(e *Env) {
	name := e.single("name", gdi.Char)
	var eu gdi.EdgeUID
	e.update(func(tx gdi.Transaction) {
		a := vertex(tx, e.id("a"), nil)
		b := vertex(tx, e.id("b"), nil)
		vertex(tx, e.id("c"), nil)
		vertex(tx, e.id("d"), nil)
		eu = euid(edge(tx, gdi.Directed, a, b, name, "e"))
	})
	e.update(func(tx gdi.Transaction) {
		h := must(tx.AssociateEdge(eu))
		c := find(tx, gdi.LabelNone, e.id("c"))
		d := find(tx, gdi.LabelNone, e.id("d"))
		okf(h.SetOrigin(c), "SetOrigin")
		okf(h.SetTarget(d), "SetTarget")
		o, t := must2(h.Vertices())
		if o != vuid(c) || t != vuid(d) {
			failf("after SetOrigin/SetTarget Vertices = %v, %v, want %v, %v", o, t, vuid(c), vuid(d))
		}
		sameStrings(edgeNames(tx, name, must(c.Edges(gdi.EdgeOutgoing, nil))), strs("e"), "outgoing edges of the new origin in the transaction")
	})
	e.update(func(tx gdi.Transaction) {
		a := find(tx, gdi.LabelNone, e.id("a"))
		b := find(tx, gdi.LabelNone, e.id("b"))
		c := find(tx, gdi.LabelNone, e.id("c"))
		d := find(tx, gdi.LabelNone, e.id("d"))
		sameStrings(edgeNames(tx, name, must(a.Edges(gdi.EdgeAll, nil))), nil, "edges of the old origin")
		sameStrings(edgeNames(tx, name, must(b.Edges(gdi.EdgeAll, nil))), nil, "edges of the old target")
		sameStrings(edgeNames(tx, name, must(c.Edges(gdi.EdgeOutgoing, nil))), strs("e"), "outgoing edges of the new origin")
		sameStrings(edgeNames(tx, name, must(d.Edges(gdi.EdgeIncoming, nil))), strs("e"), "incoming edges of the new target")
		if vs := values(b, gdi.PropertyTypeDegree); len(vs) != 1 || vs[0] != gdi.Uint64s(0) {
			failf("degree of the old target = %v, want [0]", vs)
		}
		h := must(tx.AssociateEdge(eu))
		okf(h.SetDirection(gdi.Undirected), "SetDirection(Undirected)")
		if got := must(h.Direction()); got != gdi.Undirected {
			failf("Direction after SetDirection = %v", got)
		}
	})
	e.update(func(tx gdi.Transaction) {
		c := find(tx, gdi.LabelNone, e.id("c"))
		d := find(tx, gdi.LabelNone, e.id("d"))
		sameStrings(edgeNames(tx, name, must(c.Edges(gdi.EdgeIncoming|gdi.EdgeOutgoing, nil))), nil, "directed edges after SetDirection(Undirected)")
		sameStrings(edgeNames(tx, name, must(d.Edges(gdi.EdgeUndirected, nil))), strs("e"), "undirected edges after SetDirection(Undirected)")
		if vs := values(d, gdi.PropertyTypeInDegree); len(vs) != 1 || vs[0] != gdi.Uint64s(0) {
			failf("indegree after SetDirection(Undirected) = %v, want [0]", vs)
		}
		h := must(tx.AssociateEdge(must(c.Edges(gdi.EdgeUndirected, nil))[0]))
		// For an undirected edge, SetOrigin replaces the end that
		// Vertices reports first.
		o, t := must2(h.Vertices())
		a := find(tx, gdi.LabelNone, e.id("a"))
		okf(h.SetOrigin(a), "SetOrigin on an undirected edge")
		o2, t2 := must2(h.Vertices())
		if o2 != vuid(a) || t2 != t {
			failf("undirected SetOrigin: Vertices %v,%v -> %v,%v, want %v,%v", o, t, o2, t2, vuid(a), t)
		}
		okf(h.SetDirection(gdi.Directed), "SetDirection(Directed)")
	})
	e.view(func(tx gdi.Transaction) {
		a := find(tx, gdi.LabelNone, e.id("a"))
		sameStrings(edgeNames(tx, name, must(a.Edges(gdi.EdgeAll, nil))), strs("e"), "edges of a at the end")
		h := must(tx.AssociateEdge(must(a.Edges(gdi.EdgeAll, nil))[0]))
		if got := must(h.Direction()); got != gdi.Directed {
			failf("Direction at the end = %v", got)
		}
	})
}

func edgeInvalidDirection(e *Env) {
	tx := e.tx()
	a := vertex(tx, e.id("a"), nil)
	b := vertex(tx, e.id("b"), nil)
	for _, d := range []gdi.DirectionType{0, 3, 200} {
		_, err := tx.CreateEdge(d, a, b)
		is(err, gdi.ErrState, "CreateEdge(direction %d)", d)
	}
	h := edge(tx, gdi.Directed, a, b, gdi.PropertyTypeNull, "")
	is(h.SetDirection(0), gdi.ErrState, "SetDirection(0)")
	if got := must(h.Direction()); got != gdi.Directed {
		failf("Direction changed by a failed SetDirection: %v", got)
	}
	_, err := tx.CreateEdge(gdi.Directed, nil, b)
	is(err, gdi.ErrVertex, "CreateEdge(nil origin)")
	_, err = tx.CreateEdge(gdi.Directed, a, nil)
	is(err, gdi.ErrVertex, "CreateEdge(nil target)")
	is(h.SetOrigin(nil), gdi.ErrVertex, "SetOrigin(nil)")
	is(h.SetTarget(nil), gdi.ErrVertex, "SetTarget(nil)")
	if n := len(must(a.Edges(gdi.EdgeAll, nil))); n != 1 {
		failf("a has %d edges after failed CreateEdge calls, want 1", n)
	}
	commit(tx)
}

func edgeFree(e *Env) {
	name := e.single("name", gdi.Char)
	var eu gdi.EdgeUID
	e.update(func(tx gdi.Transaction) {
		a := vertex(tx, e.id("a"), nil)
		b := vertex(tx, e.id("b"), nil)
		eu = euid(edge(tx, gdi.Directed, a, b, name, "x"))
		edge(tx, gdi.Directed, a, b, name, "y")
	})
	tx := e.tx()
	h := must(tx.AssociateEdge(eu))
	okf(h.Free(), "FreeEdge")
	is(h.Free(), gdi.ErrEdge, "FreeEdge twice")
	_, _, err := h.Vertices()
	is(err, gdi.ErrEdge, "Vertices of a freed edge holder")
	_, err = h.Properties(name)
	is(err, gdi.ErrEdge, "Properties of a freed edge holder")
	is(h.AddLabel(gdi.LabelNone), gdi.ErrEdge, "AddLabel on a freed edge holder")
	is(h.SetDirection(gdi.Directed), gdi.ErrEdge, "SetDirection on a freed edge holder")
	_, err = h.UID()
	is(err, gdi.ErrEdge, "UID of a freed edge holder")
	a := find(tx, gdi.LabelNone, e.id("a"))
	sameStrings(edgeNames(tx, name, must(a.Edges(gdi.EdgeAll, nil))), strs("y"), "edges of a after FreeEdge in the transaction")
	commit(tx)
	e.view(func(tx gdi.Transaction) {
		a := find(tx, gdi.LabelNone, e.id("a"))
		sameStrings(edgeNames(tx, name, must(a.Edges(gdi.EdgeAll, nil))), strs("y"), "edges of a after commit")
		_, err := tx.AssociateEdge(eu)
		is(err, gdi.ErrUID, "AssociateEdge of a freed edge")
	})
}

func edgeOtherTx(e *Env) {
	tx1 := e.tx()
	tx2 := e.tx()
	a := vertex(tx1, e.id("a"), nil)
	b := vertex(tx2, e.id("b"), nil)
	c := vertex(tx1, e.id("c"), nil)
	_, err := tx1.CreateEdge(gdi.Directed, a, b)
	is(err, gdi.ErrObjectMismatch, "CreateEdge with a holder of another transaction")
	_, err = tx2.CreateEdge(gdi.Directed, a, c)
	is(err, gdi.ErrObjectMismatch, "CreateEdge with holders of another transaction")
	h := edge(tx1, gdi.Directed, a, c, gdi.PropertyTypeNull, "")
	is(h.SetOrigin(b), gdi.ErrObjectMismatch, "SetOrigin with a holder of another transaction")
	is(h.SetTarget(b), gdi.ErrObjectMismatch, "SetTarget with a holder of another transaction")
	okf(tx2.Abort(), "Abort")
	commit(tx1)
}

func edgeHeavyweight(e *Env) {
	name := e.single("name", gdi.Char)
	since := e.single("since", gdi.DateType)
	tags := e.multi("tags", gdi.Char)
	knows, close := e.label("Knows"), e.label("Close")
	e.barrier()
	d, _ := gdi.NewDate(2001, 9, 9)
	var eu gdi.EdgeUID
	e.update(func(tx gdi.Transaction) {
		a := vertex(tx, e.id("a"), nil)
		b := vertex(tx, e.id("b"), nil)
		h := edge(tx, gdi.Undirected, a, b, name, "ab", knows, close)
		okf(h.AddProperty(since, gdi.Dates(d)), "AddProperty(since)")
		okf(h.AddProperty(tags, gdi.Chars("x")), "AddProperty(tags)")
		okf(h.AddProperty(tags, gdi.Chars("y")), "AddProperty(tags)")
		okf(h.AddLabel(knows), "AddLabel twice")
		eu = euid(h)
	})
	e.view(func(tx gdi.Transaction) {
		h := must(tx.AssociateEdge(eu))
		sameSet(labelsOf(h), ls(knows, close), "edge labels")
		sameSet(values(h, since), []gdi.Value{gdi.Dates(d)}, "since")
		sameSet(values(h, tags), []gdi.Value{gdi.Chars("x"), gdi.Chars("y")}, "tags")
		sameSet(must(h.PropertyTypes()), []gdi.PropertyType{name, since, tags}, "edge PropertyTypes")
	})
}

// edgeCrossRank: a rank may connect its vertex to vertices committed by
// other ranks; both ends see the edge. Conflicting transactions retry.
func edgeCrossRank(e *Env) {
	name := e.single("name", gdi.Char)
	a := e.label("A")
	e.barrier()
	e.update(func(tx gdi.Transaction) { vertex(tx, e.id("v"), ls(a)) })
	e.barrier()
	next := (e.Rank() + 1) % e.Size()
	e.retry("connect to the next rank", func(tx gdi.Transaction) error {
		mine, found, err := tx.TranslateVertexID(a, e.id("v"))
		if err != nil || !found {
			return err
		}
		theirs, found, err := tx.TranslateVertexID(a, idOf(next, "v"))
		if err != nil || !found {
			if err == nil {
				failf("vertex of rank %d not found", next)
			}
			return err
		}
		x, err := tx.AssociateVertex(mine)
		if err != nil {
			return err
		}
		y, err := tx.AssociateVertex(theirs)
		if err != nil {
			return err
		}
		h, err := tx.CreateEdge(gdi.Directed, x, y)
		if err != nil {
			return err
		}
		return h.AddProperty(name, gdi.Chars(string(e.id("out"))))
	})
	e.barrier()
	prev := (e.Rank() + e.Size() - 1) % e.Size()
	e.view(func(tx gdi.Transaction) {
		v := find(tx, a, e.id("v"))
		out := edgeNames(tx, name, must(v.Edges(gdi.EdgeOutgoing, nil)))
		in := edgeNames(tx, name, must(v.Edges(gdi.EdgeIncoming, nil)))
		if e.Size() == 1 {
			sameStrings(out, strs("r0/out"), "loop: outgoing")
			sameStrings(in, strs("r0/out"), "loop: incoming")
			return
		}
		sameStrings(out, []string{string(e.id("out"))}, "outgoing edges")
		sameStrings(in, []string{string(idOf(prev, "out"))}, "incoming edges")
		sameStrings(idsOfVertices(tx, must(v.Neighbors(gdi.EdgeOutgoing, nil))), []string{string(idOf(next, "v"))}, "outgoing neighbour")
	})
}
