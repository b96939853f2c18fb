package local_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
	"github.com/gdi-go/gdi/rma/rmatest"
)

func TestConformance(t *testing.T) {
	rmatest.Run(t, local.Run, 1, 2, 3, 4)
}

func TestRunReturnsRankError(t *testing.T) {
	boom := errors.New("boom")
	err := local.Run(3, func(c rma.Comm) error {
		if c.Rank() == 1 {
			return boom
		}
		return c.Barrier() // must not hang waiting for rank 1
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Run = %v, want the error of rank 1", err)
	}
	if errors.Is(err, rma.ErrAborted) {
		t.Fatalf("Run = %v: the ranks aborted by rank 1 should not hide its error", err)
	}
}

func TestRunPanicCarriesStack(t *testing.T) {
	err := local.Run(4, func(c rma.Comm) error {
		if c.Rank() == 2 {
			var m map[string]int
			m["x"] = 1 // panics
		}
		return c.Barrier()
	})
	if err == nil || !strings.Contains(err.Error(), "rank 2 panicked") || !strings.Contains(err.Error(), "local_test.go") {
		t.Fatalf("Run = %v, want a panic of rank 2 with its stack", err)
	}
}

func TestRunEarlyReturnDoesNotHang(t *testing.T) {
	err := local.Run(2, func(c rma.Comm) error {
		if c.Rank() == 0 {
			return nil
		}
		return c.Barrier()
	})
	if !errors.Is(err, rma.ErrAborted) || !strings.Contains(err.Error(), "rank 0 returned without calling Barrier") {
		t.Fatalf("Run = %v, want an abort naming rank 0", err)
	}
}

func TestRunMismatchedCollectives(t *testing.T) {
	err := local.Run(2, func(c rma.Comm) error {
		if c.Rank() == 0 {
			return c.Barrier()
		}
		_, err := c.Allgatherv(nil)
		return err
	})
	if !errors.Is(err, rma.ErrArgument) {
		t.Fatalf("Run = %v, want a collective mismatch", err)
	}
}

func TestRunBadCount(t *testing.T) {
	if err := local.Run(0, func(rma.Comm) error { return nil }); !errors.Is(err, rma.ErrArgument) {
		t.Fatalf("Run(0) = %v, want ErrArgument", err)
	}
}
