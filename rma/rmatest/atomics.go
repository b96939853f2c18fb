package rmatest

import (
	"fmt"
	"sync"

	"github.com/gdi-go/gdi/rma"
)

var atomicCases = []Case{
	{"Atomic/cas-semantics", casSemantics},
	{"Atomic/faa-semantics", faaSemantics},
	{"Atomic/cas-counter-exact", hammer(casIncrement)},
	{"Atomic/faa-counter-exact", hammer(faaIncrement)},
	{"Atomic/faa-negative-delta", faaNegative},
}

func casSemantics(c rma.Comm) error {
	return withWindow(c, 16, func(w rma.Window) error {
		if c.Rank() == 0 {
			t := c.Size() - 1
			if err := w.AtomicPut(t, 8, 5); err != nil {
				return err
			}
			prev, err := w.CompareAndSwap(t, 8, 4, 9)
			if err != nil {
				return err
			}
			if prev != 5 {
				return fmt.Errorf("failed CAS returned %d, want the current value 5", prev)
			}
			if v, _ := w.AtomicGet(t, 8); v != 5 {
				return fmt.Errorf("failed CAS changed the word to %d", v)
			}
			prev, err = w.CompareAndSwap(t, 8, 5, 9)
			if err != nil {
				return err
			}
			if prev != 5 {
				return fmt.Errorf("successful CAS returned %d, want the old value 5", prev)
			}
			if v, _ := w.AtomicGet(t, 8); v != 9 {
				return fmt.Errorf("successful CAS left %d, want 9", v)
			}
			if v, _ := w.AtomicGet(t, 0); v != 0 {
				return fmt.Errorf("CAS touched the neighbouring word: %d", v)
			}
		}
		return c.Barrier()
	})
}

func faaSemantics(c rma.Comm) error {
	return withWindow(c, 8, func(w rma.Window) error {
		if c.Rank() == 0 {
			if err := w.AtomicPut(0, 0, 1<<63); err != nil {
				return err
			}
			prev, err := w.FetchAndAdd(0, 0, 1<<63+3) // wraps modulo 2^64
			if err != nil {
				return err
			}
			if prev != 1<<63 {
				return fmt.Errorf("FAA returned %d, want %d", prev, uint64(1<<63))
			}
			if v, _ := w.AtomicGet(0, 0); v != 3 {
				return fmt.Errorf("FAA left %d, want 3 (modulo 2^64)", v)
			}
		}
		return c.Barrier()
	})
}

func casIncrement(w rma.Window, target, offset int) error {
	old, err := w.AtomicGet(target, offset)
	if err != nil {
		return err
	}
	for {
		prev, err := w.CompareAndSwap(target, offset, old, old+1)
		if err != nil {
			return err
		}
		if prev == old {
			return nil
		}
		old = prev
	}
}

func faaIncrement(w rma.Window, target, offset int) error {
	_, err := w.FetchAndAdd(target, offset, 1)
	return err
}

// hammer has every goroutine of every rank increment one counter on every
// rank many times; the final counts must be exact.
func hammer(inc func(w rma.Window, target, offset int) error) func(rma.Comm) error {
	return func(c rma.Comm) error {
		const goroutines, perTarget = 8, 300
		return withWindow(c, 16, func(w rma.Window) error {
			var wg sync.WaitGroup
			errs := make([]error, goroutines)
			for g := range goroutines {
				wg.Go(func() {
					for i := range perTarget * c.Size() {
						t := (i + g + c.Rank()) % c.Size()
						if err := inc(w, t, 8); err != nil {
							errs[g] = err
							return
						}
					}
				})
			}
			wg.Wait()
			if err := firstErr(errs); err != nil {
				return err
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			want := uint64(c.Size() * goroutines * perTarget)
			for t := range c.Size() {
				got, err := w.AtomicGet(t, 8)
				if err != nil {
					return err
				}
				if got != want {
					return fmt.Errorf("counter on rank %d is %d, want %d", t, got, want)
				}
				if other, _ := w.AtomicGet(t, 0); other != 0 {
					return fmt.Errorf("neighbouring word on rank %d is %d", t, other)
				}
			}
			return c.Barrier()
		})
	}
}

func faaNegative(c rma.Comm) error {
	return withWindow(c, 8, func(w rma.Window) error {
		if c.Rank() == 0 {
			if err := w.AtomicPut(0, 0, uint64(1000*c.Size())); err != nil {
				return err
			}
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		for range 1000 {
			if _, err := w.FetchAndAdd(0, 0, ^uint64(0)); err != nil { // -1
				return err
			}
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if v, _ := w.AtomicGet(0, 0); v != 0 {
			return fmt.Errorf("counter after subtracting is %d, want 0", v)
		}
		return c.Barrier()
	})
}
