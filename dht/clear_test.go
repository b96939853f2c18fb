package dht_test

import (
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

func TestClear(t *testing.T) {
	err := local.Run(3, func(c rma.Comm) error {
		tb, err := dht.New(c, dht.Config{Buckets: 4, Entries: 16})
		if err != nil {
			return err
		}
		defer tb.Free()
		key := func(i int) []byte { return []byte(fmt.Sprintf("r%d-k%d", c.Rank(), i)) }
		// Fill the table up twice over, clearing in between: Clear frees
		// the heap entries too.
		for round := range 3 {
			for i := range 12 {
				if err := tb.Insert(7, key(i), uint64(i+1)); err != nil {
					return fmt.Errorf("round %d: Insert %d: %w", round, i, err)
				}
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			for i := range 12 {
				if v, ok, err := tb.Lookup(7, key(i)); err != nil || !ok || v != uint64(i+1) {
					return fmt.Errorf("round %d: Lookup %d = %d, %v, %v", round, i, v, ok, err)
				}
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			if err := tb.Clear(); err != nil {
				return err
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			for i := range 12 {
				if _, ok, err := tb.Lookup(7, key(i)); err != nil || ok {
					return fmt.Errorf("round %d: Lookup %d after Clear: found %v, %v", round, i, ok, err)
				}
			}
			if err := c.Barrier(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
