package txn_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
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
		if v, _ := w.AtomicGet(0, 0); v != 1<<32 {
			return fmt.Errorf("word %#x after all unlocks, want one write lock counted", v)
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
		if v, _ := w.AtomicGet(0, 8); v != 1<<32 {
			return fmt.Errorf("word %#x after ReleaseAll, want one write lock counted", v)
		}
		// A set reset for reuse holds nothing, also past the point where
		// it indexes its locks, and locks words of its new window.
		w2, err := c.NewWindow(8 * 40)
		if err != nil {
			return err
		}
		defer w2.Free()
		s.Reset(w2)
		for round := range 2 {
			for i := range 20 {
				if err := s.Lock(uint64(100+i), txn.Addr{Rank: 0, Off: 8 * (i + 2)}, txn.Write); err != nil {
					return fmt.Errorf("round %d, lock %d: %v", round, i, err)
				}
			}
			if !s.Holds(119) || s.Holds(1) || s.Len() != 20 {
				return fmt.Errorf("round %d: the set holds %d locks, 119: %v, 1: %v", round, s.Len(), s.Holds(119), s.Holds(1))
			}
			if err := s.ReleaseAll(); err != nil {
				return err
			}
			s.Reset(w2)
			if s.Holds(119) || s.Len() != 0 {
				return fmt.Errorf("round %d: a reset set holds %d locks", round, s.Len())
			}
		}
		for i := range 20 {
			if v, _ := w2.AtomicGet(0, 8*(i+2)); v != 2<<32 {
				return fmt.Errorf("word %d of the second window: %#x, want two write locks counted", i+2, v)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// dataWords is the number of words TestMutualExclusion updates together.
const dataWords = 16

// allEqual reports whether the words of b are all equal, and if not, two
// that differ.
func allEqual(b []byte) (x, y uint64, ok bool) {
	x = binary.LittleEndian.Uint64(b)
	for i := 8; i < len(b); i += 8 {
		if y = binary.LittleEndian.Uint64(b[i:]); y != x {
			return x, y, false
		}
	}
	return x, x, true
}

// TestMutualExclusion has goroutines of every rank update dataWords words of
// rank 0 under the write lock (non-atomically, Get then Put) while others
// read them under the read lock, and others optimistically: readers must
// always see both equal (optimistic ones when ReadValid says so), and no
// update may be lost.
func TestMutualExclusion(t *testing.T) {
	ranks, workers, iters := 4, 4, 200
	if testing.Short() {
		iters = 50
	}
	err := local.Run(ranks, func(c rma.Comm) error {
		w, err := c.NewWindow(8 + dataWords*8) // lock word, then the data words
		if err != nil {
			return err
		}
		var wg sync.WaitGroup
		errs := make(chan error, 3*workers)
		var done, valid int64
		var mu sync.Mutex
		for range workers {
			wg.Add(3)
			go func() {
				defer wg.Done()
				buf := make([]byte, dataWords*8)
				for range iters {
					stamp, err := txn.ReadBegin(w, 0, 0)
					if err != nil {
						if errors.Is(err, txn.ErrBusy) {
							continue
						}
						errs <- err
						return
					}
					w.Get(buf, 0, 8)
					w.Flush(0)
					ok, err := txn.ReadValid(w, 0, 0, stamp)
					if err != nil {
						errs <- err
						return
					}
					if !ok {
						continue // a writer came: read again
					}
					if a, b, ok := allEqual(buf); !ok {
						errs <- fmt.Errorf("torn optimistic read found valid: %d, %d", a, b)
						return
					}
					mu.Lock()
					valid++
					mu.Unlock()
				}
			}()
			go func() {
				defer wg.Done()
				buf := make([]byte, dataWords*8)
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
					for i := 0; i < len(buf); i += 8 {
						binary.LittleEndian.PutUint64(buf[i:], a+1)
					}
					// In two halves, leaving time to read between them.
					half := len(buf) / 2
					w.Put(buf[:half], 0, 8)
					w.Flush(0)
					runtime.Gosched()
					w.Put(buf[half:], 0, 8+half)
					w.Flush(0)
					txn.Unlock(w, 0, 0, txn.Write)
					mu.Lock()
					done++
					mu.Unlock()
				}
			}()
			go func() {
				defer wg.Done()
				buf := make([]byte, dataWords*8)
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
					if a, b, ok := allEqual(buf); !ok {
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
		sums := []int64{done, valid}
		if err := c.AllreduceInt64(sums, rma.OpSum); err != nil {
			return err
		}
		if c.Rank() == 0 {
			sum := sums[0]
			if sums[1] == 0 {
				return errors.New("no optimistic read was ever valid")
			}
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
	withLockSet(t, words, func(w rma.Window, s *txn.LockSet) error {
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
			want := uint64(0)
			if id%3 == 0 {
				want = 1 << 32 // one write lock counted
			}
			if v, _ := w.AtomicGet(0, 8*id); v != want {
				return fmt.Errorf("word %d is %#x after ReleaseAll, want %#x", id, v, want)
			}
		}
		if s.Len() != 0 || s.Holds(0) {
			return errors.New("the set is not empty after ReleaseAll")
		}
		return nil
	})
}

// withLockSet runs f on one local rank with a window of the given number
// of lock words and an empty LockSet on it.
func withLockSet(t *testing.T, words int, f func(w rma.Window, s *txn.LockSet) error) {
	t.Helper()
	err := local.Run(1, func(c rma.Comm) error {
		w, err := c.NewWindow(8 * words)
		if err != nil {
			return err
		}
		defer w.Free()
		return f(w, txn.NewLockSet(w))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLockSetReuse: a set reset after holding many locks keeps its room,
// so a second commit of as many objects takes its locks without
// allocating, and remembers nothing of the first: a lock released is
// not held, even by the index the set had built.
func TestLockSetReuse(t *testing.T) {
	const words, many = 80, 40
	withLockSet(t, words, func(w rma.Window, s *txn.LockSet) error {
		cycle := func(from int) error {
			s.Reset(w)
			for id := from; id < from+many; id++ {
				if err := s.Lock(uint64(id), txn.Addr{Rank: 0, Off: 8 * id}, txn.Write); err != nil {
					return fmt.Errorf("lock %d: %v", id, err)
				}
			}
			for id := range words {
				if want := id >= from && id < from+many; s.Holds(uint64(id)) != want {
					return fmt.Errorf("after locking %d..%d: holds %d is %v", from, from+many-1, id, !want)
				}
			}
			if err := s.ReleaseAll(); err != nil {
				return err
			}
			s.Forget()
			return nil
		}
		for _, from := range []int{0, 40, 20, 0} {
			if err := cycle(from); err != nil {
				return err
			}
		}
		var cerr error
		if n := testing.AllocsPerRun(20, func() {
			if err := cycle(10); err != nil && cerr == nil {
				cerr = err
			}
		}); n != 0 {
			return fmt.Errorf("a reused set allocates %v times per commit of %d locks", n, many)
		}
		return cerr
	})
}

// TestOptimisticRead: ReadValid holds while no writer takes the word, not
// once one has (even after it left, and even when the count of write
// locks wraps), and ReadBegin gives up on a word a writer keeps.
func TestOptimisticRead(t *testing.T) {
	err := local.Run(1, func(c rma.Comm) error {
		w, err := c.NewWindow(8)
		if err != nil {
			return err
		}
		defer w.Free()
		valid := func(stamp uint64) bool {
			ok, err := txn.ReadValid(w, 0, 0, stamp)
			return ok && err == nil
		}
		for _, start := range []uint64{0, 0x7fffffff << 32} { // a fresh word, and one about to wrap
			if err := w.AtomicPut(0, 0, start); err != nil {
				return err
			}
			stamp, err := txn.ReadBegin(w, 0, 0)
			if err != nil {
				return err
			}
			if ok, _ := txn.TryRead(w, 0, 0); !ok || !valid(stamp) {
				return fmt.Errorf("word %#x: a reader made the read invalid", start)
			}
			txn.Unlock(w, 0, 0, txn.Read)
			if ok, _ := txn.TryWrite(w, 0, 0); !ok {
				return fmt.Errorf("word %#x: write lock failed", start)
			}
			if valid(stamp) {
				return fmt.Errorf("word %#x: valid under a writer", start)
			}
			txn.Unlock(w, 0, 0, txn.Write)
			if valid(stamp) {
				return fmt.Errorf("word %#x: valid after a writer came and went", start)
			}
			if v, _ := w.AtomicGet(0, 0); v&(txn.Writer|1<<32-1) != 0 {
				return fmt.Errorf("word %#x: %#x after the writer left", start, v)
			}
		}
		defer func(n int) { txn.Attempts = n }(txn.Attempts)
		txn.Attempts = 2
		if ok, _ := txn.TryWrite(w, 0, 0); !ok {
			return errors.New("write lock failed")
		}
		if _, err := txn.ReadBegin(w, 0, 0); !errors.Is(err, txn.ErrBusy) {
			return fmt.Errorf("ReadBegin under a writer: %v, want ErrBusy", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
