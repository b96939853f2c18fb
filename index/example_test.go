package index_test

import (
	"fmt"

	"github.com/gdi-go/gdi/index"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// Rank 0 indexes people by age in rank 1's part of a tree; rank 1 then
// finds everyone aged 30 to 39. Neither rank does anything on the other's
// behalf: all accesses are one-sided.
func Example() {
	err := local.Run(2, func(c rma.Comm) error {
		f, err := index.NewForest(c, index.Config{NodeSize: 512, Nodes: 64, MaxKey: 8})
		if err != nil {
			return err
		}
		byAge, err := f.Create()
		if err != nil {
			return err
		}
		if c.Rank() == 0 {
			// Keys are ages as two digits, values vertex ids.
			people := []struct {
				age string
				id  uint64
			}{{"34", 7}, {"29", 3}, {"31", 9}, {"34", 2}, {"40", 5}}
			for _, p := range people {
				if _, err := f.Insert(byAge, 1, []byte(p.age), p.id); err != nil {
					return err
				}
			}
			added, _ := f.Insert(byAge, 1, []byte("34"), 7)
			fmt.Println("34/7 again added:", added)
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if c.Rank() == 1 {
			err := f.Scan(byAge, 1, []byte("30"), []byte("39"), func(age []byte, id uint64) bool {
				fmt.Printf("age %s: vertex %d\n", age, id)
				return true
			})
			if err != nil {
				return err
			}
			n, _ := f.Len(byAge, 1)
			fmt.Println("entries:", n)
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if err := f.Drop(byAge); err != nil {
			return err
		}
		return f.Free()
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// 34/7 again added: false
	// age 31: vertex 9
	// age 34: vertex 2
	// age 34: vertex 7
	// entries: 5
}
