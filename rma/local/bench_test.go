package local_test

import (
	"testing"

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
