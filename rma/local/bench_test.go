package local_test

import (
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
	"github.com/gdi-go/gdi/rma/rmatest"
)

func benchWindow(b *testing.B, name string) {
	op, ok := rmatest.WindowOpByName(name)
	if !ok {
		b.Fatalf("no window benchmark %q", name)
	}
	rmatest.RanksSubBenchmarks(b, func(b *testing.B, n int) {
		rmatest.BenchWindow(b, local.Run, n, true, op)
	})
}

func BenchmarkWindowGet8(b *testing.B)     { benchWindow(b, "WindowGet8") }
func BenchmarkWindowGetBlock(b *testing.B) { benchWindow(b, "WindowGetBlock") }
func BenchmarkWindowPut8(b *testing.B)     { benchWindow(b, "WindowPut8") }
func BenchmarkWindowCAS(b *testing.B)      { benchWindow(b, "WindowCAS") }
func BenchmarkWindowFAA(b *testing.B)      { benchWindow(b, "WindowFAA") }

// BenchmarkPutBlockSpread puts 256-byte blocks all over a 256 MiB window,
// as a bulk load or a commit writes holder images: most blocks miss the
// caches.
func BenchmarkPutBlockSpread(b *testing.B) {
	const size, block = 256 << 20, 256
	err := local.Run(1, func(c rma.Comm) error {
		w, err := c.NewWindow(size)
		if err != nil {
			return err
		}
		defer w.Free()
		buf := make([]byte, block)
		b.SetBytes(block)
		b.ResetTimer()
		for i := range b.N {
			off := (i * 7919 * block) % size
			if err := w.Put(buf, 0, off); err != nil {
				return err
			}
		}
		b.StopTimer()
		return w.Flush(0)
	})
	if err != nil {
		b.Fatal(err)
	}
}
