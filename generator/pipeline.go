package generator

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gdi-go/gdi/rma"
)

// WriteOptions tune the writers.
type WriteOptions struct {
	// Workers is the number of goroutines generating and formatting in
	// parallel; 0 means GOMAXPROCS.
	Workers int
	// Progress, if not nil, is called after each written chunk with the
	// number of edges or vertices it held, from one goroutine at a time.
	Progress func(n uint64)
}

func (o WriteOptions) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

func (o WriteOptions) progress(n uint64) {
	if o.Progress != nil {
		o.Progress(n)
	}
}

// ordered splits [lo, hi) into chunks, runs produce on workers goroutines
// and hands the results to consume in chunk order, on the calling
// goroutine. After the first error of consume, no more chunks are started
// and consume is not called again.
func ordered[T any](lo, hi, chunk uint64, workers int, produce func(lo, hi uint64) T, consume func(lo, hi uint64, r T) error) error {
	type job struct {
		lo, hi uint64
		out    chan T
	}
	jobs := make(chan job, workers)
	pending := make(chan job, 2*workers)
	var stop atomic.Bool
	go func() {
		for a := lo; a < hi && !stop.Load(); a += min(chunk, hi-a) {
			j := job{a, a + min(chunk, hi-a), make(chan T, 1)}
			pending <- j
			jobs <- j
		}
		close(jobs)
		close(pending)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				j.out <- produce(j.lo, j.hi)
			}
		})
	}
	var err error
	for j := range pending {
		r := <-j.out
		if err == nil {
			if err = consume(j.lo, j.hi, r); err != nil {
				stop.Store(true)
			}
		}
	}
	wg.Wait()
	return err
}

// Sequential runs fn on one rank after the other, in rank order, with all
// ranks waiting in between: the way ranks write their slices of one file in
// order. It is collective. Once fn fails on a rank, later ranks skip it;
// every rank returns the error of its own fn, or an error saying that an
// earlier rank failed.
func Sequential(c rma.Comm, fn func() error) error {
	var mine error
	failed := []int64{0}
	for k := range c.Size() {
		if k == c.Rank() && failed[0] == 0 {
			if mine = fn(); mine != nil {
				failed[0] = 1
			}
		}
		if err := c.AllreduceInt64(failed, rma.OpMax); err != nil {
			return errors.Join(mine, err)
		}
	}
	if mine == nil && failed[0] != 0 {
		return errors.New("generator: another rank failed to write")
	}
	return mine
}
