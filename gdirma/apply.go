package gdirma

import (
	"slices"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
	"github.com/gdi-go/gdi/internal/invariants"
	"github.com/gdi-go/gdi/txn"
)

// change is one object to install: new == nil deletes it; old is the
// committed record it replaces (nil for a new object).
type change struct {
	k        kind
	n        layout.Number
	old, new *record
	chain    []bgdl.DPtr // the blocks of old, if the caller read them
	// num and oldNum are the numbers of an edge before and after the
	// change, for its index entries, if they are not n (edges numbered
	// after their origin); 0 if they are.
	num, oldNum layout.Number
	// head, if set, is the new labels and properties of a vertex whose
	// edge references did not change (old and new are partial records),
	// as long as the old ones and within the primary block: the change
	// is written over them in place.
	head []byte
	// undo, if set, is what the new record turned into tombstones in the
	// references it shares with old (record.undo).
	undo []deadPatch
}

// oldRefs returns the old record with its references as committed.
func (c change) oldRefs() *record {
	if len(c.undo) == 0 || c.old == nil || c.old.raw == nil {
		return c.old
	}
	r := *c.old
	r.raw, r.own, r.lastFound = restored(c.old.raw, c.undo), ownSelf, foundRef{}
	return &r
}

// apply installs changes, which the caller has locked for writing (or the
// database is quiet), in steps:
//
//  1. the implicit index: keys the changes drop, then keys they add (where
//     uniqueness is decided);
//  2. blocks: the images are encoded and take the blocks they need;
//  3. a new version, and the explicit indexes;
//  4. the writes of the images to the data window;
//  5. logged, if not nil: the caller's last step (the redo log), which
//     may still fail the whole.
//
// An error in steps 1 to 3 or 5 undoes the steps before it: the implicit
// and explicit indexes are as before, and the blocks taken are given back.
// The writes of step 4 can be undone only if they were staged (see
// stagedWindow): an error of the data window there is internal. It returns
// the blocks to release once the locks are dropped.
func (st *graph) apply(changes []change, logged func() error) (freed []bgdl.DPtr, err error) {
	var u applyUndo
	if err := st.applyKeys(changes, &u); err != nil {
		st.undoApply(&u)
		return nil, err
	}
	var pbuf [4]blockPlan // most commits change a few holders
	plans := pbuf[:min(len(changes), len(pbuf))]
	if len(changes) > len(pbuf) {
		plans = make([]blockPlan, len(changes))
	}
	defer st.putHeads(plans)
	if freed, err = st.planBlocks(changes, &u, plans); err != nil {
		st.undoApply(&u)
		return nil, err
	}
	version, err := st.NextVersion()
	if err != nil {
		st.undoApply(&u)
		return nil, err
	}
	// The explicit indexes, while the holders are locked: a query that
	// finds a new entry early waits for the holder's lock.
	undoIndexes, err := st.reindex(changes)
	if err == nil {
		if err = applyFailpoint(stepIndexes); err != nil {
			undoIndexes()
		}
	}
	if err == nil {
		err = st.writeChanges(changes, version, plans)
		if err == nil && logged != nil {
			err = logged()
		}
		if err != nil {
			undoIndexes()
		}
	}
	if err != nil {
		st.undoApply(&u)
		return nil, err
	}
	return freed, nil
}

// applyUndo is what apply did so far and takes back if a later step
// fails: the changes of the implicit index and the blocks taken.
type applyUndo struct {
	keys  []keyUndo
	taken []bgdl.DPtr
}

// keyUndo is a key apply deleted from (insert false) or inserted into
// the implicit index.
type keyUndo struct {
	insert bool
	k      kind
	key    idKey
	n      layout.Number
}

// undoApply gives back the blocks taken and the implicit index's keys.
func (st *graph) undoApply(u *applyUndo) {
	_ = st.ReleaseAll(u.taken)
	for i := len(u.keys) - 1; i >= 0; i-- {
		k := u.keys[i]
		if k.insert {
			_, _ = st.dropKey(k.k, k.key, k.n)
		} else {
			_ = st.addKey(k.k, k.key, k.n)
		}
	}
}

// applyKeys is apply's step 1: it deletes the implicit index's keys that
// the changes drop, then inserts those they add, where uniqueness is
// decided (ErrNonUniqueID), noting each in u.
func (st *graph) applyKeys(changes []change, u *applyUndo) error {
	for _, c := range changes {
		if sameKeys(c) {
			continue
		}
		var nb, ob [2]idKey
		nk := keysOf(c.new, nb[:])
		for _, key := range keysOf(c.old, ob[:]) {
			if slices.Contains(nk, key) {
				continue
			}
			if err := applyFailpoint(stepIndexDelete); err != nil {
				return internal(err)
			}
			deleted, err := st.dropKey(c.k, key, c.n)
			if err != nil {
				return err
			}
			if deleted {
				u.keys = append(u.keys, keyUndo{false, c.k, key, c.n})
			}
		}
	}
	for _, c := range changes {
		if sameKeys(c) {
			continue
		}
		var ob, nb [2]idKey
		ok := keysOf(c.old, ob[:])
		for _, key := range keysOf(c.new, nb[:]) {
			if slices.Contains(ok, key) {
				continue
			}
			if err := applyFailpoint(stepIndexInsert); err != nil {
				return internal(err)
			}
			if err := st.addKey(c.k, key, c.n); err != nil {
				return err
			}
			u.keys = append(u.keys, keyUndo{true, c.k, key, c.n})
		}
	}
	return nil
}

// sameKeys reports whether c keeps the keys of its object: most changes
// keep the labels and the ID of a vertex.
func sameKeys(c change) bool {
	if c.old == nil || c.new == nil {
		return false
	}
	if c.old.headRaw != nil && c.new.headRaw != nil {
		// Both still encoded (lazyhead.go): compared as they are.
		return string(c.old.headRaw) == string(c.new.headRaw)
	}
	if !slices.Equal(c.old.labels(), c.new.labels()) {
		return false
	}
	a, okA := c.old.appID()
	b, okB := c.new.appID()
	return okA == okB && a == b
}

// blockPlan is where apply writes the image of a change: its blocks, its
// encoding (whose head is in a block buffer), and the part that changed.
type blockPlan struct {
	chain []bgdl.DPtr
	img   store.Parts
	dirty store.Dirty
	head  *[]byte
}

// putHeads gives back the block buffers of plans.
func (st *graph) putHeads(plans []blockPlan) {
	for _, p := range plans {
		if p.head != nil {
			st.PutBlockBuf(p.head)
		}
	}
}

// planBlocks is apply's step 2: it encodes the image of each change into
// plans and takes the blocks it needs (noting them in u), and returns the
// blocks the changes no longer use.
func (st *graph) planBlocks(changes []change, u *applyUndo, plans []blockPlan) (freed []bgdl.DPtr, err error) {
	for i, c := range changes {
		if c.head != nil {
			continue
		}
		chain := c.chain
		if c.old != nil && chain == nil {
			var img store.Image
			ok, err := st.read(c.n, &store.Request{Mode: store.Chain}, &img)
			if err != nil {
				return nil, err
			}
			if ok {
				chain = img.Chain
			}
		}
		if len(chain) == 0 {
			chain = []bgdl.DPtr{c.n.Holder()}
		}
		if c.new == nil {
			freed = append(freed, chain...)
			continue
		}
		plans[i].head = st.BlockBuf()
		b := encodeParts(c.k, c.new, st.Codec(c.n.Holder()), *plans[i].head)
		need := st.BlocksFor(b.Len())
		for len(chain) < need {
			err := applyFailpoint(stepBlocks)
			var nb bgdl.DPtr
			if err == nil {
				nb, err = st.Acquire(c.n.Holder().Rank())
			}
			if err != nil {
				return nil, err
			}
			u.taken = append(u.taken, nb)
			chain = append(chain, nb)
		}
		if len(chain) > need {
			freed = append(freed, chain[need:]...)
			chain = chain[:need]
		}
		plans[i].chain, plans[i].img, plans[i].dirty = chain, b, dirtyOf(c, b, chain)
	}
	return freed, nil
}

// writeChanges is apply's step 4: each change's image, with version.
func (st *graph) writeChanges(changes []change, version store.Version, plans []blockPlan) error {
	for i, c := range changes {
		if err := st.writeChange(c, version, &plans[i]); err != nil {
			return err
		}
	}
	return nil
}

// writeChange installs the change c, planned in bp (step 4 of apply).
func (st *graph) writeChange(c change, version store.Version, bp *blockPlan) error {
	if err := applyFailpoint(stepWrites); err != nil {
		return err
	}
	p := &store.Plan{Kind: c.k, Holder: c.n.Holder(), Gone: c.new == nil, Head: c.head, Chain: bp.chain, Image: bp.img, Dirty: bp.dirty}
	// An image the primary block holds whole gets the lock word the
	// commit leaves, and a check (store.Plan.Stamp). A replay holds no
	// lock and knows no lock word.
	if took, ok := st.heldWord(c.n); ok {
		p.Stamp, p.Stamped = txn.Released(took), true
	}
	if !p.Gone && p.Head == nil && p.Dirty.Some {
		p.Fences = c.new.fences() // the layout is the one read
	}
	if err := st.Install(version, p); err != nil || p.Gone {
		return err
	}
	c.new.version = version
	if p.Head != nil && testHookHeadPatch != nil {
		testHookHeadPatch(c.n)
	}
	if invariants.Enabled {
		switch {
		case p.Head != nil && !c.new.partial:
			st.checkWritten(c, encodeParts(c.k, c.new, st.Codec(c.n.Holder()), nil))
		case p.Head == nil && p.Dirty.Some:
			st.checkWritten(c, p.Image)
		}
	}
	return nil
}

// applyStep names a step of apply, for failpoints.
type applyStep int

const (
	stepIndexDelete applyStep = iota // a key of the implicit index dropped
	stepIndexInsert                  // a key of the implicit index added
	stepBlocks                       // a block taken
	stepIndexes                      // the explicit indexes changed
	stepWrites                       // an image written
	numApplySteps
)

// testHookApply, if set by a test, is called at each step of apply; an
// error it returns fails the step.
var testHookApply func(applyStep) error

func applyFailpoint(s applyStep) error {
	if testHookApply == nil {
		return nil
	}
	return testHookApply(s)
}

// testHookHeadPatch, if set by a test, is called for every holder whose
// labels and properties a commit writes over in place (patchHead).
var testHookHeadPatch func(n layout.Number)
