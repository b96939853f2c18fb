package dht

import "github.com/gdi-go/gdi/rma"

// Windows returns the table's windows, the bucket slots and those of the
// entry heap (see bgdl.Pool.Windows), for checkpoints: together with the
// Config they are the whole state of the table.
func (t *Table) Windows() []rma.Window {
	return append([]rma.Window{t.table}, t.heap.Windows()...)
}
