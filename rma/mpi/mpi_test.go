//go:build mpi

package mpi_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/count"
	"github.com/gdi-go/gdi/rma/mpi"
)

// These tests run on every process of the job (make test-mpi runs them with
// 2 and 4 processes). A test that needs more processes than the job has is
// skipped on all of them alike.

func worldSize(t *testing.T) int {
	t.Helper()
	n, err := mpi.WorldSize()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func needRanks(t *testing.T, n int) {
	t.Helper()
	if s := worldSize(t); s < n {
		t.Skipf("needs %d MPI processes, the job has %d", n, s)
	}
}

// run runs fn on all processes of the job and fails the test on error.
func run(t *testing.T, fn func(c rma.Comm) error) {
	t.Helper()
	if err := mpi.Run(worldSize(t), fn); err != nil {
		t.Fatal(err)
	}
}

func TestBuiltIn(t *testing.T) {
	if !mpi.BuiltIn {
		t.Fatal("BuiltIn is false in an mpi build")
	}
	t.Logf("world size %d, GOMAXPROCS %d", worldSize(t), runtime.GOMAXPROCS(0))
}

// wantNode returns the ranks of a Run of size ranks that rank should
// reach directly under this process's GDI_MPI_SHM and GDI_MPI_NODE_SIZE,
// all processes being on one machine.
func wantNode(t *testing.T, rank, size int) []int {
	lo, hi := 0, size
	if os.Getenv("GDI_MPI_SHM") == "0" {
		lo, hi = rank, rank+1
	} else if v := os.Getenv("GDI_MPI_NODE_SIZE"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("GDI_MPI_NODE_SIZE=%q", v)
		}
		lo, hi = rank/k*k, min(rank/k*k+k, size)
	}
	var rs []int
	for r := lo; r < hi; r++ {
		rs = append(rs, r)
	}
	return rs
}

// TestNodeLayout checks the node layout: which ranks' windows a rank
// reaches directly (make test-mpi runs this package with one node, with
// every rank its own node, and with pretend nodes of 2), and that the
// CPU's atomics of direct access and MPI's atomics from other nodes are
// atomic with respect to each other: several goroutines of every rank add
// to, and increment by compare-and-swap, a word of every rank, and no
// update is lost.
func TestNodeLayout(t *testing.T) {
	const goroutines, adds = 4, 200
	run(t, func(c rma.Comm) error {
		if got, want := mpi.NodeRanks(c), wantNode(t, c.Rank(), c.Size()); !slices.Equal(got, want) {
			return fmt.Errorf("rank %d reaches ranks %v directly, want %v (GDI_MPI_SHM=%q, GDI_MPI_NODE_SIZE=%q)",
				c.Rank(), got, want, os.Getenv("GDI_MPI_SHM"), os.Getenv("GDI_MPI_NODE_SIZE"))
		}
		w, err := c.NewWindow(64)
		if err != nil {
			return err
		}
		errs := make(chan error, goroutines)
		for range goroutines {
			go func() {
				var err error
				for i := 0; i < adds*c.Size() && err == nil; i++ {
					target := (c.Rank() + i) % c.Size()
					if _, err = w.FetchAndAdd(target, 8, 1); err == nil {
						err = casIncrement(w, target, 16)
					}
				}
				errs <- err
			}()
		}
		for range goroutines {
			if err := <-errs; err != nil {
				return err
			}
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		want := uint64(c.Size() * goroutines * adds) // per word
		for r := range c.Size() {
			var got uint64
			for _, off := range []int{8, 16} {
				got, err = w.AtomicGet(r, off)
				if err != nil {
					return err
				}
				if r == c.Rank() {
					// and the same word through Get, as a reader of its data would
					var b [8]byte
					if err := w.Get(b[:], r, off); err != nil {
						return err
					}
					if v := binary.LittleEndian.Uint64(b[:]); v != got {
						return fmt.Errorf("rank %d word %d: Get reads %d, AtomicGet %d", r, off, v, got)
					}
				}
				if got != want {
					return fmt.Errorf("rank %d word %d = %d after all updates, want %d: updates were lost", r, off, got, want)
				}
			}
		}
		return w.Free()
	})
}

// casIncrement adds one to the word at (target, off) of w with
// compare-and-swap.
func casIncrement(w rma.Window, target, off int) error {
	old, err := w.AtomicGet(target, off)
	for err == nil {
		var now uint64
		if now, err = w.CompareAndSwap(target, off, old, old+1); now == old {
			break
		}
		old = now
	}
	return err
}

func TestRunTooManyRanks(t *testing.T) {
	err := mpi.Run(worldSize(t)+1, func(rma.Comm) error { return errors.New("must not run") })
	if !errors.Is(err, rma.ErrRanks) {
		t.Fatalf("Run(world+1) = %v, want rma.ErrRanks", err)
	}
	if err := mpi.Run(0, func(rma.Comm) error { return nil }); !errors.Is(err, rma.ErrArgument) {
		t.Fatalf("Run(0) = %v, want rma.ErrArgument", err)
	}
}

// TestRunSubset: with n below the world size only world ranks 0..n-1 run fn,
// on a communicator of n ranks; the others return nil at once.
func TestRunSubset(t *testing.T) {
	size := worldSize(t)
	me, _ := mpi.WorldRank()
	for n := 1; n <= size; n++ {
		ran := 0
		err := mpi.Run(n, func(c rma.Comm) error {
			ran++
			if c.Size() != n || c.Rank() != me {
				return fmt.Errorf("rank %d of %d, want %d of %d", c.Rank(), c.Size(), me, n)
			}
			buf := []int64{1}
			if err := c.AllreduceInt64(buf, rma.OpSum); err != nil {
				return err
			}
			if buf[0] != int64(n) {
				return fmt.Errorf("sum of ones over %d ranks is %d", n, buf[0])
			}
			return nil
		})
		if err != nil {
			t.Fatalf("Run(%d): %v", n, err)
		}
		if want := map[bool]int{true: 1, false: 0}[me < n]; ran != want {
			t.Fatalf("Run(%d) on world rank %d ran fn %d times, want %d", n, me, ran, want)
		}
	}
}

// TestManyRuns: MPI is started once and Run can be called again and again.
func TestManyRuns(t *testing.T) {
	for i := range 50 {
		run(t, func(c rma.Comm) error {
			w, err := c.NewWindow(64)
			if err != nil {
				return err
			}
			if _, err := w.FetchAndAdd(0, 0, uint64(i)); err != nil {
				return err
			}
			return w.Free()
		})
	}
}

func TestNestedRunFails(t *testing.T) {
	run(t, func(c rma.Comm) error {
		err := mpi.Run(1, func(rma.Comm) error { return nil })
		if !errors.Is(err, rma.ErrArgument) {
			return fmt.Errorf("nested Run = %v, want rma.ErrArgument", err)
		}
		return nil
	})
}

func TestRunReturnsRankError(t *testing.T) {
	needRanks(t, 2)
	boom := errors.New("boom")
	err := mpi.Run(worldSize(t), func(c rma.Comm) error {
		if c.Rank() == 1 {
			return boom
		}
		return c.Barrier() // must not hang waiting for rank 1
	})
	me, _ := mpi.WorldRank()
	if me == 1 {
		if !errors.Is(err, boom) || errors.Is(err, rma.ErrAborted) {
			t.Fatalf("Run on rank 1 = %v, want its own error", err)
		}
	} else if !errors.Is(err, rma.ErrAborted) || !strings.Contains(err.Error(), "rank 1") {
		t.Fatalf("Run on rank %d = %v, want an abort naming rank 1", me, err)
	}
}

func TestRunEarlyReturnDoesNotHang(t *testing.T) {
	needRanks(t, 2)
	err := mpi.Run(worldSize(t), func(c rma.Comm) error {
		if c.Rank() == 0 {
			return nil
		}
		// Several collectives: each fails at once, none hangs.
		for range 3 {
			if err := c.Barrier(); !errors.Is(err, rma.ErrAborted) ||
				!strings.Contains(err.Error(), "rank 0 returned without calling Barrier") {
				return fmt.Errorf("Barrier = %v, want an abort naming rank 0", err)
			}
		}
		_, err := c.NewWindow(8)
		if !errors.Is(err, rma.ErrAborted) {
			return fmt.Errorf("NewWindow = %v, want rma.ErrAborted", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMismatchedCollectives(t *testing.T) {
	needRanks(t, 2)
	run(t, func(c rma.Comm) error {
		var err error
		if c.Rank() == 0 {
			err = c.Barrier()
		} else {
			err = c.Bcast(make([]byte, 4), 0)
		}
		if !errors.Is(err, rma.ErrArgument) {
			return fmt.Errorf("mismatched collective = %v, want rma.ErrArgument", err)
		}
		// Lengths that differ between ranks fail on all ranks too.
		err = c.Bcast(make([]byte, 4+c.Rank()), 0)
		if !errors.Is(err, rma.ErrArgument) {
			return fmt.Errorf("Bcast of different lengths = %v, want rma.ErrArgument", err)
		}
		// And the communicator still works.
		buf := []byte{byte(c.Rank() + 7)}
		if err := c.Bcast(buf, c.Size()-1); err != nil {
			return err
		}
		if buf[0] != byte(c.Size()+6) {
			return fmt.Errorf("Bcast delivered %d", buf[0])
		}
		return nil
	})
}

// TestFAACounterExact: every rank hammers one word of rank 0 from several
// goroutines; the final value is exact.
func TestFAACounterExact(t *testing.T) {
	const goroutines, adds = 4, 2000
	run(t, func(c rma.Comm) error {
		w, err := c.NewWindow(16)
		if err != nil {
			return err
		}
		defer w.Free()
		var wg sync.WaitGroup
		errs := make([]error, goroutines)
		for g := range goroutines {
			wg.Go(func() {
				for range adds {
					if _, err := w.FetchAndAdd(0, 8, 1); err != nil {
						errs[g] = err
						return
					}
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		got, err := w.AtomicGet(0, 8)
		if err != nil {
			return err
		}
		if want := uint64(c.Size() * goroutines * adds); got != want {
			return fmt.Errorf("counter is %d, want %d", got, want)
		}
		if v, _ := w.AtomicGet(0, 0); v != 0 {
			return fmt.Errorf("neighbouring word is %d", v)
		}
		return c.Barrier()
	})
}

// TestCASLockedCounter: a spin lock made of CAS guards a counter updated
// with plain Get and Put; the count is exact only if CAS is atomic and Put
// is visible after Flush.
func TestCASLockedCounter(t *testing.T) {
	const goroutines, rounds = 2, 300
	run(t, func(c rma.Comm) error {
		w, err := c.NewWindow(16) // word 0: lock, word 1: counter
		if err != nil {
			return err
		}
		defer w.Free()
		target := c.Size() - 1
		var wg sync.WaitGroup
		errs := make([]error, goroutines)
		for g := range goroutines {
			wg.Go(func() {
				buf := make([]byte, 8)
				me := uint64(c.Rank()*goroutines + g + 1)
				for range rounds {
					for {
						prev, err := w.CompareAndSwap(target, 0, 0, me)
						if err != nil {
							errs[g] = err
							return
						}
						if prev == 0 {
							break
						}
						runtime.Gosched()
					}
					err := w.Get(buf, target, 8)
					if err == nil {
						err = w.Flush(target)
					}
					binary.LittleEndian.PutUint64(buf, binary.LittleEndian.Uint64(buf)+1)
					if err == nil {
						err = w.Put(buf, target, 8)
					}
					if err == nil {
						err = w.Flush(target)
					}
					if err == nil {
						var prev uint64
						prev, err = w.CompareAndSwap(target, 0, me, 0)
						if err == nil && prev != me {
							err = fmt.Errorf("lock held by %d while this goroutine (%d) held it", prev, me)
						}
					}
					if err != nil {
						errs[g] = err
						return
					}
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		got, err := w.AtomicGet(target, 8)
		if err != nil {
			return err
		}
		if want := uint64(c.Size() * goroutines * rounds); got != want {
			return fmt.Errorf("counter is %d, want %d", got, want)
		}
		return c.Barrier()
	})
}

// TestPutGetRoundTrip: every rank writes a pattern into the next rank's
// memory at odd offsets and lengths, and reads back what its predecessor
// wrote, completing with Flush and with FlushAll.
func TestPutGetRoundTrip(t *testing.T) {
	const size = 4096
	for _, all := range []bool{false, true} {
		run(t, func(c rma.Comm) error {
			w, err := c.NewWindow(size)
			if err != nil {
				return err
			}
			defer w.Free()
			next, prev := (c.Rank()+1)%c.Size(), (c.Rank()+c.Size()-1)%c.Size()
			pattern := func(rank int) []byte {
				b := make([]byte, 1001)
				for i := range b {
					b[i] = byte(rank*31 + i*7 + 1)
				}
				return b
			}
			src := pattern(c.Rank())
			for off := 0; off < len(src); off += 250 {
				end := min(off+250, len(src))
				if err := w.Put(src[off:end], next, 3+off); err != nil {
					return err
				}
			}
			if all {
				err = w.FlushAll()
			} else {
				err = w.Flush(next)
			}
			if err != nil {
				return err
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			got := make([]byte, 1003)
			if err := w.Get(got, c.Rank(), 2); err != nil {
				return err
			}
			if err := w.Flush(c.Rank()); err != nil {
				return err
			}
			want := append(append([]byte{0}, pattern(prev)...), 0)
			if !bytes.Equal(got, want) {
				return fmt.Errorf("rank %d read back %x..., want %x...", c.Rank(), got[:16], want[:16])
			}
			// A word put as bytes reads back through AtomicGet little-endian.
			if err := w.Put([]byte{1, 2, 3, 4, 5, 6, 7, 8}, next, 2048); err != nil {
				return err
			}
			if err := w.Flush(next); err != nil {
				return err
			}
			if v, err := w.AtomicGet(next, 2048); err != nil || v != 0x0807060504030201 {
				return fmt.Errorf("AtomicGet of a put word = %#x, %v", v, err)
			}
			return c.Barrier()
		})
	}
}

// TestConcurrentPutsFlushedByOthers: goroutines Put to many ranks, and one
// FlushAll by a different goroutine after they return completes them all.
func TestConcurrentPutsFlushedByOthers(t *testing.T) {
	const goroutines, per = 4, 64
	run(t, func(c rma.Comm) error {
		n := c.Size()
		w, err := c.NewWindow(n * goroutines * per * 8)
		if err != nil {
			return err
		}
		defer w.Free()
		// Each (origin, goroutine, i) owns one word, at a distinct offset, of
		// rank (origin+i) % n.
		word := func(o, g, i int) (target, offset int, v uint64) {
			return (o + i) % n, ((o*goroutines+g)*per + i) * 8, uint64(o<<20 | g<<10 | i | 1<<40)
		}
		var wg sync.WaitGroup
		errs := make([]error, goroutines)
		for g := range goroutines {
			wg.Go(func() {
				for i := range per {
					t, off, v := word(c.Rank(), g, i)
					var b [8]byte
					binary.LittleEndian.PutUint64(b[:], v)
					if err := w.Put(b[:], t, off); err != nil {
						errs[g] = err
						return
					}
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		if err := w.FlushAll(); err != nil {
			return err
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		mem := make([]byte, w.Size())
		if err := w.Get(mem, c.Rank(), 0); err != nil {
			return err
		}
		if err := w.Flush(c.Rank()); err != nil {
			return err
		}
		for o := range n {
			for g := range goroutines {
				for i := range per {
					t, off, v := word(o, g, i)
					if t != c.Rank() {
						v = 0
					}
					if got := binary.LittleEndian.Uint64(mem[off:]); got != v {
						return fmt.Errorf("word at %d of rank %d is %#x, want %#x", off, c.Rank(), got, v)
					}
				}
			}
		}
		return c.Barrier()
	})
}

func TestWindowErrors(t *testing.T) {
	run(t, func(c rma.Comm) error {
		w, err := c.NewWindow(32)
		if err != nil {
			return err
		}
		n := c.Size()
		buf := make([]byte, 8)
		checks := []struct {
			name string
			err  error
			want error
		}{
			{"Get rank -1", w.Get(buf, -1, 0), rma.ErrRank},
			{"Put rank n", w.Put(buf, n, 0), rma.ErrRank},
			{"Flush rank n", w.Flush(n), rma.ErrRank},
			{"Get past end", w.Get(buf, 0, 25), rma.ErrRange},
			{"Put negative offset", w.Put(buf, 0, -1), rma.ErrRange},
			{"Get huge offset", w.Get(buf, 0, 1<<62), rma.ErrRange},
			{"CAS misaligned", errOf(w.CompareAndSwap(0, 4, 0, 1)), rma.ErrAlignment},
			{"FAA misaligned", errOf(w.FetchAndAdd(0, 1, 1)), rma.ErrAlignment},
			{"AtomicGet past end", errOf(w.AtomicGet(0, 32)), rma.ErrRange},
			{"AtomicPut rank n", w.AtomicPut(n, 0, 1), rma.ErrRank},
		}
		for _, ck := range checks {
			if !errors.Is(ck.err, ck.want) {
				return fmt.Errorf("%s = %v, want %v", ck.name, ck.err, ck.want)
			}
		}
		if err := w.Free(); err != nil {
			return err
		}
		for name, err := range map[string]error{
			"Get":       w.Get(buf, 0, 0),
			"Put":       w.Put(buf, 0, 0),
			"Flush":     w.Flush(0),
			"FlushAll":  w.FlushAll(),
			"CAS":       errOf(w.CompareAndSwap(0, 0, 0, 1)),
			"FAA":       errOf(w.FetchAndAdd(0, 0, 1)),
			"AtomicGet": errOf(w.AtomicGet(0, 0)),
			"AtomicPut": w.AtomicPut(0, 0, 1),
			"Free":      w.Free(),
		} {
			if !errors.Is(err, rma.ErrFreed) {
				return fmt.Errorf("%s after Free = %v, want rma.ErrFreed", name, err)
			}
		}
		return nil
	})
}

func errOf(_ uint64, err error) error { return err }

// TestUnfreedWindowReleased: a window still open when Run returns is
// released, and later use reports ErrFreed instead of touching MPI.
func TestUnfreedWindowReleased(t *testing.T) {
	var leaked rma.Window
	var comm rma.Comm
	run(t, func(c rma.Comm) error {
		w, err := c.NewWindow(8)
		leaked, comm = w, c
		return err
	})
	if err := leaked.AtomicPut(0, 0, 1); !errors.Is(err, rma.ErrFreed) {
		t.Fatalf("AtomicPut on a window of a finished Run = %v, want rma.ErrFreed", err)
	}
	if err := comm.Barrier(); !errors.Is(err, rma.ErrAborted) {
		t.Fatalf("Barrier on the Comm of a finished Run = %v, want rma.ErrAborted", err)
	}
}

// TestGoPanicsStillRecover: MPI must not take over Go's signal handlers; a
// nil dereference stays a recoverable Go panic.
func TestGoPanicsStillRecover(t *testing.T) {
	run(t, func(c rma.Comm) error { return nil }) // MPI is up
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	var p *int
	_ = *p
}

func TestCollectiveValues(t *testing.T) {
	run(t, func(c rma.Comm) error {
		n, r := c.Size(), c.Rank()
		f := []float64{float64(r) + 0.5, -float64(r)}
		if err := c.AllreduceFloat64(f, rma.OpMax); err != nil {
			return err
		}
		if f[0] != float64(n-1)+0.5 || f[1] != 0 {
			return fmt.Errorf("AllreduceFloat64 max = %v", f)
		}
		u := []uint64{1 << 63, uint64(r)}
		if err := c.AllreduceUint64(u, rma.OpMin); err != nil {
			return err
		}
		if u[0] != 1<<63 || u[1] != 0 {
			return fmt.Errorf("AllreduceUint64 min = %v", u)
		}
		send := make([][]byte, n)
		for to := range send {
			send[to] = bytes.Repeat([]byte{byte(r*16 + to)}, r+to)
		}
		got, err := c.Alltoallv(send)
		if err != nil {
			return err
		}
		for from, b := range got {
			if want := bytes.Repeat([]byte{byte(from*16 + r)}, from+r); !bytes.Equal(b, want) {
				return fmt.Errorf("Alltoallv from %d = %x, want %x", from, b, want)
			}
		}
		all, err := c.Allgatherv(bytes.Repeat([]byte{byte(r)}, 3*r))
		if err != nil {
			return err
		}
		for from, b := range all {
			if want := bytes.Repeat([]byte{byte(from)}, 3*from); !bytes.Equal(b, want) {
				return fmt.Errorf("Allgatherv from %d = %x, want %x", from, b, want)
			}
		}
		return nil
	})
}

// TestPanicAbortsJob is run by hand: a panicking rank must print its stack
// and abort the job rather than leave its peers hanging in a collective.
//
//	GDI_MPI_PANIC=1 mpirun ... -n 2 ./mpi.test -test.run TestPanicAbortsJob
//
// mpirun then exits non-zero within seconds, with "rank 1 ... panicked" and
// the stack on stderr.
func TestPanicAbortsJob(t *testing.T) {
	if os.Getenv("GDI_MPI_PANIC") != "1" {
		t.Skip("aborts the job; run by hand with GDI_MPI_PANIC=1")
	}
	needRanks(t, 2)
	run(t, func(c rma.Comm) error {
		if c.Rank() == 1 {
			var m map[string]int
			m["x"] = 1
		}
		return c.Barrier()
	})
}

// TestIdleServesOtherRanks checks rma.Idler: while the last rank does
// nothing but Idle, rank 0's atomics on its window go on. Over osc ucx,
// without the progress Idle makes, a target outside MPI serves nothing,
// and rank 0 would complete one or two of them in the whole time.
func TestIdleServesOtherRanks(t *testing.T) {
	needRanks(t, 2)
	const busy = 200 * time.Millisecond
	run(t, func(c rma.Comm) error {
		w, err := c.NewWindow(64)
		if err != nil {
			return err
		}
		idler, ok := w.(rma.Idler)
		if !ok {
			return fmt.Errorf("an rma/mpi window is not an rma.Idler")
		}
		last := c.Size() - 1
		switch c.Rank() {
		case last:
			if !idler.Idle(busy+busy/2) && !slices.Contains(mpi.NodeRanks(c), 0) {
				return fmt.Errorf("Idle declined to serve, though rank 0 reaches this window through MPI")
			}
		case 0:
			n := 0
			for start := time.Now(); time.Since(start) < busy; n++ {
				if _, err := w.FetchAndAdd(last, 8, 1); err != nil {
					return err
				}
			}
			if n < 100 {
				return fmt.Errorf("rank 0 completed %d fetch-and-adds on an idling rank's window in %v, want at least 100", n, busy)
			}
		}
		return c.Barrier()
	})
}

// TestStatsCountCalls checks GDI_MPI_STATS's counts: an atomic on another
// node's rank is one MPI call of its kind, and one on a rank this process
// reaches directly is none, unless the component's atomics are not the
// CPU's (osc pt2pt).
func TestStatsCountCalls(t *testing.T) {
	defer mpi.SetStats(mpi.SetStats(true))
	run(t, func(c rma.Comm) error {
		w, err := c.NewWindow(64)
		if err != nil {
			return err
		}
		direct := mpi.NodeRanks(c)
		for target := range c.Size() {
			before := mpi.CallCount("fetch_and_add")
			if _, err := w.FetchAndAdd(target, 8, 1); err != nil {
				return err
			}
			want := int64(1)
			if slices.Contains(direct, target) && mpi.CPUAtomics(w) {
				want = 0
			}
			if got := mpi.CallCount("fetch_and_add") - before; got != want {
				return fmt.Errorf("a FetchAndAdd on rank %d (reached directly: %v) counted %d MPI calls, want %d", target, want == 0, got, want)
			}
		}
		return w.Free()
	})
}

// TestCollectiveLetsOthersIn: while one goroutine of rank 0 waits in a
// collective, another goroutine of rank 0 can still make the one-sided
// call that the last rank waits for before it joins the collective. Under
// MPI_THREAD_SERIALIZED a collective that held the shim's lock until it
// completed would deadlock here (see gdi_wait in shim.c).
func TestCollectiveLetsOthersIn(t *testing.T) {
	run(t, func(c rma.Comm) error {
		w, err := c.NewWindow(8)
		if err != nil {
			return err
		}
		last := c.Size() - 1
		if last == 0 {
			return w.Free()
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		var werr error
		switch c.Rank() {
		case 0:
			var wg sync.WaitGroup
			wg.Go(func() {
				time.Sleep(50 * time.Millisecond) // let the Barrier below start first
				werr = w.AtomicPut(last, 0, 1)
			})
			err = c.Barrier()
			wg.Wait()
		case last:
			werr = awaitWord(w, last, 10*time.Second)
			err = c.Barrier() // also when the flag never came: rank 0 waits here
		default:
			err = c.Barrier()
		}
		if werr != nil {
			return werr
		}
		if err != nil {
			return err
		}
		return w.Free()
	})
}

// awaitWord waits until the word at offset 0 of rank's part of w is not
// zero, serving the other ranks' calls meanwhile.
func awaitWord(w rma.Window, rank int, limit time.Duration) error {
	for start := time.Now(); time.Since(start) < limit; {
		v, err := w.AtomicGet(rank, 0)
		if err != nil || v != 0 {
			return err
		}
		rma.Idle(w, time.Millisecond)
	}
	return fmt.Errorf("rank 0's AtomicPut did not arrive in %v while its other goroutine was in a Barrier", limit)
}

// TestConcurrentGetsFlushedByOthers: goroutines Get words of every rank,
// staged or (larger than MaxStaged) at once, and a FlushAll by a
// different goroutine after they return completes them all: every
// buffer then holds what its rank wrote.
func TestConcurrentGetsFlushedByOthers(t *testing.T) {
	const goroutines, per = 4, 48
	sizes := []int{8, 100, mpi.MaxStaged, mpi.MaxStaged + 8}
	run(t, func(c rma.Comm) error {
		n := c.Size()
		w, err := c.NewWindow(2 * mpi.MaxStaged)
		if err != nil {
			return err
		}
		defer w.Free()
		// Rank r's part holds byte (r*31 + i) at offset i.
		own := make([]byte, w.Size())
		for i := range own {
			own[i] = byte(c.Rank()*31 + i)
		}
		if err := w.Put(own, c.Rank(), 0); err != nil {
			return err
		}
		if err := errors.Join(w.Flush(c.Rank()), c.Barrier()); err != nil {
			return err
		}
		type read struct {
			dst         []byte
			rank, start int
		}
		reads := make([][]read, goroutines)
		var wg sync.WaitGroup
		errs := make([]error, goroutines)
		for g := range goroutines {
			wg.Go(func() {
				for i := range per {
					r := read{make([]byte, sizes[i%len(sizes)]), (c.Rank() + g + i) % n, (g*per + i) % 64}
					if err := w.Get(r.dst, r.rank, r.start); err != nil {
						errs[g] = err
						return
					}
					reads[g] = append(reads[g], r)
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		if err := w.FlushAll(); err != nil {
			return err
		}
		for _, rs := range reads {
			for _, r := range rs {
				for i, b := range r.dst {
					if want := byte(r.rank*31 + r.start + i); b != want {
						return fmt.Errorf("a get of %d bytes at %d of rank %d has %d at %d, want %d", len(r.dst), r.start, r.rank, b, i, want)
					}
				}
			}
		}
		return c.Barrier()
	})
}

// TestMaxStagedCounted: rma/count models the Gets and Puts this package
// stages by the same bound.
func TestMaxStagedCounted(t *testing.T) {
	if mpi.MaxStaged != count.MaxStaged {
		t.Fatalf("rma/mpi stages up to %d bytes, rma/count counts up to %d as staged", mpi.MaxStaged, count.MaxStaged)
	}
}

// TestStageMemoryBounded: after rounds of Gets and Puts to every rank,
// completed, no stage holds C memory, and the window keeps at most
// MaxFreeChunks chunks: its memory does not grow with the ranks it
// reached.
func TestStageMemoryBounded(t *testing.T) {
	run(t, func(c rma.Comm) error {
		w, err := c.NewWindow(1 << 10)
		if err != nil {
			return err
		}
		defer w.Free()
		buf := make([]byte, 512)
		for round := range 3 {
			for r := range c.Size() {
				if err := errors.Join(w.Get(buf, r, 0), w.Put(buf[:8], r, 512+8*round)); err != nil {
					return err
				}
			}
			if err := w.FlushAll(); err != nil {
				return err
			}
		}
		if held, free := mpi.StageChunks(w); held != 0 || free > mpi.MaxFreeChunks {
			return fmt.Errorf("after the rounds completed, stages hold %d chunks and the window keeps %d free (at most %d)", held, free, mpi.MaxFreeChunks)
		}
		return c.Barrier()
	})
}
