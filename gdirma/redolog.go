package gdirma

import (
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/redolog"
)

// The redo log.
//
// With Params.Log = LogSync or LogAsync, every commit is also appended to
// a redo log, so a database survives the crash of a process (or of all):
// CreateDatabase with Params.Restore and Params.LogDir loads a checkpoint
// and replays the logs written after it. The files, records and readers
// are package internal/redolog's; what follows is how gdirma uses them.
//
//   - What is logged: the commit's writes to the data window of the block
//     pool, as they are made (the redo hook, staged.go): whole holder
//     images, in-place head rewrites, the cleared markers of new and of
//     deleted holders. These are physical records (block images), not
//     logical ones (create vertex, add edge). The choice: the holders are
//     the whole state of the graph, and everything else (the implicit
//     index, the explicit index trees, the free lists, the counters) is a
//     function of them, rebuilt on recovery. Replaying images needs no
//     second implementation of the commit logic, cannot fail on a uniqueness
//     check or a full pool, and does not depend on UIDs (block numbers)
//     being handed out again in the same order, which logical replay on
//     several ranks could not promise; commits already write whole images,
//     so the log costs a copy of what is written anyway. The price is
//     size: a change to a vertex of high degree logs its whole image.
//   - Order: a record carries a global sequence number, taken with one
//     FetchAndAdd on a word of rank 0's control window, inside the hook,
//     while the commit still holds its write locks. Two commits that write
//     the same holder hold its write lock in turn, so their numbers are in
//     the order of their writes. Blocks are reused only after the freeing
//     commit has dropped its locks and given them back, so a commit that
//     writes a reused block took its number after the freeing one. A
//     commit that read another's data took its number after that one
//     released its locks. So replaying in number order writes every byte
//     in the order the live database did.
//   - Files: each rank appends to rank-<r>.log, a segment, in a
//     generation directory of LogDir: a header (rank, ranks, mode, and the
//     sequence number it starts after; for the first segment of a quiet
//     checkpoint, the manifest's exactly), then records of a length, a CRC-32C of the
//     payload and a CRC-32C of the record header. A rank numbers its
//     records under its log's lock, so they are in the file in the order
//     of their numbers, and every write ends with a seal record, which
//     holds no data. A bad record that no whole record follows is a torn
//     tail (a write a crash cut short) and ignored. A bad record with a
//     whole record after it is an error (ErrFileFormat naming the file
//     and offset): silently stopping at the damage would drop commits
//     after it that were acknowledged. The seal makes that hold for the
//     last record with data too; damage to the last seal is harmless.
//   - Write-ahead: a commit's writes to the data window are staged
//     (staged.go) and logged before they are published, all while the
//     commit holds its write locks. If the log refuses the record, apply
//     undoes its other steps (the keys of the implicit index, the blocks,
//     the explicit indexes) and the commit fails with
//     ErrTransactionCommitFail, having changed nothing.
//   - Sync: the hook returns (and the commit is published, acknowledged,
//     and its locks dropped) only after the record is written and
//     fdatasync'ed. Goroutines of a rank that commit at once share one
//     sync (group commit). If the write or the sync fails, the commits of
//     that group fail and the file is cut back to its last whole record,
//     at once or before the next write, so a failure is not permanent:
//     once the disk has room, the next commit succeeds.
//   - Async: records go to a buffer that a goroutine writes and syncs
//     every AsyncLogInterval (and Checkpoint and Free flush it); a commit
//     is acknowledged once its record is in the buffer. What a crash may
//     lose: the commits whose records were not yet synced. A commit is
//     acknowledged at once only while the oldest record in the buffer is
//     younger than AsyncMaxLag (100 ms) and the last write succeeded;
//     otherwise it first writes and syncs the buffer itself, and fails if
//     that fails (a record in the buffer stays there until written). So
//     the commits a crash loses were all acknowledged within AsyncMaxLag
//     of each other, at the end, and recovery keeps a prefix of the
//     commits in their global order.
//   - Recovery: every rank reads its log; records numbered up to the
//     checkpoint's (manifest LogSeq) are skipped. With sync logs every
//     record is replayed: a number missing from the logs belongs to a
//     commit that was never acknowledged and that no logged commit depends
//     on (it would have had to wait for its locks, taken after the sync).
//     With async logs a lost record may have successors that depend on it,
//     so replay stops before the first missing number: a prefix of the
//     commits in their order, which is a state the database was in. The
//     logs are read record by record, twice: once for the numbers and the
//     catalog changes, then in rounds of at most 4096 records per rank,
//     each bounded by the least last number of the ranks' full rounds. In
//     each round every rank gets the writes to its part of the data
//     window (Alltoallv) and applies them in number order; a rank holds
//     one round of its log in memory. Then the derived state is rebuilt
//     from the holders: the blocks of the chains of all primary blocks are
//     in use and the rest free (bgdl.Pool.Rebuild), the high-water marks
//     follow, each rank's commit counter is raised above every version in
//     use, the DHT is cleared and every (label, ID) of every vertex
//     inserted again, and every index tree is built again.
//   - Metadata: every collective change of labels, property types and
//     indexes ends by reporting its delta to the catalog's change hook
//     (internal/catalog/change.go), which appends it to rank 0's log,
//     synced in sync mode, before the call returns on any rank; replay
//     applies the deltas to the checkpoint's catalog. The collective
//     calls that write holders outside commits (BulkLoad, the CSV
//     loaders, FreeLabel, FreePropertyType, UpdatePropertyType) are quiet
//     anyway, and end, with the log on, by a checkpoint to LogDir; so do
//     CreateDatabase (the base the log follows) and a restore with the
//     log on (which also discards a torn tail and, after an async log,
//     records beyond a gap).
//   - Segments: a restore replays the segment of the manifest's LogFrom
//     generation and of every later one, in order, as one log.
//     Checkpoint(LogDir) with the log on flushes the logs, records the
//     sequence number it covers, and starts each rank's log anew in the
//     new generation (created and synced, name included, before the commit
//     point, followed once the checkpoint is current). A checkpoint to
//     another directory leaves the log alone.
//   - Bound: once a rank's segment passes Params.LogCheckpointSize, the
//     database takes an automatic checkpoint while commits go on
//     (autockpt.go): the ranks roll to new segments, copy their data
//     windows, make their logs durable (an async log may still queue
//     records whose writes a copy holds), and rank 0 makes a fuzzy
//     manifest current, whose restore
//     replays the records after the least number the copies hold and then
//     derives the rest from the holders. Commits wait, a second at most,
//     while a segment is past four times the bound. Calls that write
//     holders outside commits, Checkpoint and Free hold rounds off. If the checkpoint that ends a call writing
//     holders outside commits fails, the log no longer covers the
//     database: commits fail until a Checkpoint to LogDir succeeds.
//   - Restore replays the logs beside the checkpoint only when
//     Params.LogDir is the Restore directory; a restore from a directory
//     whose logs hold commits after the checkpoint, without that, fails
//     (ErrArgument naming the log) rather than silently dropping them.
//   - Caveats: LogDir must be reachable by every rank, as for
//     checkpoints. A missing log file counts as an empty log. If the
//     process dies between a failed sync and the cut of the failed write,
//     a commit that reported failure may be found after the restore.

// LogMode is the mode of a database's redo log (Params.Log).
type LogMode string

// Modes of the redo log.
const (
	// LogOff keeps no log: a crash loses everything after the last
	// checkpoint. The zero value.
	LogOff LogMode = ""
	// LogAsync appends each commit's record to a buffer that a background
	// goroutine writes and syncs every AsyncLogInterval: a crash loses at
	// most the commits of the last interval, and recovery keeps a prefix
	// of the commits in their global order.
	LogAsync LogMode = "async"
	// LogSync makes each commit's record durable (written and
	// fdatasync'ed) before the commit is acknowledged; commits of several
	// goroutines of a rank share one sync (group commit).
	LogSync LogMode = "sync"
)

// ParseLogMode reads a mode: "off" (or ""), "async" or "sync".
func ParseLogMode(s string) (LogMode, error) {
	switch LogMode(s) {
	case LogOff, "off":
		return LogOff, nil
	case LogAsync, LogSync:
		return LogMode(s), nil
	}
	return LogOff, gdi.Errorf(gdi.ErrArgument, "gdirma: redo log mode %q: want off, async or sync", s)
}

// AsyncLogInterval is how often an async log is written and synced.
const AsyncLogInterval = redolog.AsyncLogInterval

// AsyncMaxLag bounds what an async log may lose: a commit is acknowledged
// at once only while every record queued before it is younger than this;
// past that it first waits until they are durable.
const AsyncMaxLag = redolog.AsyncMaxLag
