package dht_test

import (
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// Rank 0 stores application IDs under a label; rank 1 finds them with
// one-sided reads only, whichever rank they live on.
func Example() {
	const person = 3 // a label id
	err := local.Run(2, func(c rma.Comm) error {
		table, err := dht.New(c, dht.Config{Buckets: 64, Entries: 64})
		if err != nil {
			return err
		}
		if c.Rank() == 0 {
			for i, id := range []string{"alice", "bob"} {
				if err := table.Insert(person, []byte(id), uint64(100+i)); err != nil {
					return err
				}
			}
			err := table.Insert(person, []byte("bob"), 7)
			fmt.Println("bob again:", errors.Is(err, dht.ErrExists))
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if c.Rank() == 1 {
			v, found, _ := table.Lookup(person, []byte("bob"))
			fmt.Println("bob:", v, found)
			deleted, _ := table.Delete(person, []byte("alice"))
			_, found, _ = table.Lookup(person, []byte("alice"))
			fmt.Println("alice deleted:", deleted, "found after:", found)
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		return table.Free()
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// bob again: true
	// bob: 101 true
	// alice deleted: true found after: false
}
