package gdirma

import (
	"cmp"
	"errors"
	"slices"
	"sync"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
	"github.com/gdi-go/gdi/internal/invariants"
	"github.com/gdi-go/gdi/txn"
)

// The commit pipeline of a single-process transaction, after the
// optimistic reads that copied the holders. Its steps, each a function
// below:
//
//  1. writeSet: the holders it changed, created or deleted, in the order
//     of their numbers;
//  2. lockWrites: the index gate, the scan gate if it rescans, and the
//     write lock of every holder of the write set, taken from the lock
//     word it was read under where it was read (lockWrite); a lock that
//     stays busy, or was taken by another writer since the read, fails the
//     commit;
//  3. validate (validate.go): every other holder copied still has the
//     lock word it was read under (or, copied under a lock, the version
//     seen) and is not locked for writing by another transaction, and
//     every query would return the same holders;
//  4. plan: for each holder written, a change: the committed record it
//     replaces (read under the lock) and what replaces it;
//  5. install: implicit index, blocks, images with a fresh version, and
//     with the log on, logged before they are published (graph.apply);
//  6. publish: drop the locks, then give back the blocks no longer used.
//
// A transaction that wrote nothing only validates, and one that read a
// single holder not even that: its copy was checked against the holder's
// lock word.

// writeItem is a holder of the write set.
type writeItem struct {
	k   kind
	n   layout.Number // the holder
	num layout.Number // the object's number
	o   *txObj
}

// commitScratch is what a commit that writes needs for its duration: its
// locks; its view of the graph (graph.holding), which reads the holders
// it locked without checking their lock words; and, with the redo log on,
// the staged window its writes go to and the store that writes there
// (store.Stage). Commits take one from commitScratches and give it back,
// saving the allocations.
type commitScratch struct {
	locks   txn.LockSet
	stamped []txn.StampedLock // room for lockWrites' batch
	st      graph
	stage   stagedWindow
	staged  store.Store // the store writing to stage
}

// maxKeptStamped bounds the room for write locks a pooled commitScratch
// keeps.
const maxKeptStamped = 1024

var commitScratches = sync.Pool{New: func() any { return new(commitScratch) }}

// put gives cs back. It keeps nothing of the database alive, but the room
// of the lock set, which a commit that frees a vertex fills.
func (cs *commitScratch) put() {
	cs.st, cs.staged = graph{}, store.Store{}
	cs.stage.reset(nil)
	cs.locks.Forget()
	if cap(cs.stamped) > maxKeptStamped {
		cs.stamped = nil
	}
	commitScratches.Put(cs)
}

// errValidation is step 3's failure.
var errValidation = gdi.Errorf(gdi.ErrTransactionCommitFail, "a concurrent transaction changed data this one read")

// commit runs the pipeline above for a transaction that is ending.
func (tx *Transaction) commit() error {
	var wbuf [4]writeItem // most commits write a few holders
	writes, reads := tx.writeSet(wbuf[:0])
	st0 := tx.db.st
	if len(writes) == 0 {
		if (reads > 1 || tx.pendingScans()) && !tx.validate(st0) {
			return errValidation
		}
		return nil
	}
	cs := commitScratches.Get().(*commitScratch)
	defer cs.put()
	if st0.redo != nil {
		st0.redo.Admit() // before any lock, and before hold
	}
	cs.locks.Reset(st0.Locks())
	st0.holding(&cs.st, &cs.locks)
	freed, err := tx.commitWrites(cs, writes)
	if err != nil {
		return err
	}
	return st0.ReleaseAll(freed)
}

// writeSet appends to out the holders the transaction writes, sorted by
// number, and counts the others it read.
func (tx *Transaction) writeSet(out []writeItem) (writes []writeItem, reads int) {
	for k := range tx.objs {
		for num, o := range tx.objs[k].all() {
			switch {
			case o.ptr == 0:
				// lives in its ends, which are items
			case o.dirty || o.deleted || o.created:
				out = append(out, writeItem{kind(k), o.ptr, num, o})
			default:
				reads++
			}
		}
	}
	slices.SortFunc(out, func(a, b writeItem) int { return cmp.Compare(a.n, b.n) })
	return out, reads
}

// commitWrites runs steps 2 to 5 for writes with cs's store and locks,
// and returns the blocks to give back once the locks are dropped.
func (tx *Transaction) commitWrites(cs *commitScratch, writes []writeItem) ([]bgdl.DPtr, error) {
	st := &cs.st
	scanGate, err := tx.lockWrites(st, cs, writes)
	defer unlockWrites(st, &cs.locks, scanGate)
	if err != nil {
		return nil, err
	}
	if !tx.validate(st) {
		return nil, errValidation
	}
	var cbuf [4]change
	changes, drops, err := tx.plan(st, writes, cbuf[:0])
	if err != nil {
		return nil, err
	}
	freed, err := tx.install(st, cs, changes, drops)
	if err != nil {
		return nil, err
	}
	for _, it := range writes {
		if it.o.created && !it.o.deleted {
			it.o.installed = true
		}
	}
	return freed, nil
}

// lockWrites takes the gates and the write locks of writes, in this
// order, with cs's locks. unlockWrites undoes what it took, also after an
// error: the scan gate if scanGate.
func (tx *Transaction) lockWrites(st *graph, cs *commitScratch, writes []writeItem) (scanGate bool, err error) {
	// Collective index changes wait for the install, and it for them,
	// before any lock is taken (see indexTrees).
	st.idx.gate.RLock()
	// Only commits that rescan many holders wait, with their locks held,
	// for holders others lock; the scan gate keeps two of them from
	// waiting on each other. It is taken before any holder lock. Other
	// commits only read lock and version words of holders they do not
	// lock, so they never wait with locks held and skip it.
	if slices.ContainsFunc(tx.scans, scan.global) {
		if err := st.LockScanGate(txn.Attempts * 16); err != nil {
			return false, gdi.Errorf(gdi.ErrTransactionCommitFail, "scan gate: %v", err)
		}
		scanGate = true
	}
	// The holders read without a lock are locked from the words they were
	// read under, in one batch.
	ls, stamped := &cs.locks, cs.stamped[:0]
	for _, it := range writes {
		if it.lockedFromStamp() {
			stamped = append(stamped, txn.StampedLock{ID: uint64(it.n), A: st.LockAddr(it.n.Holder()), Stamp: it.o.stamp})
		}
	}
	cs.stamped = stamped
	if err := ls.TryStamped(stamped); err != nil {
		return scanGate, gdi.Errorf(gdi.ErrTransactionCommitFail, "write locks: %v", err)
	}
	for _, it := range writes {
		var l *txn.StampedLock
		if it.lockedFromStamp() {
			l, stamped = &stamped[0], stamped[1:]
		}
		if err := lockWrite(st, ls, it, l); err != nil {
			return scanGate, err
		}
	}
	return scanGate, nil
}

// lockWrite takes the write lock of holder it. A holder read without a
// lock was tried from the lock word it was read under (l, from
// LockSet.TryStamped): one atomic, which also proves the copy still
// committed (validate skips it). If another writer holds it now, the
// commit fails at once, and the holder is marked busy (store.MarkBusy).
// If the word moved, another transaction wrote the holder since, or took
// its lock and let it go without writing (which leaves a stamp taken from
// a checked block stale): the lock is taken anyway, and the version
// decides.
func lockWrite(st *graph, ls *txn.LockSet, it writeItem, l *txn.StampedLock) error {
	id, a := uint64(it.n), st.LockAddr(it.n.Holder())
	if l != nil {
		unchanged, err := ls.SettleStamped(*l)
		if errors.Is(err, txn.ErrBusy) {
			st.MarkBusy(it.n.Holder())
		}
		if err != nil || unchanged {
			return lockErr(it, err)
		}
	}
	if err := ls.Lock(id, a, txn.Write); err != nil {
		return lockErr(it, err)
	}
	if l != nil {
		if !st.hasVersion(it.k, it.o.ptr, it.o.base) {
			st.MarkBusy(it.n.Holder())
			return errValidation
		}
		it.o.stamp, _ = ls.Took(id)
	}
	return nil
}

// lockedFromStamp reports whether holder it, read without a lock and not
// new, is locked from the lock word it was read under.
func (it writeItem) lockedFromStamp() bool { return it.o.stamped && !it.o.created }

// lockErr is the commit failure of a lock of holder it that failed.
func lockErr(it writeItem, err error) error {
	if err == nil {
		return nil
	}
	return gdi.Errorf(gdi.ErrTransactionCommitFail, "%v %v: %w", it.k, it.n.Holder(), err)
}

func unlockWrites(st *graph, ls *txn.LockSet, scanGate bool) {
	ls.ReleaseAll()
	if scanGate {
		st.UnlockScanGate()
	}
	st.idx.gate.RUnlock()
}

// plan appends to changes the change of each holder written, and lists
// apart the vertices whose references are dropped sparsely, in place
// (sparsedrop.go).
func (tx *Transaction) plan(st *graph, writes []writeItem, changes []change) (_ []change, drops []writeItem, err error) {
	if len(writes) > cap(changes) { // a delete: one per neighbour
		changes = make([]change, 0, len(writes))
	}
	for _, it := range writes {
		o := it.o
		if o.deleted && o.created || !o.dirty && !o.deleted {
			continue
		}
		c := change{k: it.k, n: it.n, num: it.num, oldNum: it.num}
		for a, to := range tx.alias {
			if to == it.num && layout.IsLight(a) {
				c.oldNum = a // numbered after a vertex deleted here (orphan)
			}
		}
		if len(o.drops) > 0 && o.rec.partial {
			sparse, err := tx.planDrops(st, it, &c)
			if err != nil {
				return nil, nil, err
			}
			if sparse {
				drops = append(drops, it)
			} else {
				changes = append(changes, c)
			}
			continue
		}
		if err := tx.planOld(st, it, &c); err != nil {
			return nil, nil, err
		}
		if !o.deleted {
			// The transaction ends with the commit, whatever its outcome:
			// its copy can be installed as it is.
			c.new = o.rec
			if c.new.partial && c.head == nil {
				// The edge references are as committed: the version was
				// validated under the write lock.
				c.new.takeRefs(c.old)
			}
		}
		changes = append(changes, c)
	}
	return changes, drops, nil
}

// planDrops plans a vertex read partially whose references the
// transaction dropped: in place if the drops can be written sparsely
// (sparse, the plan in it.o.plan), else c gets the whole image with the
// references taken out.
func (tx *Transaction) planDrops(st *graph, it writeItem, c *change) (sparse bool, err error) {
	o := it.o
	ok, err := st.finish(o.plan, o.rec.deg, o.plan.count-uint64(len(o.drops)))
	if err != nil {
		return false, gdi.Errorf(gdi.ErrTransactionCommitFail, "%w", err)
	}
	if testHookDrops != nil {
		testHookDrops(ok)
	}
	if ok {
		if invariants.Enabled {
			if o.plan.want, err = st.wantAfterDrops(it.n, o.drops); err != nil {
				return false, gdi.Errorf(gdi.ErrIntern, "%v", err)
			}
		}
		return true, nil
	}
	// Not in place: the whole image, as full would read it.
	old, chain, err := st.loadImage(it.k, it.n, store.Chain)
	if err != nil || old == nil {
		return false, gdi.Errorf(gdi.ErrTransactionCommitFail, "%v %v vanished: %v", it.k, it.n.Holder(), err)
	}
	o.rec.takeRefs(old)
	if e, ok := o.rec.delRefs(o.drops); !ok {
		return false, gdi.Errorf(gdi.ErrTransactionCommitFail, "edge %d vanished from vertex %v", e, it.n.Holder())
	}
	c.old, c.chain, c.new = old, chain, o.rec
	return false, nil
}

// planOld sets in c the committed record that the change replaces and
// the blocks it has, from what the transaction read where it can (its
// copy was validated under the write lock), or reads it; and, for a vertex
// whose labels and properties keep their length, the head to write over
// in place (c.head).
func (tx *Transaction) planOld(st *graph, it writeItem, c *change) error {
	o := it.o
	var installed *record // what replaces the old record, if anything
	if !o.deleted {
		installed = o.rec
	}
	switch {
	case o.created:
		if lo := o.room; lo != nil { // the new holder's block, in the copy's room
			lo.chain[0] = it.n.Holder()
			c.chain = lo.chain[:1]
		}
	case o.orig != nil:
		// Read whole, and validated unchanged under the lock.
		if err := o.orig.settleHead(installed); err != nil {
			return gdi.Errorf(gdi.ErrIntern, "gdirma: vertex %v: %v", it.n.Holder(), err)
		}
		c.old, c.chain, c.undo = o.orig, o.chain, o.rec.undo()
	case o.rec.partial && !o.deleted:
		return tx.planPartial(st, it, c)
	case o.img != nil:
		return tx.planSingleBlock(st, it, c, installed)
	default:
		old, chain, err := st.loadImage(it.k, it.n, store.Chain)
		if err != nil {
			return gdi.Errorf(gdi.ErrTransactionCommitFail, "%w", err)
		}
		c.old, c.chain = old, chain
	}
	return nil
}

// planPartial is planOld of a vertex read partially: only its labels and
// properties can have changed, and if they keep their length they are
// written over in place. The old record is read into the transaction's
// image buffers, given back when it ends; the prefix read first is the
// committed one, its version validated under the lock.
func (tx *Transaction) planPartial(st *graph, it writeItem, c *change) error {
	o := it.o
	old, _ := origRoom(o)
	var err error
	whole := false
	if p := o.rest.Bytes; p != nil {
		if whole, err = decodePrefix(old, p, st.Codec(it.n.Holder())); err != nil {
			return gdi.Errorf(gdi.ErrIntern, "gdirma: vertex %v: %v", it.n.Holder(), err)
		}
	}
	if whole {
		old.version, old.home = o.base, homeOf(it.n)
	} else {
		*old = record{}
		found := false
		if found, _, _, err = st.loadInto(old, it.k, it.n, store.Prefix, tx.imageList(), nil); err != nil {
			return gdi.Errorf(gdi.ErrTransactionCommitFail, "%w", err)
		}
		if !found {
			return gdi.Errorf(gdi.ErrTransactionCommitFail, "%v %v vanished", it.k, it.n.Holder())
		}
	}
	c.old = old
	if old.partial {
		head := appendHead(tx.headSpace(int(old.headLen)+16), o.rec) // most often as long as before
		if len(head) == int(old.headLen) && int(old.headLen) <= st.BlockSize()-store.PrimaryHeader {
			c.head = head
		} else if c.old, c.chain, err = st.loadImage(it.k, it.n, store.Chain); err != nil {
			return gdi.Errorf(gdi.ErrTransactionCommitFail, "%w", err)
		}
	}
	return nil
}

// planSingleBlock is planOld of a holder read whole from its only block,
// and validated unchanged. A pooled copy has room for the committed
// record. A vertex whose references are as read and whose labels and
// properties keep their length is written over in place, as for a
// partial record.
func (tx *Transaction) planSingleBlock(st *graph, it writeItem, c *change, installed *record) error {
	o := it.o
	old, chain := origRoom(o)
	err := decodeImage(old, it.k, o.img, st.Codec(it.n.Holder()))
	if err == nil {
		err = old.settleHead(installed)
	}
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: vertex %v: %v", it.n.Holder(), err)
	}
	old.version, old.home = o.base, homeOf(it.n)
	c.old, c.chain = old, append(chain, it.n.Holder())
	// It is written whole, not its labels and properties in place: one put
	// either way, and the block keeps its check (store's checked.go).
	return nil
}

// install writes the changes and the sparse drops (graph.apply), and
// returns the blocks to give back. With the log on, the writes are staged
// in cs.stage, logged, and published only once logged: a commit the log
// refuses leaves nothing. The sparse drops go after apply's writes, which
// may still fail and change nothing.
func (tx *Transaction) install(st *graph, cs *commitScratch, changes []change, drops []writeItem) ([]bgdl.DPtr, error) {
	writeDrops := func() error {
		if len(drops) == 0 {
			return nil
		}
		version, err := st.NextVersion()
		if err != nil {
			return err
		}
		return st.writeDrops(drops, version)
	}
	if st.redo == nil {
		freed, err := st.apply(changes, nil)
		if err == nil {
			err = writeDrops()
		}
		if err != nil {
			return nil, gdi.Errorf(gdi.ErrTransactionCommitFail, "%w", err)
		}
		return freed, nil
	}
	defer st.redo.Hold()()
	stage, live := &cs.stage, st.Store
	stage.reset(live.Data())
	live.Stage(&cs.staged, stage)
	st.Store = &cs.staged
	freed, err := st.apply(changes, func() error {
		if err := writeDrops(); err != nil {
			return err
		}
		return st.redo.Commit(stage.writes)
	})
	if err != nil {
		return nil, gdi.Errorf(gdi.ErrTransactionCommitFail, "%w", err)
	}
	st.Store = live
	if err := stage.publish(); err != nil {
		return nil, err
	}
	return freed, nil
}
