package txn_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
	"github.com/gdi-go/gdi/txn"
)

func TestModes(t *testing.T) {
	err := local.Run(1, func(c rma.Comm) error {
		w, err := c.NewWindow(16)
		if err != nil {
			return err
		}
		defer w.Free()
		if ok, _ := txn.TryRead(w, 0, 0); !ok {
			return errors.New("first read lock failed")
		}
		if ok, _ := txn.TryRead(w, 0, 0); !ok {
			return errors.New("second read lock failed")
		}
		if ok, _ := txn.TryWrite(w, 0, 0); ok {
			return errors.New("write lock under readers")
		}
		txn.Unlock(w, 0, 0, txn.Read)
		txn.Unlock(w, 0, 0, txn.Read)
		if ok, _ := txn.TryWrite(w, 0, 0); !ok {
			return errors.New("write lock on a free word failed")
		}
		if ok, _ := txn.TryRead(w, 0, 0); ok {
			return errors.New("read lock under a writer")
		}
		if err := txn.LockN(w, 0, 0, txn.Write, 3); !errors.Is(err, txn.ErrBusy) {
			return fmt.Errorf("LockN on a held word: %v, want ErrBusy", err)
		}
		txn.Unlock(w, 0, 0, txn.Write)
		if v, _ := w.AtomicGet(0, 0); v != 0 {
			return fmt.Errorf("word %#x after all unlocks", v)
		}
		// A LockSet upgrades its own read lock, and releases everything.
		s := txn.NewLockSet(w)
		a := txn.Addr{Rank: 0, Off: 8}
		if err := s.Lock(1, a, txn.Read); err != nil {
			return err
		}
		if err := s.Lock(1, a, txn.Write); err != nil {
			return fmt.Errorf("upgrade: %v", err)
		}
		if !s.Holds(1) || s.Len() != 1 {
			return errors.New("lock set does not hold its lock")
		}
		if err := s.ReleaseAll(); err != nil {
			return err
		}
		if v, _ := w.AtomicGet(0, 8); v != 0 {
			return fmt.Errorf("word %#x after ReleaseAll", v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestMutualExclusion has goroutines of every rank update two words of
// rank 0 under the write lock (non-atomically, Get then Put) while others
// read them under the read lock: readers must always see both equal, and
// no update may be lost.
func TestMutualExclusion(t *testing.T) {
	ranks, workers, iters := 4, 4, 200
	if testing.Short() {
		iters = 50
	}
	err := local.Run(ranks, func(c rma.Comm) error {
		w, err := c.NewWindow(24) // lock word, then two data words
		if err != nil {
			return err
		}
		var wg sync.WaitGroup
		errs := make(chan error, 2*workers)
		var done int64
		var mu sync.Mutex
		for range workers {
			wg.Add(2)
			go func() {
				defer wg.Done()
				buf := make([]byte, 16)
				for range iters {
					if err := txn.Lock(w, 0, 0, txn.Write); err != nil {
						if errors.Is(err, txn.ErrBusy) {
							continue // gave up: allowed, bounded
						}
						errs <- err
						return
					}
					w.Get(buf, 0, 8)
					w.Flush(0)
					a := binary.LittleEndian.Uint64(buf)
					binary.LittleEndian.PutUint64(buf, a+1)
					binary.LittleEndian.PutUint64(buf[8:], a+1)
					w.Put(buf, 0, 8)
					w.Flush(0)
					txn.Unlock(w, 0, 0, txn.Write)
					mu.Lock()
					done++
					mu.Unlock()
				}
			}()
			go func() {
				defer wg.Done()
				buf := make([]byte, 16)
				for range iters {
					if err := txn.Lock(w, 0, 0, txn.Read); err != nil {
						if errors.Is(err, txn.ErrBusy) {
							continue
						}
						errs <- err
						return
					}
					w.Get(buf, 0, 8)
					w.Flush(0)
					txn.Unlock(w, 0, 0, txn.Read)
					if a, b := binary.LittleEndian.Uint64(buf), binary.LittleEndian.Uint64(buf[8:]); a != b {
						errs <- fmt.Errorf("torn read under the read lock: %d, %d", a, b)
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			return err
		}
		sums := []int64{done}
		if err := c.AllreduceInt64(sums, rma.OpSum); err != nil {
			return err
		}
		if c.Rank() == 0 {
			sum := sums[0]
			got, _ := w.AtomicGet(0, 8)
			if int64(got) != sum {
				return fmt.Errorf("counter %d after %d locked increments", got, sum)
			}
			if sum == 0 {
				return errors.New("no writer ever got the lock")
			}
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		return w.Free()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLockSetMany takes more locks than a LockSet keeps without an index,
// in mixed order and modes, with repeats and upgrades: it must hold each
// once, in the strongest mode asked, and leave every word free at the end.
func TestLockSetMany(t *testing.T) {
	const words = 50
	err := local.Run(1, func(c rma.Comm) error {
		w, err := c.NewWindow(8 * words)
		if err != nil {
			return err
		}
		defer w.Free()
		s := txn.NewLockSet(w)
		for round := range 2 {
			for i := range words {
				id := uint64((i * 7) % words) // every word, out of order
				m := txn.Read
				if id%3 == 0 && round == 1 {
					m = txn.Write // upgrades in the second round
				}
				if err := s.Lock(id, txn.Addr{Rank: 0, Off: 8 * int(id)}, m); err != nil {
					return fmt.Errorf("round %d, lock %d: %v", round, id, err)
				}
			}
		}
		if s.Len() != words {
			return fmt.Errorf("%d locks held, want %d", s.Len(), words)
		}
		for id := range uint64(words) {
			if !s.Holds(id) {
				return fmt.Errorf("lock %d not held", id)
			}
			v, _ := w.AtomicGet(0, 8*int(id))
			if id%3 == 0 && v&txn.Writer == 0 || id%3 != 0 && v != 1 {
				return fmt.Errorf("word %d is %#x", id, v)
			}
		}
		if s.Holds(words) {
			return errors.New("holds a lock never taken")
		}
		if err := s.ReleaseAll(); err != nil {
			return err
		}
		for id := range words {
			if v, _ := w.AtomicGet(0, 8*id); v != 0 {
				return fmt.Errorf("word %d is %#x after ReleaseAll", id, v)
			}
		}
		if s.Len() != 0 || s.Holds(0) {
			return errors.New("the set is not empty after ReleaseAll")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
