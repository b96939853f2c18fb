package gdirma

import (
	"bytes"
	"errors"
	"slices"
	"sync"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/index"
	"github.com/gdi-go/gdi/internal/agree"
	"github.com/gdi-go/gdi/internal/catalog"
)

// Indexes and constraints.
//
// Explicit indexes keep the entries of the vertices they cover in per-rank
// B+trees in RMA windows (package index; see index.go): an entry for the
// index, one per label in L and one per property of a type in P, on the
// rank of the vertex. A query scans, in every rank's part or in its own,
// one key range per conjunction of its constraint and checks each vertex
// found against the whole predicate (gdi.IndexCovers and gdi.DNF), so its
// cost follows the size of the ranges, not of the graph. Entries change
// in the commit of the vertex, under its write lock; changes of an index's
// sets, metadata rewrites and BulkLoad rebuild the trees collectively.
// Edges have entries too (lightweight ones on the rank of their origin).
// While a collective change rebuilds a tree, the commits of every rank
// wait for it (before they lock anything), so that the entries of each
// commit are made by the rebuild or by the commit itself, never by
// neither. The old tree of an index being changed stays until the new one
// is complete on every rank: a change whose entries do not fit
// Params.IndexMemoryPerRank (next to the old ones) fails with ErrNoMemory
// on every rank and changes nothing. After BulkLoad, a metadata rewrite
// or recovery, an index whose entries do not fit scans the holders of all
// ranks up to their high-water marks instead. Edge and neighbour filters
// evaluate the constraint on the copies of the transaction.

// Explicit indexes keep their vertex entries in trees of an index.Forest:
// each index has one tree, whose part on rank r holds the entries of the
// vertices whose primary block is on r. A vertex that the index covers
// (gdi.IndexCovers) has the entries
//
//	[keyAll]                                    one
//	[keyLabel, label]                           per label of the vertex in L
//	                                            (LabelNone if it has none)
//	[keyProp, property type, value key]         per property of a type in P
//
// each with the vertex number as value. A query turns every conjunction of
// its constraint into one key range — a property condition on a type in P
// if it has one, else a label condition "has l" for l in L, else every
// entry — scans those ranges in the parts of all ranks (or its own, for
// local queries) with one-sided reads, and checks each vertex found against
// the whole predicate, so the ranges only need to hold a superset of the
// answer. The cost follows the size of the ranges, not of the graph.
//
// Edges have the same entries, with the kind in the first key byte and the
// edge number as value, on the rank of the edge's holder; a lightweight
// edge (at most a label, no properties) has them on the rank of its origin,
// and can only be covered by indexes of labels alone, so the commits of
// vertices compare the lightweight edges they are the origin of only for
// those.
//
// Entries change in the commit that changes the object, while it holds the
// write lock, so a commit's entries are in every index once Commit
// returns. Changes of L or P, metadata rewrites and BulkLoad rebuild the
// trees (collectively); see indexTrees for how a rebuild and the commits
// that run meanwhile keep every entry exactly once.
const (
	keyAll   = 0
	keyLabel = 1
	keyProp  = 2

	// indexMaxKey bounds keys: 1 + 4 bytes of prefix and 19 of value. Longer
	// values (strings) are cut; queries check the whole value anyway.
	indexMaxKey = 24
	// indexNodeSize is the size of a tree node.
	indexNodeSize = 1024
)

// indexTrees maps index numbers to their trees and sets, on one rank.
//
// gate keeps rebuilds and commits apart, so that no entry is lost or left
// behind. A commit that writes holds it shared from before it locks its
// first holder until it has released them all (Transaction.commit). A
// collective change of an index's tree (swapTree) takes it exclusively on
// every rank, then passes a barrier before it reads the first holder, and
// holds it until the new tree (or, on failure, the old one) is in defs.
// So every commit, on any rank, either ended before any rank's rebuild
// read the holders, which then make its entries in the new tree, or starts
// after its own rank has put the new tree in place, and makes them itself.
// No commit writes to a tree being built or dropped, and no holder a
// rebuild reads is locked. A commit waits for the gate holding nothing,
// and a rebuild waits only for commits that hold it, which wait for
// nothing but bounded holder locks, so the gate cannot deadlock.
type indexTrees struct {
	gate sync.RWMutex
	mu   sync.RWMutex // guards defs
	defs map[uint32]*treeDef
}

// treeDef is an index with entries: its tree and its sets L and P.
type treeDef struct {
	tree           index.Tree
	labels, ptypes []uint32
}

// covers is gdi.IndexCovers on object numbers.
func (d *treeDef) covers(r *record) bool {
	if len(d.labels) == 0 && len(d.ptypes) == 0 {
		return false
	}
	if len(d.labels) > 0 && !slices.ContainsFunc(d.labels, func(l uint32) bool {
		return l == uint32(gdi.LabelNone) && len(r.labels()) == 0 || r.hasLabel(l)
	}) {
		return false
	}
	if len(d.ptypes) > 0 && !slices.ContainsFunc(r.props(), func(p layout.Property) bool { return slices.Contains(d.ptypes, p.Ptype) }) {
		return false
	}
	return true
}

// tree returns the entries of index idx, or nil if it has none (queries
// scan).
func (db *Database) treeOf(idx gdi.Index) *treeDef {
	num, err := db.IndexNum(idx)
	if err != nil {
		return nil
	}
	db.st.idx.mu.RLock()
	defer db.st.idx.mu.RUnlock()
	return db.st.idx.defs[num]
}

// candidates returns the vertices in the ranges of tree d, on every rank
// or on this one.
func (db *Database) candidates(d *treeDef, ranges []keyRange, local bool) (map[layout.Number]struct{}, error) {
	out := map[layout.Number]struct{}{}
	for r := range db.st.Size() {
		if local && r != db.rank {
			continue
		}
		for _, kr := range ranges {
			err := db.st.forest.Scan(d.tree, r, kr.lo, kr.hi, func(_ []byte, v uint64) bool {
				out[layout.Number(v)] = struct{}{}
				return true
			})
			if err != nil {
				return nil, indexErr(err)
			}
		}
	}
	return out, nil
}

// indexErr wraps an error of the index trees: a busy part is a conflict
// with a committing transaction, a full one a lack of memory.
func indexErr(err error) error {
	switch {
	case errors.Is(err, index.ErrBusy):
		return gdi.Errorf(gdi.ErrTransactionCritical, "gdirma: index: %v", err)
	case errors.Is(err, index.ErrFull):
		return gdi.Errorf(gdi.ErrNoMemory, "gdirma: index: %v", err)
	}
	return gdi.Errorf(gdi.ErrIntern, "gdirma: index: %v", err)
}

// indexChanged is the catalog's index hook: it makes, rebuilds or drops
// the tree of an index (collective, like the calls that invoke it). It
// applies the change on every rank, or fails alike on every rank having
// changed nothing (catalog.Unchanged), so that the catalog takes back its
// part too: ErrNoMemory if the new entries do not fit.
func (db *Database) indexChanged(def catalog.IndexDef) error {
	old, err := db.swapTree(def)
	if err != nil {
		return catalog.Unchanged(err)
	}
	if old != nil {
		// No commit uses it any more (see indexTrees).
		if err := db.st.forest.Drop(old.tree); err != nil {
			return indexErr(err)
		}
	}
	return nil
}

// swapTree builds the tree of index def (none if def is freed) and puts
// it in place of the index's tree, which it returns for the caller to
// drop (collective). It holds the gate exclusively throughout (see
// indexTrees); meanwhile the index has no tree, so queries scan. On an
// error, alike on every rank, the old tree is back in place as it was.
func (db *Database) swapTree(def catalog.IndexDef) (old *treeDef, err error) {
	idx := db.st.idx
	idx.gate.Lock()
	defer idx.gate.Unlock()
	idx.mu.Lock()
	old = idx.defs[def.Num]
	delete(idx.defs, def.Num)
	idx.mu.Unlock()
	// Every rank holds its gate: no commit writes holders or entries.
	err = db.Barrier()
	var d *treeDef
	if err == nil && !def.Freed {
		d, err = db.buildTree(def)
	}
	idx.mu.Lock()
	defer idx.mu.Unlock()
	if err != nil {
		if old != nil {
			idx.defs[def.Num] = old
		}
		return nil, err
	}
	if d != nil {
		idx.defs[def.Num] = d
	}
	return old, nil
}

// buildIndex builds the tree of index def, which has none, on a quiet
// database (collective). An index whose entries do not fit is left
// without a tree, alike on every rank: its queries scan.
func (db *Database) buildIndex(def catalog.IndexDef) error {
	d, err := db.buildTree(def)
	if gdi.ErrorClass(err) == gdi.ErrNoMemory {
		return nil
	}
	if err != nil || d == nil {
		return err
	}
	db.st.idx.mu.Lock()
	db.st.idx.defs[def.Num] = d
	db.st.idx.mu.Unlock()
	return nil
}

// buildTree creates a tree for index def and fills this rank's part with
// the entries of the rank's holders (collective); the caller makes sure
// that no commit changes holders meanwhile. It fails alike on every rank,
// with ErrNoMemory if the entries do not fit on some rank, and then leaves
// no tree behind. An index without labels and property types has no
// entries: if no tree slot is left, it gets none (nil, nil).
func (db *Database) buildTree(def catalog.IndexDef) (*treeDef, error) {
	t, err := db.st.forest.Create()
	switch {
	case errors.Is(err, index.ErrFull) && len(def.Labels)+len(def.Ptypes) == 0:
		return nil, nil // alike on every rank, as the tree slots are
	case err != nil:
		return nil, indexErr(err)
	}
	d := &treeDef{tree: t, labels: def.Labels, ptypes: def.Ptypes}
	var local error
	if len(d.labels)+len(d.ptypes) > 0 {
		local = db.fillTree(d)
	}
	if err := agree.Errors(db.comm, local); err != nil {
		if derr := db.st.forest.Drop(t); derr != nil {
			return nil, indexErr(derr)
		}
		return nil, err
	}
	return d, nil
}

// fillTree inserts the entries of this rank's vertices, and of the edges
// whose origins they are, into tree d. Edge entries go to the rank of the
// edge's holder (of the origin, if it has none). Forest errors come back
// as gdi errors (indexErr).
func (db *Database) fillTree(d *treeDef) error {
	var ops []index.Op
	flush := func() error {
		err := db.st.forest.Apply(d.tree, db.rank, ops)
		ops = ops[:0]
		return err
	}
	err := db.st.scanRank(db.rank, vertexKind, func(n layout.Number, r *record) error {
		for _, k := range d.keys(vertexKind, r) {
			ops = append(ops, index.Op{Key: k, Val: uint64(n)})
		}
		if len(ops) >= 4096 {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err == nil {
		err = db.st.scanRank(db.rank, vertexKind, func(v layout.Number, r *record) error {
			return db.st.originEdges(v, r, func(e layout.Number, er *record, home int) error {
				for _, k := range d.keys(edgeKind, er) {
					if _, err := db.st.forest.Insert(d.tree, home, k, uint64(e)); err != nil {
						return err
					}
				}
				return nil
			})
		})
	}
	if err != nil && gdi.ErrorClass(err) == gdi.ErrErrorCode { // of the forest
		err = indexErr(err)
	}
	return err
}

// rebuildIndexes rebuilds the trees of all indexes, after changes that
// bypass commits (BulkLoad) or change many holders and the index sets at
// once (metadata rewrites), on a quiet database. Collective. The old trees
// are stale, so each goes before its new one is built (buildIndex).
func (db *Database) rebuildIndexes() error {
	for _, def := range db.IndexDefs() {
		st := db.st
		st.idx.mu.Lock()
		old := st.idx.defs[def.Num]
		delete(st.idx.defs, def.Num)
		st.idx.mu.Unlock()
		if old != nil {
			if err := st.forest.Drop(old.tree); err != nil {
				return indexErr(err)
			}
		}
		if err := db.buildIndex(def); err != nil {
			return err
		}
	}
	return nil
}

// reindex brings the index entries of the vertices in changes up to date:
// it removes the entries of each old record that the new one does not
// have and adds the new ones. It returns a function that undoes it (the
// trees are sets, so applying the inverse operations is exact).
func (st *graph) reindex(changes []change) (undo func(), err error) {
	st.idx.mu.RLock()
	if len(st.idx.defs) == 0 {
		st.idx.mu.RUnlock()
		return func() {}, nil
	}
	defs := make([]*treeDef, 0, len(st.idx.defs))
	for _, d := range st.idx.defs {
		defs = append(defs, d)
	}
	st.idx.mu.RUnlock()
	type batch struct {
		d    *treeDef
		rank int
		ops  []index.Op
	}
	var done []batch
	undo = func() {
		for _, b := range done {
			inv := make([]index.Op, len(b.ops))
			for i, op := range b.ops {
				inv[i] = index.Op{Delete: !op.Delete, Key: op.Key, Val: op.Val}
			}
			_ = st.forest.Apply(b.d.tree, b.rank, inv)
		}
	}
	if len(defs) == 0 {
		return undo, nil
	}
	for _, d := range defs {
		byRank := map[int][]index.Op{}
		diff := func(k kind, rank int, oldKeys, newKeys [][]byte, oldNum, newNum layout.Number) {
			for _, key := range oldKeys {
				if oldNum != newNum || !slices.ContainsFunc(newKeys, func(x []byte) bool { return bytes.Equal(x, key) }) {
					byRank[rank] = append(byRank[rank], index.Op{Delete: true, Key: key, Val: uint64(oldNum)})
				}
			}
			for _, key := range newKeys {
				if oldNum != newNum || !slices.ContainsFunc(oldKeys, func(x []byte) bool { return bytes.Equal(x, key) }) {
					byRank[rank] = append(byRank[rank], index.Op{Key: key, Val: uint64(newNum)})
				}
			}
		}
		// Lightweight edges can only be in indexes of labels alone.
		lightToo := len(d.ptypes) == 0
		for _, c := range changes {
			rank := c.n.Holder().Rank()
			if c.k == edgeKind {
				num, oldNum := c.n, c.n
				if c.num != 0 {
					num, oldNum = c.num, c.oldNum
				}
				diff(edgeKind, rank, d.keys(edgeKind, c.old), d.keys(edgeKind, c.new), oldNum, num)
				continue
			}
			diff(vertexKind, rank, d.keys(vertexKind, c.old), d.keys(vertexKind, c.new), c.n, c.n)
			if lightToo && c.head == nil && !refsStayed(c) {
				oldLight, newLight := lightEdges(c.n, c.oldRefs()), lightEdges(c.n, c.new)
				for e, r := range oldLight {
					diff(edgeKind, rank, d.keys(edgeKind, r), d.keys(edgeKind, newLight[e]), e, e)
				}
				for e, r := range newLight {
					if oldLight[e] == nil {
						diff(edgeKind, rank, nil, d.keys(edgeKind, r), e, e)
					}
				}
			}
		}
		for rank, ops := range byRank {
			if err := st.forest.Apply(d.tree, rank, ops); err != nil {
				// A failed batch may have applied a prefix: undo it too.
				done = append(done, batch{d, rank, ops})
				undo()
				return nil, indexErr(err)
			}
			done = append(done, batch{d, rank, ops})
		}
	}
	return undo, nil
}

// refsStayed reports whether the vertex change c keeps its references as
// committed, so that the index entries of its lightweight edges stay: a
// change of labels or properties alone, which need not cost a walk of a
// hub's edges.
func refsStayed(c change) bool {
	return c.old != nil && c.new != nil && len(c.undo) == 0 && c.new.refsAsRead(c.old)
}

// lightEdges returns the lightweight edges whose origin is vertex v
// (record r), as records of their labels.
func lightEdges(v layout.Number, r *record) map[layout.Number]*record {
	if r == nil {
		return nil
	}
	out := map[layout.Number]*record{}
	for _, ee := range r.refList() {
		if x := ee.ref; !x.Stub() && x.Origin == v && x.Lightweight(ee.n) {
			out[ee.n] = refRecord(x, ee.n)
		}
	}
	return out
}
