package dht

import (
	"fmt"
)

// Clear empties the calling rank's part of the table: its buckets and its
// entry heap. It is for recovery, where the table is rebuilt from the data
// it indexes. It is local and must only be called while no rank uses the
// table; callers synchronise the ranks around it (a Barrier between every
// rank's Clear and the first Insert).
func (t *Table) Clear() error {
	me := t.comm.Rank()
	if err := t.table.Put(make([]byte, t.table.Size()), me, 0); err != nil {
		return fmt.Errorf("dht: clear: %w", err)
	}
	if err := t.table.Flush(me); err != nil {
		return fmt.Errorf("dht: clear: %w", err)
	}
	if _, err := t.heap.Rebuild(func(int) bool { return false }); err != nil {
		return fmt.Errorf("dht: clear: %w", err)
	}
	return nil
}
