package local_test

import (
	"math/rand/v2"
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

// BenchmarkRandomBlocks reads the first word of 256-byte blocks at random
// all over a 256 MiB window, which the caches cannot hold: what a read of
// a holder's block costs when it misses, one block per op. It tells how
// much overlapping misses can save on this machine:
//
//   - dependent: each block names the next, so every read waits for the
//     one before (a chain of continuation blocks);
//   - independent: the blocks of a batch of 16 are known up front and read
//     one after the other, which the CPU may overlap;
//   - prefetched: the batch is prefetched (rma.Prefetcher) whole first.
func BenchmarkRandomBlocks(b *testing.B) {
	const size, block, batch = 256 << 20, 256, 16
	const blocks = size / block
	rng := rand.New(rand.NewPCG(1, 2))
	order := rng.Perm(blocks)
	modes := []string{"dependent", "independent", "prefetched"}
	err := local.Run(1, func(c rma.Comm) error {
		w, err := c.NewWindow(size)
		if err != nil {
			return err
		}
		defer w.Free()
		// Block order[i] names block order[i+1]: one cycle through all.
		for i, k := range order {
			next := order[(i+1)%blocks]
			if err := w.AtomicPut(0, k*block, uint64(next*block)); err != nil {
				return err
			}
		}
		pf := w.(rma.Prefetcher)
		for _, mode := range modes {
			b.Run(mode, func(b *testing.B) {
				var sum uint64
				off := uint64(order[0] * block)
				for i := 0; i < b.N; i += batch {
					n := min(batch, b.N-i)
					switch mode {
					case "dependent":
						for range n {
							off, _ = w.AtomicGet(0, int(off))
						}
					default:
						offs := order[i%(blocks-batch):][:n]
						if mode == "prefetched" {
							for _, k := range offs {
								pf.Prefetch(0, k*block, block)
							}
						}
						for _, k := range offs {
							v, _ := w.AtomicGet(0, k*block)
							sum += v
						}
					}
				}
				if sum == 1 && off == 1 { // keep the reads
					b.Log(sum, off)
				}
			})
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkOwnCounter has every rank add to its own word of an 8-byte
// window, as gdirma's commits count themselves: the ranks' parts of such a
// window must not share a cache line, or each add waits for the line to
// come back from another core.
func BenchmarkOwnCounter(b *testing.B) {
	rmatest.RanksSubBenchmarks(b, func(b *testing.B, n int) {
		err := local.Run(n, func(c rma.Comm) error {
			w, err := c.NewWindow(8)
			if err != nil {
				return err
			}
			defer w.Free()
			if err := c.Barrier(); err != nil {
				return err
			}
			if c.Rank() == 0 {
				b.ResetTimer()
			}
			for range b.N {
				if _, err := w.FetchAndAdd(c.Rank(), 0, 1); err != nil {
					return err
				}
			}
			return c.Barrier()
		})
		if err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkRankCompute has every rank run a loop bound by the throughput
// of the CPU's integer units, touching no memory: eight independent
// chains of adds and xors per iteration, one iteration per op. It is the
// yardstick for any ranks=2 figure of this module. Where each rank has a
// core of its own, ns/op stays as at ranks=1; where two ranks are
// scheduled on hardware threads of one core, they share its units and
// ns/op grows by up to 2x, and so does the time of any CPU-bound
// operation measured with as many ranks.
func BenchmarkRankCompute(b *testing.B) {
	rmatest.RanksSubBenchmarks(b, func(b *testing.B, n int) {
		sums := make([]uint64, n)
		err := local.Run(n, func(c rma.Comm) error {
			if err := c.Barrier(); err != nil {
				return err
			}
			if c.Rank() == 0 {
				b.ResetTimer()
			}
			sums[c.Rank()] = integerChains(b.N)
			return c.Barrier()
		})
		if err != nil {
			b.Fatal(err)
		}
		if sums[0] == 1 { // keep the loop
			b.Log(sums)
		}
	})
}

// integerChains runs n iterations of eight independent dependency chains.
func integerChains(n int) uint64 {
	var x0, x1, x2, x3, x4, x5, x6, x7 uint64 = 1, 2, 3, 4, 5, 6, 7, 8
	for range n {
		x0 += x0 ^ 3
		x1 += x1 ^ 5
		x2 += x2 ^ 7
		x3 += x3 ^ 11
		x4 += x4 ^ 13
		x5 += x5 ^ 17
		x6 += x6 ^ 19
		x7 += x7 ^ 23
	}
	return x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7
}
