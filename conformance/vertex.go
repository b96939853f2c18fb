package conformance

import (
	"github.com/gdi-go/gdi/gdi"
)

var vertexCases = []Case{
	c("Vertex/create-commit-translate", vertexCreateTranslate),
	c("Vertex/labels-add-remove-list", vertexLabels),
	c("Vertex/label-none-is-no-op", vertexLabelNone),
	c("Vertex/no-id-not-translatable", vertexNoID),
	c("Vertex/id-is-property-type-id", vertexIDProperty),
	c("Vertex/translate-sees-own-transaction", vertexTranslateOwnTx),
	c("Vertex/id-unique-within-label", vertexIDUnique),
	c("Vertex/id-unique-within-label-across-ranks", vertexIDUniqueAcrossRanks),
	c("Vertex/id-race-one-winner", vertexIDRace),
	c("Vertex/id-shared-across-labels", vertexIDAcrossLabels),
	c("Vertex/label-none-ids-may-repeat", vertexLabelNoneIDs),
	c("Vertex/remove-last-label-warns-non-unique-id", vertexRemoveLabelWarn),
	c("Vertex/free-invalidates-holder", vertexFreeHolder),
	c("Vertex/free-read-in-same-transaction", vertexFreeSameTx),
	c("Vertex/free-read-after-commit", vertexFreeAfterCommit),
	c("Vertex/free-removes-incident-edges", vertexFreeEdges),
	c("Vertex/holders-invalid-after-transaction-ends", vertexHolderAfterEnd),
	c("Vertex/read-holders-and-results-outlive-no-reuse", vertexReadAfterEnd),
	c("Vertex/uid-stable-in-transaction", vertexUIDStable),
	c("Vertex/associate-invalid-uid", vertexAssociateInvalid),
	c("Vertex/invalid-label-and-property-type-handles", vertexInvalidHandles),
	c("Vertex/abort-discards", vertexAbortDiscards),
}

func vertexCreateTranslate(e *Env) {
	person := e.label("Person")
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("ada"), ls(person))
		if u := vuid(v); u == 0 {
			failf("UID of a new vertex is 0")
		}
	})
	e.barrier()
	// Every rank finds the vertices of every rank.
	e.view(func(tx gdi.Transaction) {
		for r := 0; r < e.Size(); r++ {
			v := find(tx, person, idOf(r, "ada"))
			sameSet(labelsOf(v), ls(person), "labels of rank %d's vertex", r)
		}
		if exists(tx, person, e.id("bob")) {
			failf("TranslateVertexID found a vertex that was never created")
		}
	})
}

func vertexLabels(e *Env) {
	a, b, c := e.label("A"), e.label("B"), e.label("C")
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), ls(a, b))
		okf(v.AddLabel(a), "AddLabel of a label the vertex has")
		sameSet(labelsOf(v), ls(a, b), "labels after adding A twice")
		okf(v.RemoveLabel(c), "RemoveLabel of a label the vertex lacks")
		sameSet(labelsOf(v), ls(a, b), "labels after removing absent C")
	})
	e.update(func(tx gdi.Transaction) {
		v := find(tx, a, e.id("v"))
		sameSet(labelsOf(v), ls(a, b), "labels after commit")
		okf(v.RemoveLabel(a), "RemoveLabel(A)")
		okf(v.AddLabel(c), "AddLabel(C)")
		sameSet(labelsOf(v), ls(b, c), "labels in transaction")
	})
	e.view(func(tx gdi.Transaction) {
		v := find(tx, b, e.id("v"))
		sameSet(labelsOf(v), ls(b, c), "labels after second commit")
		if exists(tx, a, e.id("v")) {
			failf("vertex still found under removed label A")
		}
		if !exists(tx, c, e.id("v")) {
			failf("vertex not found under added label C")
		}
	})
}

func vertexLabelNone(e *Env) {
	a := e.label("A")
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil)
		okf(v.AddLabel(gdi.LabelNone), "AddLabel(LabelNone)")
		sameSet(labelsOf(v), nil, "labels after AddLabel(LabelNone)")
		okf(v.AddLabel(a), "AddLabel(A)")
		okf(v.RemoveLabel(gdi.LabelNone), "RemoveLabel(LabelNone)")
		sameSet(labelsOf(v), ls(a), "labels after RemoveLabel(LabelNone)")
	})
}

func vertexNoID(e *Env) {
	a := e.label("A")
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, nil, ls(a))
		if vs := values(v, gdi.PropertyTypeID); len(vs) != 0 {
			failf("vertex created without ID has ID values %v", vs)
		}
		for _, p := range must(v.PropertyTypes()) {
			if p == gdi.PropertyTypeID {
				failf("PropertyTypes lists PropertyTypeID for a vertex without ID")
			}
		}
		// Several vertices without IDs under one label are fine.
		vertex(tx, nil, ls(a))
		vertex(tx, []byte{}, ls(a))
	})
	e.view(func(tx gdi.Transaction) {
		if exists(tx, a, nil) {
			failf("TranslateVertexID(A, empty ID) found a vertex")
		}
	})
}

func vertexIDProperty(e *Env) {
	a := e.label("A")
	p := e.single("p", gdi.Int8)
	e.barrier()
	id := append(e.id("bin"), 0, 255, 10)
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, id, ls(a), prop{p, gdi.Int8s(1)})
		vs := values(v, gdi.PropertyTypeID)
		if len(vs) != 1 || vs[0] != gdi.Bytes(id) {
			failf("Properties(PropertyTypeID) = %v, want [%v]", vs, gdi.Bytes(id))
		}
		sameSet(must(v.PropertyTypes()), []gdi.PropertyType{gdi.PropertyTypeID, p}, "PropertyTypes (degree types excluded)")
	})
	e.view(func(tx gdi.Transaction) {
		v := find(tx, a, id)
		sameSet(must(v.PropertyTypes()), []gdi.PropertyType{gdi.PropertyTypeID, p}, "PropertyTypes after commit")
	})
}

func vertexTranslateOwnTx(e *Env) {
	a, b := e.label("A"), e.label("B")
	e.barrier()
	tx := e.tx()
	v := vertex(tx, e.id("v"), ls(a))
	if got := translate(tx, a, e.id("v")); got != vuid(v) {
		failf("TranslateVertexID in the creating transaction = %v, want %v", got, vuid(v))
	}
	okf(v.RemoveLabel(a), "RemoveLabel")
	okf(v.AddLabel(b), "AddLabel")
	if exists(tx, a, e.id("v")) {
		failf("found under a label removed in the transaction")
	}
	translate(tx, b, e.id("v"))
	// Another transaction does not see it before commit.
	other := e.tx()
	_, found, err := other.TranslateVertexID(b, e.id("v"))
	if !gdi.IsTransactionCritical(err) {
		okf(err, "TranslateVertexID in another transaction")
		if found {
			failf("uncommitted vertex visible to another transaction")
		}
	}
	abortQuietly(other)
	commit(tx)
	e.view(func(tx gdi.Transaction) { translate(tx, b, e.id("v")) })
}

// vertexIDUnique: a second vertex with the same label and ID cannot get
// the label (spec 1.2.1, 7.4): ErrNonUniqueID, label not added, both in
// one transaction and against committed data.
func vertexIDUnique(e *Env) {
	a := e.label("A")
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		vertex(tx, e.id("x"), ls(a))
		w := vertex(tx, e.id("x"), nil)
		is(w.AddLabel(a), gdi.ErrNonUniqueID, "AddLabel(A) to a second vertex with A's ID in the same transaction")
		sameSet(labelsOf(w), nil, "labels of the rejected vertex")
		okf(w.Free(), "Free")
	})
	e.update(func(tx gdi.Transaction) {
		w := vertex(tx, e.id("x"), nil)
		is(w.AddLabel(a), gdi.ErrNonUniqueID, "AddLabel(A) to a vertex with the ID of a committed vertex with A")
		sameSet(labelsOf(w), nil, "labels of the rejected vertex")
		okf(w.Free(), "Free")
	})
	// After the first vertex loses the label, the ID is free again.
	e.update(func(tx gdi.Transaction) {
		okf(find(tx, a, e.id("x")).RemoveLabel(a), "RemoveLabel")
		w := vertex(tx, e.id("x"), nil)
		okf(w.AddLabel(a), "AddLabel(A) once the ID is free under A")
	})
}

func vertexIDUniqueAcrossRanks(e *Env) {
	if e.Size() < 2 {
		e.Skipf("needs 2 ranks")
	}
	a := e.label("A")
	e.barrier()
	if e.Rank() == 0 {
		e.update(func(tx gdi.Transaction) { vertex(tx, []byte("shared"), ls(a)) })
	}
	e.barrier()
	if e.Rank() == 1 {
		tx := e.tx()
		w := vertex(tx, []byte("shared"), nil)
		is(w.AddLabel(a), gdi.ErrNonUniqueID, "AddLabel(A) with an ID that rank 0 committed under A")
		okf(tx.Abort(), "Abort")
	}
	e.barrier()
}

// vertexIDRace: every rank (and two goroutines per rank) try to create the
// same (label, ID); exactly one commit succeeds.
func vertexIDRace(e *Env) {
	a := e.label("A")
	e.barrier()
	var wins [2]int
	for g := range 2 {
		e.Go(func() {
			tx := e.tx()
			v, err := tx.CreateVertex([]byte("race"))
			okf(err, "CreateVertex")
			err = v.AddLabel(a)
			if err != nil {
				isOneOf(err, []gdi.Code{gdi.ErrNonUniqueID, gdi.ErrTransactionCritical}, "AddLabel in the race")
				abortQuietly(tx)
				return
			}
			err = tx.Commit()
			if err == nil {
				wins[g] = 1
				return
			}
			is(err, gdi.ErrTransactionCommitFail, "Commit in the race")
		})
	}
	e.Wait()
	if total := e.sum(wins[0] + wins[1]); total != 1 {
		failf("%d transactions committed a vertex with the same label and ID, want exactly 1", total)
	}
	e.view(func(tx gdi.Transaction) { translate(tx, a, []byte("race")) })
}

func vertexIDAcrossLabels(e *Env) {
	a, b := e.label("A"), e.label("B")
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("x"), ls(a))
		w := vertex(tx, e.id("x"), ls(b))
		if vuid(v) == vuid(w) {
			failf("two vertices share a UID")
		}
	})
	e.view(func(tx gdi.Transaction) {
		if translate(tx, a, e.id("x")) == translate(tx, b, e.id("x")) {
			failf("TranslateVertexID(A) and (B) found the same vertex")
		}
	})
}

// vertexLabelNoneIDs: vertices without labels may share an ID;
// TranslateVertexID(LabelNone) finds one of them with WarnNonUniqueID.
func vertexLabelNoneIDs(e *Env) {
	a := e.label("A")
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		vertex(tx, e.id("dup"), nil)
		vertex(tx, e.id("dup"), nil)
		vertex(tx, e.id("one"), nil)
		vertex(tx, e.id("labelled"), ls(a))
	})
	e.view(func(tx gdi.Transaction) {
		uid, found, err := tx.TranslateVertexID(gdi.LabelNone, e.id("dup"))
		is(err, gdi.WarnNonUniqueID, "TranslateVertexID(LabelNone, shared ID)")
		if !found {
			failf("shared ID not found")
		}
		ids := idsOfVertices(tx, []gdi.VertexUID{uid})
		sameStrings(ids, []string{string(e.id("dup"))}, "vertex found")
		_, found, err = tx.TranslateVertexID(gdi.LabelNone, e.id("one"))
		noErr(err, "TranslateVertexID(LabelNone, unique ID)")
		if !found {
			failf("vertex without labels not found under LabelNone")
		}
		if exists(tx, gdi.LabelNone, e.id("labelled")) {
			failf("a vertex with a label found under LabelNone")
		}
	})
}

func vertexRemoveLabelWarn(e *Env) {
	a := e.label("A")
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		vertex(tx, e.id("x"), nil)
		vertex(tx, e.id("x"), ls(a))
	})
	e.update(func(tx gdi.Transaction) {
		v := find(tx, a, e.id("x"))
		is(v.RemoveLabel(a), gdi.WarnNonUniqueID, "RemoveLabel leaving two label-less vertices with one ID")
		sameSet(labelsOf(v), nil, "labels after the warning (the label is removed)")
	})
	e.view(func(tx gdi.Transaction) {
		if exists(tx, a, e.id("x")) {
			failf("label kept despite the warning")
		}
	})
}

func vertexFreeHolder(e *Env) {
	p := e.single("p", gdi.Int8)
	tx := e.tx()
	v := vertex(tx, e.id("v"), nil)
	okf(v.Free(), "Free")
	is(v.Free(), gdi.ErrVertex, "Free twice")
	_, err := v.Labels()
	is(err, gdi.ErrVertex, "Labels of a freed holder")
	is(v.AddLabel(gdi.LabelNone), gdi.ErrVertex, "AddLabel on a freed holder")
	is(v.AddProperty(p, gdi.Int8s(1)), gdi.ErrVertex, "AddProperty on a freed holder")
	_, err = v.Properties(p)
	is(err, gdi.ErrVertex, "Properties of a freed holder")
	_, err = v.PropertyTypes()
	is(err, gdi.ErrVertex, "PropertyTypes of a freed holder")
	_, err = v.Edges(gdi.EdgeAll, nil)
	is(err, gdi.ErrVertex, "Edges of a freed holder")
	_, err = v.Neighbors(gdi.EdgeAll, nil)
	is(err, gdi.ErrVertex, "Neighbors of a freed holder")
	_, err = v.UID()
	is(err, gdi.ErrVertex, "UID of a freed holder")
	is(v.RemoveProperties(p), gdi.ErrVertex, "RemoveProperties on a freed holder")
	is(v.SetProperty(p, gdi.Int8s(1)), gdi.ErrVertex, "SetProperty on a freed holder")
	okf(tx.Abort(), "Abort")
}

// vertexFreeSameTx: a vertex freed in a transaction is gone for the rest
// of it: its UID no longer associates and its ID no longer translates.
func vertexFreeSameTx(e *Env) {
	a := e.label("A")
	e.barrier()
	e.update(func(tx gdi.Transaction) { vertex(tx, e.id("v"), ls(a)) })
	tx := e.tx()
	v := find(tx, a, e.id("v"))
	uid := vuid(v)
	okf(v.Free(), "Free")
	_, err := tx.AssociateVertex(uid)
	is(err, gdi.ErrUID, "AssociateVertex of a vertex freed in this transaction")
	if exists(tx, a, e.id("v")) {
		failf("freed vertex still translates in its transaction")
	}
	// Other transactions still see it until commit (or fail, if the
	// backend locks).
	other := e.tx()
	_, found, err := other.TranslateVertexID(a, e.id("v"))
	if !gdi.IsTransactionCritical(err) {
		okf(err, "TranslateVertexID in another transaction")
		if !found {
			failf("vertex freed by an uncommitted transaction is gone for others")
		}
	}
	abortQuietly(other)
	commit(tx)
	e.view(func(tx gdi.Transaction) {
		if exists(tx, a, e.id("v")) {
			failf("freed vertex translates after commit")
		}
	})
}

// vertexFreeAfterCommit: after the freeing transaction commits, the vertex
// is gone: its ID does not translate, indexes do not list it, and its old
// UID does not associate.
func vertexFreeAfterCommit(e *Env) {
	a := e.label("A")
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(a), "Index.AddLabel")
	e.barrier()
	var uid gdi.VertexUID
	e.update(func(tx gdi.Transaction) {
		uid = vuid(vertex(tx, e.id("v"), ls(a)))
		vertex(tx, e.id("keep"), ls(a))
	})
	e.update(func(tx gdi.Transaction) { okf(assoc(tx, translate(tx, a, e.id("v"))).Free(), "Free") })
	e.barrier()
	e.view(func(tx gdi.Transaction) {
		if exists(tx, a, e.id("v")) {
			failf("freed vertex translates in a new transaction")
		}
		_, err := tx.AssociateVertex(uid)
		is(err, gdi.ErrUID, "AssociateVertex(UID of a vertex freed and committed)")
		sameStrings(idsOfVertices(tx, must(tx.VerticesOfIndex(idx, nil))), forRanks(e.Size(), "keep"), "index after free")
	})
}

func vertexFreeEdges(e *Env) {
	name := e.single("name", gdi.Char)
	a := e.label("A")
	e.barrier()
	var eu gdi.EdgeUID
	e.update(func(tx gdi.Transaction) {
		x := vertex(tx, e.id("x"), ls(a))
		y := vertex(tx, e.id("y"), ls(a))
		z := vertex(tx, e.id("z"), ls(a))
		eu = euid(edge(tx, gdi.Directed, x, y, name, "xy"))
		edge(tx, gdi.Undirected, z, x, name, "zx")
		edge(tx, gdi.Directed, y, z, name, "yz")
		edge(tx, gdi.Directed, x, x, name, "xx")
	})
	e.update(func(tx gdi.Transaction) {
		h := must(tx.AssociateEdge(eu))
		x := find(tx, a, e.id("x"))
		okf(x.Free(), "Free(x)")
		_, err := h.Direction()
		is(err, gdi.ErrEdge, "holder of an edge of a vertex freed in the transaction")
		y := find(tx, a, e.id("y"))
		sameStrings(edgeNames(tx, name, must(y.Edges(gdi.EdgeAll, nil))), strs("yz"), "edges of y in the freeing transaction")
		_, err = tx.AssociateEdge(eu)
		is(err, gdi.ErrUID, "AssociateEdge of an edge removed with its vertex")
	})
	e.view(func(tx gdi.Transaction) {
		y := find(tx, a, e.id("y"))
		z := find(tx, a, e.id("z"))
		sameStrings(edgeNames(tx, name, must(y.Edges(gdi.EdgeAll, nil))), strs("yz"), "edges of y after commit")
		sameStrings(edgeNames(tx, name, must(z.Edges(gdi.EdgeAll, nil))), strs("yz"), "edges of z after commit")
		deg := values(y, gdi.PropertyTypeDegree)
		if len(deg) != 1 || deg[0] != gdi.Uint64s(1) {
			failf("degree of y = %v, want [1]", deg)
		}
	})
}

func vertexHolderAfterEnd(e *Env) {
	for _, end := range []string{"commit", "abort"} {
		tx := e.tx()
		v := vertex(tx, e.id("v"+end), nil)
		w := vertex(tx, e.id("w"+end), nil)
		h := edge(tx, gdi.Directed, v, w, gdi.PropertyTypeNull, "")
		if end == "commit" {
			commit(tx)
		} else {
			okf(tx.Abort(), "Abort")
		}
		_, err := v.Labels()
		is(err, gdi.ErrVertex, "vertex holder after %s", end)
		_, err = h.Labels()
		is(err, gdi.ErrEdge, "edge holder after %s", end)
		_, err = tx.CreateVertex(nil)
		is(err, gdi.ErrTransaction, "CreateVertex after %s", end)
		_, err = tx.Type()
		is(err, gdi.ErrTransaction, "Type after %s", end)
		is(tx.Commit(), gdi.ErrTransaction, "Commit after %s", end)
		is(tx.Abort(), gdi.ErrTransaction, "Abort after %s", end)
		_, _, err = tx.TranslateVertexID(gdi.LabelNone, e.id("v"))
		is(err, gdi.ErrTransaction, "TranslateVertexID after %s", end)
	}
}

// vertexReadAfterEnd checks holders of vertices read (not created) in a
// transaction that has ended, while later transactions read other
// vertices: a backend that reuses what it read them into must not let the
// old holders see the new data, nor change results already returned.
func vertexReadAfterEnd(e *Env) {
	a, b := e.label("A"), e.label("B")
	name := e.ptype("name", gdi.SingleEntity, gdi.Char, gdi.NoSizeLimit, 0)
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		x := vertex(tx, e.id("x"), ls(a), prop{name, gdi.Chars("xavier")})
		y := vertex(tx, e.id("y"), ls(b), prop{name, gdi.Chars("yolanda")})
		edge(tx, gdi.Directed, x, y, gdi.PropertyTypeNull, "")
		edge(tx, gdi.Directed, y, x, gdi.PropertyTypeNull, "")
		edge(tx, gdi.Undirected, y, y, gdi.PropertyTypeNull, "")
	})
	for _, end := range []string{"commit", "abort"} {
		tx := e.tx()
		x := assoc(tx, translate(tx, a, e.id("x")))
		labels := must(x.Labels())
		names := must(x.Properties(name))
		edges := must(x.Edges(gdi.EdgeAll, nil))
		if end == "commit" {
			commit(tx)
		} else {
			okf(tx.Abort(), "Abort")
		}
		for range 3 { // later transactions, each reading another vertex
			e.view(func(tx gdi.Transaction) {
				y := assoc(tx, translate(tx, b, e.id("y")))
				if got := must(y.Properties(name)); len(got) != 1 || got[0] != gdi.Chars("yolanda") {
					failf("name of y = %v, want [yolanda]", got)
				}
				if got := must(y.Edges(gdi.EdgeAll, nil)); len(got) != 3 {
					failf("y has %d edges, want 3", len(got))
				}
				_, err := x.Labels()
				is(err, gdi.ErrVertex, "Labels of a vertex read in a transaction ended by %s, while another reads", end)
				_, err = x.Properties(name)
				is(err, gdi.ErrVertex, "Properties of a vertex read in a transaction ended by %s, while another reads", end)
				_, err = x.Edges(gdi.EdgeAll, nil)
				is(err, gdi.ErrVertex, "Edges of a vertex read in a transaction ended by %s, while another reads", end)
			})
		}
		sameSet(labels, ls(a), "labels read before the %s", end)
		if len(names) != 1 || names[0] != gdi.Chars("xavier") {
			failf("name read before the %s = %v, want [xavier]", end, names)
		}
		if len(edges) != 2 {
			failf("%d edges read before the %s, want 2", len(edges), end)
		}
	}
}

func vertexUIDStable(e *Env) {
	a := e.label("A")
	e.barrier()
	e.update(func(tx gdi.Transaction) { vertex(tx, e.id("v"), ls(a)) })
	e.view(func(tx gdi.Transaction) {
		u := translate(tx, a, e.id("v"))
		v1 := assoc(tx, u)
		v2 := assoc(tx, u)
		if vuid(v1) != u || vuid(v2) != u {
			failf("UID of associated holders %v, %v, want %v", vuid(v1), vuid(v2), u)
		}
	})
}

func vertexAssociateInvalid(e *Env) {
	e.view(func(tx gdi.Transaction) {
		_, err := tx.AssociateVertex(0)
		is(err, gdi.ErrUID, "AssociateVertex(0)")
		_, err = tx.AssociateEdge(gdi.EdgeUID{})
		is(err, gdi.ErrUID, "AssociateEdge(zero)")
		u := vuid(vertex(tx, nil, nil))
		_, err = tx.AssociateVertex(u ^ 0x5a5a5a5a00000)
		isOneOf(err, []gdi.Code{gdi.ErrUID, gdi.ErrObjectMismatch}, "AssociateVertex(made-up UID)")
	})
}

func vertexInvalidHandles(e *Env) {
	l := e.label("L")
	p := e.single("p", gdi.Int8)
	bl := gdi.MakeLabel(l.Tag(), l.ID()+999)
	bp := gdi.MakePropertyType(p.Tag(), p.ID()+999)
	tx := e.tx()
	v := vertex(tx, e.id("v"), nil)
	for _, x := range []gdi.Label{gdi.LabelNull, bl} {
		is(v.AddLabel(x), gdi.ErrLabel, "AddLabel(%v)", x)
		is(v.RemoveLabel(x), gdi.ErrLabel, "RemoveLabel(%v)", x)
		_, _, err := tx.TranslateVertexID(x, e.id("v"))
		is(err, gdi.ErrLabel, "TranslateVertexID(%v)", x)
	}
	for _, x := range []gdi.PropertyType{gdi.PropertyTypeNull, bp} {
		is(v.AddProperty(x, gdi.Int8s(1)), gdi.ErrPropertyType, "AddProperty(%v)", x)
		_, err := v.Properties(x)
		is(err, gdi.ErrPropertyType, "Properties(%v)", x)
		is(v.RemoveProperties(x), gdi.ErrPropertyType, "RemoveProperties(%v)", x)
		is(v.RemoveProperty(x, gdi.Int8s(1)), gdi.ErrPropertyType, "RemoveProperty(%v)", x)
		is(v.SetProperty(x, gdi.Int8s(1)), gdi.ErrPropertyType, "SetProperty(%v)", x)
		is(v.UpdateProperty(x, gdi.Int8s(1)), gdi.ErrPropertyType, "UpdateProperty(%v)", x)
		is(v.UpdateSpecificProperty(x, gdi.Int8s(1), gdi.Int8s(2)), gdi.ErrPropertyType, "UpdateSpecificProperty(%v)", x)
	}
	// The errors were not critical: the transaction commits.
	commit(tx)
	e.view(func(tx gdi.Transaction) {
		if !exists(tx, gdi.LabelNone, e.id("v")) {
			failf("vertex lost after non-critical errors")
		}
	})
}

func vertexAbortDiscards(e *Env) {
	a := e.label("A")
	p := e.single("p", gdi.Int8)
	e.barrier()
	e.update(func(tx gdi.Transaction) { vertex(tx, e.id("old"), ls(a), prop{p, gdi.Int8s(1)}) })
	tx := e.tx()
	vertex(tx, e.id("new"), ls(a))
	old := find(tx, a, e.id("old"))
	okf(old.SetProperty(p, gdi.Int8s(2)), "SetProperty")
	okf(tx.Abort(), "Abort")
	e.view(func(tx gdi.Transaction) {
		if exists(tx, a, e.id("new")) {
			failf("vertex of an aborted transaction exists")
		}
		if vs := values(find(tx, a, e.id("old")), p); len(vs) != 1 || vs[0] != gdi.Int8s(1) {
			failf("property changed by an aborted transaction: %v", vs)
		}
	})
}
