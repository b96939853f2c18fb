package catalog

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// TestRewriteOnEveryRank: a metadata rewrite runs on rank 0 alone, or
// with RewriteOnEveryRank on every rank, and the label is freed on every
// rank either way.
func TestRewriteOnEveryRank(t *testing.T) {
	for _, every := range []bool{false, true} {
		var calls atomic.Int32
		err := local.Run(3, func(c rma.Comm) error {
			cat := New(c, "test")
			if every {
				cat.RewriteOnEveryRank()
			}
			l, err := cat.CreateLabel("gone")
			if err != nil {
				return err
			}
			if err := cat.RewriteFreeLabel(l, func(string) error { return nil }, func(uint32) error { calls.Add(1); return nil }); err != nil {
				return err
			}
			if got, err := cat.LabelFromName("gone"); err != nil || got != gdi.LabelNull {
				return fmt.Errorf("label still there: %v %v", got, err)
			}
			return nil
		})
		want := int32(1)
		if every {
			want = 3
		}
		if err != nil || calls.Load() != want {
			t.Errorf("every rank %v: %d rewrites (%v), want %d", every, calls.Load(), err, want)
		}
	}
}
