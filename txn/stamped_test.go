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
