package gdirma

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/checkpoint"
	"github.com/gdi-go/gdi/gdirma/internal/redolog"
	"github.com/gdi-go/gdi/internal/agree"
	"github.com/gdi-go/gdi/internal/catalog"
	"github.com/gdi-go/gdi/internal/vfs"
	"github.com/gdi-go/gdi/rma"
)

// Recovery from the redo log (see "The redo log" in redolog.go).

// checkLog checks the log fields of p.
func (p Params) checkLog() error {
	if _, err := ParseLogMode(string(p.Log)); err != nil {
		return err
	}
	if p.Log != LogOff && p.Log != "off" && p.LogDir == "" {
		return gdi.Errorf(gdi.ErrArgument, "gdirma: redo log %q without a LogDir", p.Log)
	}
	return nil
}

// startLog switches the log on, if db.params asks for it, at the end of
// CreateDatabase (collective): it takes a checkpoint to the log directory,
// which starts an empty log on every rank.
// asyncLogInterval, if not 0, replaces AsyncLogInterval for the logs
// made from now on (tests hold records back with it).
var asyncLogInterval time.Duration

func (db *Database) startLog() error {
	if db.params.Log == LogOff {
		return nil
	}
	seq, seqOff := db.st.LogSeqWord()
	db.log = redolog.Open(redolog.Config{Rank: db.rank, Ranks: db.st.Size(), Async: db.params.Log == LogAsync,
		Seq: seq, SeqOffset: seqOff, FS: func() vfs.FS { return fsys }, Interval: asyncLogInterval})
	if err := db.Checkpoint(db.params.LogDir); err != nil {
		_ = db.log.Close()
		db.log = nil
		return err
	}
	db.st.redo = db.log
	return db.startAuto()
}

// logCheckpoint ends a collective call that wrote holders outside commits
// (err == nil): with the log on, it takes a checkpoint to the log
// directory, since the log has no record of such writes. If that fails,
// commits fail until a checkpoint to the log directory succeeds.
func (db *Database) logCheckpoint(err error) error {
	if gdi.Failed(err) || db.log == nil {
		return err
	}
	if cerr := db.Checkpoint(db.params.LogDir); cerr != nil {
		db.log.SetStale(cerr)
		return cerr
	}
	return err
}

// setHooks makes the catalog keep the explicit indexes (indexChanged)
// and log every metadata change (logDelta).
func (db *Database) setHooks() {
	db.SetIndexHook(db.indexChanged)
	db.SetChangeHook(db.logDelta)
}

// logDelta records a collective metadata change, the catalog's change
// hook, in rank 0's log, and synchronises the ranks, so that a commit
// that uses the change anywhere has a later sequence number. In sync mode
// the record is durable before the call returns on any rank; in async
// mode it is queued, and a recovery that lost it stops before it, and so
// before every commit that could use it.
func (db *Database) logDelta(d catalog.Delta) error {
	if db.log == nil {
		return nil
	}
	var local error
	if db.rank == 0 {
		js, err := json.Marshal(d)
		if err != nil {
			local = gdi.Errorf(gdi.ErrIntern, "gdirma: redo log: %v", err)
		} else {
			local = db.log.LogCatalog(js)
		}
	}
	return agree.Errors(db.comm, local)
}

// replay applies the records of the log segments that follow the
// checkpoint m in dir, just restored (logSegments), and rebuilds what
// follows from the holders (collective). The first segment of a quiet
// checkpoint starts at its sequence number exactly. A first pass over
// each rank's segments checks them and gathers their sequence numbers (to
// find the global order and, after an async log, the first gap) and their
// catalog changes; a second pass applies the writes in rounds (applyLog),
// so that a rank holds one round of its log in memory, not the whole.
func (db *Database) replay(dir string, m *manifest, withLogs bool) error {
	var paths []string
	var local error
	if withLogs {
		paths, local = logSegments(dir, m, db.rank)
	}
	var sum logSummary
	if local == nil {
		sum, local = scanLog(paths, db.rank, db.st.Size(), m)
	}
	if err := agree.Errors(db.comm, local); err != nil {
		return err
	}
	limit, maxSeq, applied, err := db.replayLimit(sum, m.LogSeq)
	if err != nil {
		return err
	}
	if err := db.applyLog(paths, m.LogSeq, limit); err != nil {
		return err
	}
	// The catalog changes (only rank 0 logs them).
	cats := slices.DeleteFunc(sum.cats, func(r redolog.Record) bool { return r.Seq > limit })
	if err := agree.Errors(db.comm, db.replayCatalog(pathOf(paths), cats)); err != nil {
		return err
	}
	if applied == 0 && !m.derived() {
		return nil
	}
	return db.rebuild(maxSeq)
}

// pathOf names the log segments paths in messages.
func pathOf(paths []string) string {
	if len(paths) == 0 {
		return "(none)"
	}
	return strings.Join(paths, ", ")
}

// logSummary is what the first pass over a rank's log keeps.
type logSummary struct {
	async bool
	seqs  []uint64         // the sequence numbers after the checkpoint
	cats  []redolog.Record // the catalog records after the checkpoint
}

// scanLog reads rank's log segments paths, which follow the checkpoint
// m, and summarises them.
func scanLog(paths []string, rank, ranks int, m *manifest) (logSummary, error) {
	c, err := redolog.OpenChain(fsys, paths, rank, ranks)
	if err != nil {
		return logSummary{}, err
	}
	defer c.Close()
	if path, base, ok := c.First(); ok {
		if err := m.checkFirstSegment(path, base); err != nil {
			return logSummary{}, err
		}
	}
	return summarize(c, m.LogSeq)
}

// summarize reads the records of the chain c numbered after seq.
func summarize(c *redolog.Chain, seq uint64) (logSummary, error) {
	sum := logSummary{async: c.Async()}
	for {
		rec, ok, err := c.Next()
		if err != nil || !ok {
			return sum, err
		}
		if rec.Seq <= seq {
			continue
		}
		sum.seqs = append(sum.seqs, rec.Seq)
		if rec.Type != redolog.RecWrites {
			sum.cats = append(sum.cats, rec)
		}
	}
}

// checkFirstSegment fails unless the log segment at path, the first after
// the checkpoint m, starting after sequence number base, can follow it: a
// quiet checkpoint's first segment starts at its number exactly, a fuzzy
// one's no later than it.
func (m *manifest) checkFirstSegment(path string, base uint64) error {
	if base > m.LogSeq || !m.Fuzzy && base != m.LogSeq {
		return gdi.Errorf(gdi.ErrFileFormat, "gdirma: redo log file %s follows the checkpoint of sequence number %d, not the one beside it (%d)", path, base, m.LogSeq)
	}
	return nil
}

// replayLimit gathers every rank's sequence numbers and returns the last
// one to replay, the last one logged, and how many records will be
// replayed (collective). A sync log makes a record durable before its
// commit's locks go, so a commit missing from the logs was not
// acknowledged and no record depends on it: every record is replayed. An
// async log may have lost a record that later ones depend on: replay
// stops before the first missing number.
func (db *Database) replayLimit(sum logSummary, ckptSeq uint64) (limit, maxSeq uint64, applied int, err error) {
	mine := []byte{0}
	if sum.async {
		mine[0] = 1
	}
	for _, s := range sum.seqs {
		mine = binary.LittleEndian.AppendUint64(mine, s)
	}
	all, err := db.comm.Allgatherv(mine)
	if err != nil {
		return 0, 0, 0, internal(err)
	}
	var seqs []uint64
	async := false
	for _, b := range all {
		async = async || b[0] == 1
		for i := 1; i+8 <= len(b); i += 8 {
			seqs = append(seqs, binary.LittleEndian.Uint64(b[i:]))
		}
	}
	slices.Sort(seqs)
	maxSeq = ckptSeq
	if len(seqs) > 0 {
		maxSeq = max(maxSeq, seqs[len(seqs)-1])
	}
	limit = maxSeq
	if async {
		limit = ckptSeq
		for _, s := range seqs {
			if s != limit+1 {
				break
			}
			limit = s
		}
	}
	for _, s := range seqs {
		if s <= limit {
			applied++
		}
	}
	return limit, maxSeq, applied, nil
}

// replayRound is the number of records of its log a rank reads for one
// round of applyLog (a variable for tests).
var replayRound = 4096

// applyLog applies the writes of the records of the logs numbered from
// ckptSeq+1 to limit, in the order of their numbers (collective). In
// rounds: every rank reads up to replayRound records; the round takes, on
// every rank, the records numbered up to the least of the last numbers
// that the ranks with a full round read, so that no record of a later
// round precedes one of this round; each rank gets the writes to its part
// of the data window (Alltoallv) and applies them in order.
func (db *Database) applyLog(paths []string, ckptSeq, limit uint64) error {
	lr, local := redolog.OpenChain(fsys, paths, db.rank, db.st.Size())
	if local == nil {
		defer lr.Close()
	}
	var buf []redolog.Record
	exhausted := local != nil
	for {
		for local == nil && !exhausted && len(buf) < replayRound {
			rec, ok, err := lr.Next()
			switch {
			case err != nil:
				local = err
			case !ok || rec.Seq > limit:
				exhausted = true
			case rec.Seq > ckptSeq && rec.Type == redolog.RecWrites:
				buf = append(buf, rec)
			}
		}
		if err := agree.Errors(db.comm, local); err != nil {
			return err
		}
		upTo, more := uint64(math.MaxUint64), uint64(0)
		if len(buf) == replayRound {
			upTo = buf[len(buf)-1].Seq
		}
		if len(buf) > 0 {
			more = 1
		}
		round, pending := []uint64{upTo}, []uint64{more}
		if err := errors.Join(db.comm.AllreduceUint64(round, rma.OpMin), db.comm.AllreduceUint64(pending, rma.OpMax)); err != nil {
			return internal(err)
		}
		if pending[0] == 0 {
			return nil
		}
		n, _ := slices.BinarySearchFunc(buf, round[0]+1, func(r redolog.Record, s uint64) int { return cmp.Compare(r.Seq, s) })
		if round[0] == math.MaxUint64 {
			n = len(buf)
		}
		if err := db.applyRound(pathOf(paths), buf[:n]); err != nil {
			return err
		}
		buf = slices.Delete(buf, 0, n)
	}
}

// applyRound applies the writes of recs, one round of applyLog, on every
// rank (collective).
func (db *Database) applyRound(path string, recs []redolog.Record) error {
	st := db.st
	send := make([][]byte, st.Size())
	var local error
	for _, r := range recs {
		for _, w := range r.Writes {
			if w.Rank < 0 || w.Rank >= st.Size() || w.Off < 0 || w.Off+len(w.B) > st.Data().Size() {
				local = gdi.Errorf(gdi.ErrFileFormat, "gdirma: redo log file %s: record %d writes %d bytes at %d of rank %d, outside the data window", path, r.Seq, len(w.B), w.Off, w.Rank)
				break
			}
			b := send[w.Rank]
			b = binary.LittleEndian.AppendUint64(b, r.Seq)
			b = binary.LittleEndian.AppendUint64(b, uint64(w.Off))
			b = binary.LittleEndian.AppendUint32(b, uint32(len(w.B)))
			send[w.Rank] = append(b, w.B...)
		}
	}
	if err := agree.Errors(db.comm, local); err != nil {
		return err
	}
	recv, err := db.comm.Alltoallv(send)
	if err != nil {
		return internal(err)
	}
	type write struct {
		seq uint64
		off int
		b   []byte
	}
	var ws []write
	for _, b := range recv {
		for len(b) >= 20 {
			n := int(binary.LittleEndian.Uint32(b[16:]))
			ws = append(ws, write{binary.LittleEndian.Uint64(b), int(binary.LittleEndian.Uint64(b[8:])), b[20 : 20+n]})
			b = b[20+n:]
		}
	}
	// Stable: the writes of one record keep their order.
	slices.SortStableFunc(ws, func(a, b write) int { return cmp.Compare(a.seq, b.seq) })
	for _, w := range ws {
		if err := st.Data().Put(w.b, db.rank, w.off); err != nil {
			local = internal(err)
			break
		}
	}
	if local == nil {
		local = internal(st.Data().Flush(db.rank))
	}
	return agree.Errors(db.comm, local)
}

// replayCatalog applies the catalog records cats of rank 0's log at path
// to the checkpoint's catalog, on rank 0, and sets the result on every
// rank (collective).
func (db *Database) replayCatalog(path string, cats []redolog.Record) error {
	var js []byte
	var local error
	if db.rank == 0 && len(cats) > 0 {
		js, local = catalogAfter(path, db.State(), cats)
	}
	if err := agree.Errors(db.comm, local); err != nil {
		return err
	}
	b, err := bcastBytes(db.comm, js)
	if err != nil {
		return internal(err)
	}
	if len(b) == 0 {
		return nil
	}
	var s catalog.State
	if err := json.Unmarshal(b, &s); err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: redo log: catalog: %v", err)
	}
	// The checkpoint's catalog is set already: replace the catalog.
	fresh := newCatalog(db.comm)
	if err := fresh.SetState(s); err != nil {
		return gdi.Errorf(gdi.ErrFileFormat, "gdirma: redo log file %s: the catalog after its changes: %v", path, err)
	}
	db.Catalog = fresh
	return nil
}

// catalogAfter returns, as JSON, the catalog s after the records cats of
// the log at path: whole catalogs (logs of older versions) or deltas.
func catalogAfter(path string, s catalog.State, cats []redolog.Record) ([]byte, error) {
	e := catalog.NewStateEditor(s)
	for _, r := range cats {
		var err error
		if r.Type == redolog.RecCatalog {
			var full catalog.State
			if err = json.Unmarshal(r.JS, &full); err == nil {
				e.Set(full)
			}
		} else {
			var d catalog.Delta
			if err = json.Unmarshal(r.JS, &d); err == nil {
				err = e.Apply(d)
			}
		}
		if err != nil {
			return nil, gdi.Errorf(gdi.ErrFileFormat, "gdirma: redo log file %s: catalog record %d: %v", path, r.Seq, err)
		}
	}
	js, err := json.Marshal(e.State())
	if err != nil {
		return nil, gdi.Errorf(gdi.ErrIntern, "gdirma: redo log: %v", err)
	}
	return js, nil
}

// rebuild derives everything but the holders again from the holders,
// after a replay (collective): the blocks in use (those of the chains of
// the primary blocks) and so the free lists and high-water marks, the
// commit counters (above every version in use), the log's sequence
// number (maxSeq), the implicit index and the trees of the explicit
// indexes.
func (db *Database) rebuild(maxSeq uint64) error {
	used, maxCount, local := db.st.UsedBlocks()
	if err := agree.Errors(db.comm, local); err != nil {
		return err
	}
	local, err := db.rebuildPool(used)
	if err != nil {
		return err
	}
	if err := db.comm.AllreduceUint64(maxCount, rma.OpMax); err != nil {
		return internal(err)
	}
	if local == nil {
		local = db.rebuildCounters(maxCount[db.rank], maxSeq)
	}
	if err := agree.Errors(db.comm, local); err != nil {
		return err
	}
	if err := agree.Errors(db.comm, db.rebuildImplicitIndex()); err != nil {
		return err
	}
	return db.rebuildExplicitIndexes()
}

// rebuildPool sends each rank the blocks of its in use (store.UsedBlocks,
// collective) and rebuilds its free list and high-water mark from them.
// err is an error of the exchange, local one of this rank's rebuild.
func (db *Database) rebuildPool(used [][]byte) (local, err error) {
	recv, err := db.comm.Alltoallv(used)
	if err != nil {
		return nil, internal(err)
	}
	return db.st.RebuildPool(recv), nil
}

// rebuildCounters raises this rank's commit counter to maxCount, sets the
// log's sequence number (rank 0) and clears the implicit index.
func (db *Database) rebuildCounters(maxCount, maxSeq uint64) error {
	st := db.st
	if err := st.RaiseCommits(maxCount); err != nil {
		return err
	}
	if db.rank == 0 {
		if err := st.SetLogSeq(maxSeq); err != nil {
			return err
		}
	}
	return internal(st.IDs().Clear())
}

// rebuildExplicitIndexes drops every tree and builds those of the catalog
// (collective).
func (db *Database) rebuildExplicitIndexes() error {
	st := db.st
	st.idx.mu.Lock()
	old := st.idx.defs
	st.idx.defs = map[uint32]*treeDef{}
	st.idx.mu.Unlock()
	for _, num := range slices.Sorted(maps.Keys(old)) {
		if err := st.forest.Drop(old[num].tree); err != nil {
			return indexErr(err)
		}
	}
	for _, def := range db.IndexDefs() {
		if def.Freed {
			continue
		}
		if err := db.buildIndex(def); err != nil {
			return fmt.Errorf("gdirma: recovery: index %d: %w", def.Num, err)
		}
	}
	return nil
}

// logSegments returns the paths of rank's log segments that follow the
// checkpoint m in dir: rank-<r>.log of generation m.logFrom() and of every
// later generation directory, in order (see "The redo log" in redolog.go).
func logSegments(dir string, m *manifest, rank int) ([]string, error) {
	name := redolog.FileName(rank)
	if m.Generation == 0 {
		return []string{filepath.Join(dir, name)}, nil
	}
	names, err := fsys.ReadDir(dir)
	if err != nil {
		return nil, fileErr(dir, err)
	}
	var gens []uint64
	for _, n := range names {
		if g, ok := checkpoint.GenerationOf(n); ok && g >= m.logFrom() {
			gens = append(gens, g)
		}
	}
	slices.Sort(gens)
	paths := make([]string, len(gens))
	for i, g := range gens {
		paths[i] = filepath.Join(checkpoint.GenDir(dir, g), name)
	}
	return paths, nil
}
