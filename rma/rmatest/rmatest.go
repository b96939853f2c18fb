// Package rmatest is a conformance suite for rma backends, in the manner of
// nettest.TestConn: a backend's test calls Run with its Launcher, and each
// rule the backend breaks fails a subtest named after it.
//
// Cases run on every rank, so they are written as functions of an rma.Comm
// that return an error instead of calling t.Fatal; the launcher reports which
// rank failed. Under MPI every process runs the same sequence of subtests, so
// the cases make the same collective calls in the same order everywhere.
package rmatest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/rma"
)

// Case is one rule of the rma contract, checked on every rank.
type Case struct {
	Name string
	Run  func(c rma.Comm) error
}

// Cases is the suite, in the order Run runs it.
var Cases = concat(collectiveCases, windowCases, atomicCases, batchCases, errorCases, snapshotCases, prefetchCases)

// Run runs every case on each of the given rank counts (1, 2, 3 and 4 if
// none are given). A rank count the launcher cannot start, reported with
// rma.ErrRanks, is skipped.
func Run(t *testing.T, launch rma.Launcher, ranks ...int) {
	if len(ranks) == 0 {
		ranks = []int{1, 2, 3, 4}
	}
	for _, n := range ranks {
		t.Run(fmt.Sprintf("ranks=%d", n), func(t *testing.T) {
			for _, tc := range Cases {
				t.Run(tc.Name, func(t *testing.T) {
					err := launch(n, tc.Run)
					if errors.Is(err, rma.ErrRanks) {
						t.Skipf("launcher cannot start %d ranks: %v", n, err)
					}
					if err != nil {
						t.Fatal(err)
					}
				})
			}
		})
	}
}

func concat(lists ...[]Case) []Case {
	var all []Case
	for _, l := range lists {
		all = append(all, l...)
	}
	return all
}

// withWindow allocates a window of size bytes, runs fn, and frees it.
func withWindow(c rma.Comm, size int, fn func(w rma.Window) error) error {
	w, err := c.NewWindow(size)
	if err != nil {
		return fmt.Errorf("NewWindow(%d): %w", size, err)
	}
	ferr := fn(w)
	// Free is collective: keep the ranks in step even when fn failed.
	if err := w.Free(); err != nil && ferr == nil {
		return fmt.Errorf("Free: %w", err)
	}
	return ferr
}

// wantErr checks that err wraps target.
func wantErr(what string, err, target error) error {
	if !errors.Is(err, target) {
		return fmt.Errorf("%s: got error %v, want %v", what, err, target)
	}
	return nil
}

// getFlush reads n bytes at offset of target and completes the read.
func getFlush(w rma.Window, target, offset, n int) ([]byte, error) {
	buf := make([]byte, n)
	if err := w.Get(buf, target, offset); err != nil {
		return nil, fmt.Errorf("Get(%d bytes, rank %d, offset %d): %w", n, target, offset, err)
	}
	if err := w.Flush(target); err != nil {
		return nil, fmt.Errorf("Flush(%d): %w", target, err)
	}
	return buf, nil
}

// putFlush writes src at offset of target and completes the write.
func putFlush(w rma.Window, src []byte, target, offset int) error {
	if err := w.Put(src, target, offset); err != nil {
		return fmt.Errorf("Put(%d bytes, rank %d, offset %d): %w", len(src), target, offset, err)
	}
	if err := w.Flush(target); err != nil {
		return fmt.Errorf("Flush(%d): %w", target, err)
	}
	return nil
}
