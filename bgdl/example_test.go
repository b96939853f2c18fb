package bgdl_test

import (
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// Rank 0 takes a block from rank 1's memory, writes into it with a put, and
// reads it back with a get, without rank 1 doing anything.
func Example() {
	err := local.Run(2, func(c rma.Comm) error {
		pool, err := bgdl.NewPool(c, bgdl.Config{BlockSize: 64, Blocks: 4})
		if err != nil {
			return err
		}
		if c.Rank() == 0 {
			ptr, err := pool.Acquire(1)
			if err != nil {
				return err
			}
			fmt.Println("acquired", ptr)
			data := pool.Data()
			if err := data.Put([]byte("hello, block"), ptr.Rank(), ptr.Offset()); err != nil {
				return err
			}
			if err := data.Flush(ptr.Rank()); err != nil {
				return err
			}
			buf := make([]byte, 12)
			if err := data.Get(buf, ptr.Rank(), ptr.Offset()); err != nil {
				return err
			}
			if err := data.Flush(ptr.Rank()); err != nil {
				return err
			}
			fmt.Printf("%s\n", buf)
			if err := pool.Release(ptr); err != nil {
				return err
			}
			err = pool.Release(ptr)
			fmt.Println("second release:", errors.Is(err, bgdl.ErrDoubleRelease))
			free, err := pool.FreeBlocks(1)
			fmt.Println("free on rank 1:", free, err)
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		return pool.Free()
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// acquired 1:0x40
	// hello, block
	// second release: true
	// free on rank 1: 4 <nil>
}
