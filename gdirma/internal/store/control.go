package store

import (
	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/txn"
)

// Control window words of each rank: the highest block number handed out
// on the rank (scans stop there) and the count of commits made by the
// rank. Word 2 of rank 0 is the scan gate, word 3 of rank 0 the last
// sequence number of the redo log.
const (
	ctlHighWater = 0
	ctlCommits   = 8
	ctlScanGate  = 16
	ctlLogSeq    = 24
	ctlSize      = 32
)

// Version is the version of a committed holder image, drawn by the
// commit that wrote it from its rank's commit counter: count<<16 | rank,
// unique among all versions ever written, never 0. 0 stands for no
// committed image (a holder created by the transaction).
type Version uint64

// Count and Rank are the parts of v.
func (v Version) Count() uint64 { return uint64(v) >> 16 }
func (v Version) Rank() int     { return int(v & 0xffff) }

// NextVersion draws a version from the calling rank's commit counter.
func (s *Store) NextVersion() (Version, error) {
	c, err := s.ctl.FetchAndAdd(s.rank, ctlCommits, 1)
	if err != nil {
		return 0, Internal(err)
	}
	return Version((c+1)<<16 | uint64(s.rank)), nil
}

// Commits returns the number of commits made so far on all ranks. It is
// unchanged between two calls only if no rank committed in between.
func (s *Store) Commits() (uint64, error) {
	var sum uint64
	for r := range s.size {
		c, err := s.ctl.AtomicGet(r, ctlCommits)
		if err != nil {
			return 0, Internal(err)
		}
		sum += c
	}
	return sum, nil
}

// RaiseCommits raises this rank's commit counter to at least count, so
// that versions drawn later are above those found in restored holders.
func (s *Store) RaiseCommits(count uint64) error {
	_, err := s.raise(s.rank, ctlCommits, count)
	return err
}

// raise raises word off of rank's control words to at least x; it never
// lowers it, whatever others do meanwhile. now is what the word held
// after: x, or more.
func (s *Store) raise(rank, off int, x uint64) (now uint64, err error) {
	for {
		cur, err := s.ctl.AtomicGet(rank, off)
		if err != nil || cur >= x {
			return cur, Internal(err)
		}
		prev, err := s.ctl.CompareAndSwap(rank, off, cur, x)
		if err != nil || prev == cur {
			return x, Internal(err)
		}
	}
}

// HighWater is the highest block number handed out on rank.
func (s *Store) HighWater(rank int) (int, error) {
	hw, err := s.ctl.AtomicGet(rank, ctlHighWater)
	return int(hw), Internal(err)
}

// hwStep is how far past a block a raise of the high-water mark goes:
// scans read up to that many free blocks more, and only one acquire in
// so many of fresh blocks reads and raises the mark.
const hwStep = 64

// RaiseHighWater raises rank's high-water mark to block b at least. It
// reads the mark only if this rank has not seen it reach b.
func (s *Store) RaiseHighWater(rank, b int) error {
	known := &s.hw[rank]
	if uint64(b) <= known.Load() {
		return nil
	}
	now, err := s.raise(rank, ctlHighWater, uint64(min(b+hwStep, s.pool.Blocks())))
	if err != nil {
		return err
	}
	for k := known.Load(); k < now && !known.CompareAndSwap(k, now); k = known.Load() {
	}
	return nil
}

// SetHighWater sets this rank's high-water mark (recovery, on every rank
// at once): the marks known of every rank are forgotten.
func (s *Store) SetHighWater(b int) error {
	for i := range s.hw {
		s.hw[i].Store(0)
	}
	return Internal(s.ctl.AtomicPut(s.rank, ctlHighWater, uint64(b)))
}

// LogSeqWord is where the redo log keeps its last sequence number: a word
// of rank 0's part of w.
func (s *Store) LogSeqWord() (w rma.Window, off int) { return s.ctl, ctlLogSeq }

// LogSeq reads the redo log's last sequence number.
func (s *Store) LogSeq() (uint64, error) {
	seq, err := s.ctl.AtomicGet(0, ctlLogSeq)
	return seq, Internal(err)
}

// SetLogSeq sets the redo log's last sequence number (recovery, on rank 0).
func (s *Store) SetLogSeq(seq uint64) error { return Internal(s.ctl.AtomicPut(0, ctlLogSeq, seq)) }

// LockScanGate takes the scan gate for writing: commits that rescan many
// holders pass it one at a time. attempts bounds the tries.
func (s *Store) LockScanGate(attempts int) error {
	return txn.LockN(s.ctl, 0, ctlScanGate, txn.Write, attempts)
}

// UnlockScanGate gives the scan gate back.
func (s *Store) UnlockScanGate() { txn.Unlock(s.ctl, 0, ctlScanGate, txn.Write) }

// Stamp reads what validation needs of holder p without locking it: its
// kind (ok is false if p is no primary block), its version, and whether
// another transaction holds its lock for writing (about to change it).
// Lock words in held are not read.
func (s *Store) Stamp(p bgdl.DPtr, held *txn.LockSet) (k Kind, v Version, ok, writeLocked bool, err error) {
	if !s.Valid(p) {
		return 0, 0, false, false, nil
	}
	if held == nil || !held.Holds(uint64(p)) {
		a := s.LockAddr(p)
		w, err := s.locks.AtomicGet(a.Rank, a.Off)
		if err != nil {
			return 0, 0, false, false, Internal(err)
		}
		writeLocked = w&txn.Writer != 0
	}
	marker, err := s.data.AtomicGet(p.Rank(), p.Offset())
	if err != nil {
		return 0, 0, false, false, Internal(err)
	}
	if marker&^0xff != markerPrimary {
		return 0, 0, false, writeLocked, nil
	}
	x, err := s.data.AtomicGet(p.Rank(), p.Offset()+versionWord)
	if err != nil {
		return 0, 0, false, false, Internal(err)
	}
	return Kind(marker & 0xff), Version(x), true, writeLocked, nil
}
