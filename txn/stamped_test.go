package txn_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/count"
	"github.com/gdi-go/gdi/rma/local"
	"github.com/gdi-go/gdi/txn"
)

// TestLockStamped checks the rules of LockSet.LockStamped: a word no one
// took since the read is locked with one atomic and Took returns the
// stamp; a word a writer holds fails with ErrBusy at once; a word a
// writer took and gave back since is not locked; readers in the way are
// waited for, not taken as a change.
func TestLockStamped(t *testing.T) {
	err := local.Run(1, func(c rma.Comm) error {
		cc := count.Wrap(c)
		w, err := cc.NewWindow(24)
		if err != nil {
			return err
		}
		defer w.Free()
		other := txn.NewLockSet(w)
		// Word 0 was written once before the read; word 8 never.
		if err := other.Lock(1, txn.Addr{Off: 0}, txn.Write); err != nil {
			return err
		}
		if err := other.ReleaseAll(); err != nil {
			return err
		}
		s := txn.NewLockSet(w)
		for _, off := range []int{0, 8} {
			stamp, err := txn.ReadBegin(w, 0, off)
			if err != nil {
				return err
			}
			before := cc.Counts()
			unchanged, err := s.LockStamped(uint64(off+100), txn.Addr{Off: off}, stamp)
			if err != nil || !unchanged {
				return fmt.Errorf("word %d unchanged since the read: LockStamped = %v, %v", off, unchanged, err)
			}
			if n := cc.Counts().Sub(before).Calls(); n != 1 {
				return fmt.Errorf("word %d: LockStamped made %d calls, want one compare-and-swap", off, n)
			}
			if took, ok := s.Took(uint64(off + 100)); !ok || took != stamp {
				return fmt.Errorf("word %d: Took = %x, %v; want the stamp %x", off, took, ok, stamp)
			}
		}
		if err := s.ReleaseAll(); err != nil {
			return err
		}

		// A writer between the read and the lock.
		stamp, err := txn.ReadBegin(w, 0, 16)
		if err != nil {
			return err
		}
		if err := other.Lock(2, txn.Addr{Off: 16}, txn.Write); err != nil {
			return err
		}
		if unchanged, err := s.LockStamped(3, txn.Addr{Off: 16}, stamp); !errors.Is(err, txn.ErrBusy) || unchanged || s.Holds(3) {
			return fmt.Errorf("word held by a writer: LockStamped = %v, %v, held %v; want ErrBusy at once and no lock", unchanged, err, s.Holds(3))
		}
		if err := other.ReleaseAll(); err != nil {
			return err
		}
		if unchanged, err := s.LockStamped(3, txn.Addr{Off: 16}, stamp); err != nil || unchanged || s.Holds(3) {
			return fmt.Errorf("word written since the read: LockStamped = %v, %v, held %v; want a change and no lock", unchanged, err, s.Holds(3))
		}

		// A reader in the way is waited for: the lock is taken once it
		// leaves, and the word is as read.
		stamp, err = txn.ReadBegin(w, 0, 16)
		if err != nil {
			return err
		}
		if ok, err := txn.TryRead(w, 0, 16); !ok || err != nil {
			return errors.Join(errors.New("read lock failed"), err)
		}
		done := make(chan error)
		go func() {
			unchanged, err := s.LockStamped(3, txn.Addr{Off: 16}, stamp)
			if err == nil && !unchanged {
				err = errors.New("a reader taken for a writer")
			}
			done <- err
		}()
		if err := txn.Unlock(w, 0, 16, txn.Read); err != nil {
			return err
		}
		if err := <-done; err != nil {
			return err
		}
		return s.ReleaseAll()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTryStamped checks LockSet.TryStamped and SettleStamped: one batch
// tries every lock, and each is then settled as LockStamped would have
// been, with no further call but for a reader in the way; ReleaseAll
// lets the locks go in one batch.
func TestTryStamped(t *testing.T) {
	err := local.Run(1, func(c rma.Comm) error {
		cc := count.Wrap(c)
		w, err := cc.NewWindow(40)
		if err != nil {
			return err
		}
		defer w.Free()
		other, s := txn.NewLockSet(w), txn.NewLockSet(w)
		// Words 0, 8, 16 and 24 are read; then a writer holds 8, one wrote
		// 16, and a reader holds 24. Word 32 the set holds already.
		var locks []txn.StampedLock
		for off := 0; off < 32; off += 8 {
			stamp, err := txn.ReadBegin(w, 0, off)
			if err != nil {
				return err
			}
			locks = append(locks, txn.StampedLock{ID: uint64(off), A: txn.Addr{Off: off}, Stamp: stamp})
		}
		if err := errors.Join(other.Lock(16, txn.Addr{Off: 16}, txn.Write), other.ReleaseAll(), other.Lock(8, txn.Addr{Off: 8}, txn.Write)); err != nil {
			return err
		}
		if ok, err := txn.TryRead(w, 0, 24); !ok || err != nil {
			return errors.Join(errors.New("read lock failed"), err)
		}
		if err := s.Lock(32, txn.Addr{Off: 32}, txn.Write); err != nil {
			return err
		}
		locks = append(locks, txn.StampedLock{ID: 32, A: txn.Addr{Off: 32}, Stamp: 1 << 32})

		before := cc.Counts()
		if err := s.TryStamped(locks); err != nil {
			return err
		}
		if n := cc.Counts().Sub(before); n.Atomics != 4 || n.MPI != 5 {
			return fmt.Errorf("TryStamped of 4 words, 1 held: %+v; want 4 atomics in one batch (5 MPI calls)", n)
		}
		if !s.Holds(0) || s.Holds(8) || s.Holds(16) || s.Holds(24) {
			return fmt.Errorf("after the batch the set holds 0 %v, 8 %v, 16 %v, 24 %v; want only word 0", s.Holds(0), s.Holds(8), s.Holds(16), s.Holds(24))
		}
		before = cc.Counts()
		want := []struct {
			unchanged bool
			busy      bool
		}{{true, false}, {false, true}, {false, false}}
		for i, w := range want {
			unchanged, err := s.SettleStamped(locks[i])
			if unchanged != w.unchanged || errors.Is(err, txn.ErrBusy) != w.busy || (err != nil && !w.busy) {
				return fmt.Errorf("word %d: SettleStamped = %v, %v; want unchanged %v, busy %v", locks[i].A.Off, unchanged, err, w.unchanged, w.busy)
			}
		}
		if n := cc.Counts().Sub(before).Calls(); n != 0 {
			return fmt.Errorf("settling what the batch found made %d calls", n)
		}
		done := make(chan error)
		go func() {
			unchanged, err := s.SettleStamped(locks[3])
			if err == nil && !unchanged {
				err = errors.New("a reader taken for a writer")
			}
			done <- err
		}()
		if err := txn.Unlock(w, 0, 24, txn.Read); err != nil {
			return err
		}
		if err := <-done; err != nil {
			return err
		}
		if unchanged, err := s.SettleStamped(locks[4]); err != nil || unchanged {
			return fmt.Errorf("a lock held before the batch: SettleStamped = %v, %v; want the word it was taken from, not this stamp", unchanged, err)
		}
		before = cc.Counts()
		if err := s.ReleaseAll(); err != nil {
			return err
		}
		if n := cc.Counts().Sub(before); n.Atomics != 3 || n.MPI != 4 {
			return fmt.Errorf("ReleaseAll of 3 locks: %+v; want one batch of 3 atomics", n)
		}
		for _, off := range []int{0, 24, 32} {
			if v, _ := w.AtomicGet(0, off); v&txn.Writer != 0 {
				return fmt.Errorf("word %d still locked after ReleaseAll: %#x", off, v)
			}
		}
		return other.ReleaseAll()
	})
	if err != nil {
		t.Fatal(err)
	}
}
