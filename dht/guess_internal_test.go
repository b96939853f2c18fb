package dht

import (
	"encoding/binary"
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// TestFreedHomeEntryLeadsOn checks the rule that makes a Guess of Absent
// sure: a home entry freed after a walk read the link to it still links
// where it did, so a key further down the chain (here in an overflow
// entry) is not missed. The slot is as Guess may read it: the bucket word
// read before the first entry was deleted, that entry's link read after
// it was freed.
func TestFreedHomeEntryLeadsOn(t *testing.T) {
	err := local.Run(1, func(c rma.Comm) error {
		tb, err := New(c, Config{Buckets: 1, Entries: 4})
		if err != nil {
			return err
		}
		defer tb.Free()
		overflow := tb.homes() + 1
		slot := make([]byte, tb.slotSize)
		binary.LittleEndian.PutUint64(slot, next(0, 1))
		deleted := next(next(0, overflow), overflow) | markBit
		binary.LittleEndian.PutUint64(slot[slotEntries:], freed(deleted))
		if tb.chainInSlot(slot, 0) {
			t.Errorf("chain head → freed home entry → overflow entry read as ending in the slot")
		}
		if _, _, ok := tb.slotWalk(slot, 0, next(0, 1), 0, 1, []byte("k")); ok {
			t.Errorf("slotWalk through a freed home entry took it as a chain within the slot")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
