package olap

import (
	"fmt"
	"math"

	"github.com/gdi-go/gdi/rma"
)

// word is the element type of exchanged values.
type word interface{ ~int64 | ~uint64 | ~float64 }

func toWord[T word](x T) uint64 {
	switch v := any(x).(type) {
	case float64:
		return math.Float64bits(v)
	case int64:
		return uint64(v)
	case uint64:
		return v
	}
	panic("unreachable")
}

func fromWord[T word](w uint64) T {
	var zero T
	switch any(zero).(type) {
	case float64:
		return any(math.Float64frombits(w)).(T)
	case int64:
		return any(int64(w)).(T)
	}
	return any(w).(T)
}

// Exchange fills the ghost part of vals (len NumSlots) with the values the
// owners hold in their local part: one Alltoallv in which every rank sends
// each other rank one batch with the values of the vertices that rank holds
// as ghosts. It is collective.
func Exchange[T word](g *Graph, vals []T) error { return exchangeRows(g, vals, 1) }

// exchangeRows is Exchange of a row of width values per slot: slot s
// holds vals[s*width : (s+1)*width].
func exchangeRows[T word](g *Graph, vals []T, width int) error {
	if len(vals) != width*g.NumSlots() {
		return fmt.Errorf("olap: Exchange of %d values on %d slots of %d", len(vals), g.NumSlots(), width)
	}
	p := g.comm.Size()
	send := make([][]byte, p)
	for r, idx := range g.sendIdx {
		b := make([]byte, 0, 8*width*len(idx))
		for _, i := range idx {
			for _, x := range vals[int(i)*width : (int(i)+1)*width] {
				b = appendU64(b, toWord(x))
			}
		}
		send[r] = b
	}
	got, err := g.comm.Alltoallv(send)
	if err != nil {
		return err
	}
	for r := 0; r < p; r++ {
		lo, hi := g.ghostOff[r], g.ghostOff[r+1]
		b := got[r]
		if len(b) != 8*width*(hi-lo) {
			return fmt.Errorf("olap: rank %d sent %d bytes for %d ghosts", r, len(b), hi-lo)
		}
		for j := range vals[(g.NumLocal+lo)*width : (g.NumLocal+hi)*width] {
			vals[(g.NumLocal+lo)*width+j] = fromWord[T](u64(b))
			b = b[8:]
		}
	}
	return nil
}

// batches collects updates (local index at the destination, value) per
// destination rank, to be delivered in one Alltoallv.
type batches[T word] struct {
	g   *Graph
	buf [][]byte
}

func newBatches[T word](g *Graph) *batches[T] {
	return &batches[T]{g: g, buf: make([][]byte, g.comm.Size())}
}

// add queues value x for the vertex in ghost slot s.
func (b *batches[T]) add(s int32, x T) {
	r, idx := b.g.Owner(b.g.GID[s])
	b.buf[r] = appendU64(b.buf[r], uint64(idx), toWord(x))
}

// deliver sends the batches and calls apply for every update this rank
// receives, in rank order. It is collective and empties the batches.
func (b *batches[T]) deliver(apply func(i int, x T)) error {
	got, err := b.g.comm.Alltoallv(b.buf)
	if err != nil {
		return err
	}
	for r := range b.buf {
		b.buf[r] = b.buf[r][:0]
	}
	for r, m := range got {
		if len(m)%16 != 0 {
			return fmt.Errorf("olap: rank %d sent a batch of %d bytes", r, len(m))
		}
		for ; len(m) > 0; m = m[16:] {
			i := int(u64(m))
			if i < 0 || i >= b.g.NumLocal {
				return fmt.Errorf("olap: rank %d sent an update for local vertex %d of %d", r, i, b.g.NumLocal)
			}
			apply(i, fromWord[T](u64(m[8:])))
		}
	}
	return nil
}

// sumInt64 is the sum of x over all ranks.
func sumInt64(g *Graph, x int64) (int64, error) { return sumOver(g.comm, x) }

// sumOver is the sum of x over all ranks of comm.
func sumOver(comm rma.Comm, x int64) (int64, error) {
	buf := []int64{x}
	err := comm.AllreduceInt64(buf, rma.OpSum)
	return buf[0], err
}
