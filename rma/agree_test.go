package rma_test

import (
	"errors"
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

func TestAgree(t *testing.T) {
	boom := errors.New("boom")
	err := local.Run(3, func(c rma.Comm) error {
		if err := rma.Agree(c, nil); err != nil {
			return err
		}
		var mine error
		if c.Rank() == 1 {
			mine = boom
		}
		got := rma.Agree(c, mine)
		switch {
		case c.Rank() == 1 && got != boom:
			return errors.New("the failing rank lost its own error")
		case c.Rank() != 1 && !errors.Is(got, rma.ErrAborted):
			return errors.New("a passing rank did not learn of the failure")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
