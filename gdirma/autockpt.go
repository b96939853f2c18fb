package gdirma

import (
	"errors"
	"math"
	"path/filepath"
	"sync"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/checkpoint"
	"github.com/gdi-go/gdi/gdirma/internal/redolog"
	"github.com/gdi-go/gdi/internal/agree"
	"github.com/gdi-go/gdi/rma"
)

// Automatic checkpoints bound the redo log (Params.LogCheckpointSize).
// They are taken while commits go on, so they are fuzzy: each rank copies
// the data window of its block pool while commits may write it, and a
// restore replays, over the copies, every record numbered after a number
// S that the copies are known to hold, then derives everything else from
// the holders (rebuild).
//
// A round of the protocol, run by a goroutine of each rank (autoRound)
// and coordinated through a small window of words on rank 0, never by
// collectives, since the application may be in collectives of its own:
//
//  1. a rank whose log segment passes the size sets the wanted word;
//  2. rank 0, if no collective call that needs it holds the round off
//     (pause), makes the directory of a new generation g and starts round
//     g;
//  3. every rank rolls its log to a new segment of generation g, once its
//     commits that appended to the old segment have published their
//     writes (redolog.Log.Roll), and takes part of S: the least, over the
//     ranks, of the last number in their old segments; and of the first
//     generation to replay: the least of the old segments' generations;
//  4. once every rank has rolled, so that every record numbered up to S
//     is published, every rank copies its data window into generation g;
//  5. once every rank has copied, every rank makes its log durable
//     (redolog.Log.Flush);
//  6. once every rank has, rank 0 writes the manifest (Fuzzy, LogSeq S,
//     LogFrom the least old generation) and makes it current; the
//     generations before LogFrom go.
//
// Why the replay is right: the copies hold every write of the records
// numbered up to S, which were published before any copy began, so each
// byte of a copy is the value of a record numbered S or later, or of one
// being replayed. A replay writes the records numbered after S, all of
// them (those of the old segments after S too), in number order, and the
// numbers follow the order in which commits wrote each byte; so each byte
// ends with its last writer's value. A failed round leaves the previous
// checkpoint current, and its restore replays the new segments as well
// (logSegments).
//
// Why step 5: a copy may hold writes of commits numbered after S, and
// with an async log their records may still be queued. A crash that lost
// them would leave the copies holding part of a commit (the part on the
// ranks that copied after it) that the replay, which stops before the
// first missing number, never completes. Every record whose writes a copy
// may hold was queued before the last copy ended, so the flushes after it
// make them all durable before the checkpoint counts.

// Words of the coordination window, on rank 0.
const (
	autoWanted   = 0  // 1 if a rank wants a checkpoint
	autoRound    = 8  // the number of the last round started
	autoGen      = 16 // the generation of that round
	autoRolled   = 24 // ranks that rolled their log in the round
	autoCopied   = 32 // ranks that copied their data window
	autoSeq      = 40 // S: the least last number of the old segments
	autoFrom     = 48 // the least generation of the old segments
	autoFailed   = 56 // 1 if a step failed on a rank
	autoSynced   = 64 // ranks that made their log durable after the copies
	autoWinSize  = 72
	autoInterval = 2 * time.Millisecond
)

// autoCheckpointer is the rank's part of automatic checkpoints.
type autoCheckpointer struct {
	db   *Database
	win  rma.Window
	stop chan struct{}
	done chan struct{}
	seen uint64 // the last round the rank took part in

	// On rank 0: collective calls that write holders outside commits, or
	// checkpoint, hold rounds off (pause), and wait for one under way.
	mu      sync.Mutex
	cond    sync.Cond
	paused  int
	running bool
	lastErr error // of the last round: nil if it made its checkpoint current
}

// startAuto starts automatic checkpoints, if the log has a bound
// (collective).
func (db *Database) startAuto() error {
	limit := db.params.logCheckpointSize()
	if limit == 0 {
		return nil
	}
	win, err := db.comm.NewWindow(autoWinSize)
	if err != nil {
		return gdi.Errorf(gdi.ErrNoMemory, "gdirma: automatic checkpoints: %v", err)
	}
	a := &autoCheckpointer{db: db, win: win, stop: make(chan struct{}), done: make(chan struct{})}
	a.cond.L = &a.mu
	var local error
	if db.rank == 0 {
		local = a.reset()
	}
	if err := agree.Errors(db.comm, local); err != nil {
		_ = win.Free() // alike on every rank
		return err
	}
	db.log.SetLimit(limit, a.want)
	db.auto = a
	go a.run()
	return nil
}

// want asks for a checkpoint (the log's full hook).
func (a *autoCheckpointer) want() {
	_, _ = a.win.CompareAndSwap(0, autoWanted, 0, 1)
}

// stopAuto ends automatic checkpoints (collective): rank 0 holds rounds
// off, so that none is under way once every rank has passed the barrier.
func (db *Database) stopAuto() error {
	a := db.auto
	if a == nil {
		return nil
	}
	resume := db.pauseAuto()
	err := agree.Errors(db.comm, nil)
	close(a.stop)
	<-a.done
	resume()
	db.log.SetLimit(0, nil)
	db.auto = nil
	if ferr := a.win.Free(); err == nil && ferr != nil {
		err = internal(ferr)
	}
	return err
}

// pauseAuto holds automatic checkpoints off until resume is called, after
// waiting for one under way: on rank 0, which starts them; elsewhere it
// does nothing. A collective call that writes holders outside commits, or
// checkpoints, calls it on every rank before its first agreement.
func (db *Database) pauseAuto() (resume func()) {
	a := db.auto
	if a == nil || db.rank != 0 {
		return func() {}
	}
	a.mu.Lock()
	a.paused++
	for a.running {
		a.cond.Wait()
	}
	a.mu.Unlock()
	return func() {
		a.mu.Lock()
		a.paused--
		a.mu.Unlock()
	}
}

// run takes part in every round; on rank 0 it also starts them.
func (a *autoCheckpointer) run() {
	defer close(a.done)
	t := time.NewTicker(autoInterval)
	defer t.Stop()
	for {
		select {
		case <-a.stop:
			return
		case <-t.C:
		}
		if a.db.rank == 0 {
			a.maybeStart()
		}
		round, err := a.win.AtomicGet(0, autoRound)
		if err != nil || round <= a.seen {
			continue
		}
		a.seen = round
		if err := a.takePart(); a.db.rank == 0 {
			a.ended(err)
		}
	}
}

// maybeStart starts a round (rank 0) if a rank wants one and no call
// holds rounds off.
func (a *autoCheckpointer) maybeStart() {
	if w, err := a.win.AtomicGet(0, autoWanted); err != nil || w == 0 {
		return
	}
	a.mu.Lock()
	if a.paused > 0 || a.running {
		a.mu.Unlock()
		return
	}
	a.running = true
	a.mu.Unlock()
	err := a.reset()
	var g uint64
	if err == nil {
		g, err = newGeneration(a.db.params.LogDir)
	}
	if err == nil {
		err = internal(a.win.AtomicPut(0, autoGen, g))
	}
	if err == nil {
		_, err = a.win.FetchAndAdd(0, autoRound, 1)
		err = internal(err)
	}
	if err != nil {
		a.ended(err)
	}
}

// ended marks the round under way ended, with its error (rank 0), and
// wakes the calls waiting in pauseAuto.
func (a *autoCheckpointer) ended(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.running, a.lastErr = false, err
	a.cond.Broadcast()
}

// reset clears the words of a round, and the wanted word (rank 0).
func (a *autoCheckpointer) reset() error {
	for _, w := range []struct {
		off int
		v   uint64
	}{{autoWanted, 0}, {autoRolled, 0}, {autoCopied, 0}, {autoSynced, 0}, {autoSeq, math.MaxUint64}, {autoFrom, math.MaxUint64}, {autoFailed, 0}} {
		if err := a.win.AtomicPut(0, w.off, w.v); err != nil {
			return internal(err)
		}
	}
	return nil
}

// takePart runs steps 3 to 6 of the round for the rank; on rank 0 it
// returns the error of the round's commit.
func (a *autoCheckpointer) takePart() error {
	db := a.db
	g, err := a.win.AtomicGet(0, autoGen)
	gd := checkpoint.GenDir(db.params.LogDir, g)
	var last, oldGen uint64
	if err == nil {
		last, oldGen, err = db.log.Roll(filepath.Join(gd, redolog.FileName(db.rank)), g)
	}
	if err == nil {
		err = errors.Join(a.lower(autoSeq, last), a.lower(autoFrom, oldGen))
	}
	a.count(autoRolled, err)
	a.await(autoRolled)
	if failed, _ := a.win.AtomicGet(0, autoFailed); failed == 0 {
		copyHook(db.rank, false)
		_, err = db.st.writeRankFile(filepath.Join(gd, checkpoint.RankFileName(db.rank)), true)
		copyHook(db.rank, true)
	}
	a.count(autoCopied, err)
	a.await(autoCopied)
	a.count(autoSynced, db.log.Flush())
	if db.rank != 0 {
		return nil
	}
	a.await(autoSynced)
	return a.commit(g)
}

// testHookCopy, if set by a test, is called by each rank of a round just
// before (copied false) and after it copies its data window.
var testHookCopy func(rank int, copied bool)

func copyHook(rank int, copied bool) {
	if testHookCopy != nil {
		testHookCopy(rank, copied)
	}
}

// lower lowers the word at off of rank 0 to x, if x is less.
func (a *autoCheckpointer) lower(off int, x uint64) error {
	for {
		cur, err := a.win.AtomicGet(0, off)
		if err != nil {
			return internal(err)
		}
		if cur <= x {
			return nil
		}
		if prev, err := a.win.CompareAndSwap(0, off, cur, x); err != nil || prev == cur {
			return internal(err)
		}
	}
}

// count marks the rank's step at off done, and the round failed if err is
// not nil.
func (a *autoCheckpointer) count(off int, err error) {
	if err != nil {
		_ = a.win.AtomicPut(0, autoFailed, 1)
	}
	_, _ = a.win.FetchAndAdd(0, off, 1)
}

// await waits until every rank has done the step at off.
func (a *autoCheckpointer) await(off int) {
	for {
		n, err := a.win.AtomicGet(0, off)
		if err != nil || n >= uint64(a.db.comm.Size()) {
			return
		}
		rma.Idle(a.win, 50*time.Microsecond) // rank 0 may be waiting on this rank's windows
	}
}

// commit writes the manifest of the round's checkpoint, of generation g,
// and makes it current (rank 0, step 5), unless a step failed.
func (a *autoCheckpointer) commit(g uint64) error {
	db := a.db
	var w [3]uint64
	for i, off := range []int{autoFailed, autoSeq, autoFrom} {
		v, err := a.win.AtomicGet(0, off)
		if err != nil {
			return internal(err)
		}
		w[i] = v
	}
	if w[0] != 0 {
		return gdi.Errorf(gdi.ErrIO, "gdirma: automatic checkpoint %d: a rank failed", g)
	}
	dir := db.params.LogDir
	m := db.newManifest(g, w[1])
	m.LogFrom, m.Fuzzy = w[2], true
	for r := range db.st.Size() {
		fst, err := checkpoint.SumRankFile(fsys, filepath.Join(checkpoint.GenDir(dir, g), checkpoint.RankFileName(r)))
		if err != nil {
			return err
		}
		m.Files = append(m.Files, fst)
	}
	content, err := sealManifest(&m)
	if err == nil {
		err = checkpoint.CommitManifest(fsys, dir, g, content)
	}
	if err == nil {
		checkpoint.RemoveOldGenerations(fsys, dir, m.LogFrom)
	}
	return err
}
