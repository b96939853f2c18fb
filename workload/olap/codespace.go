package olap

import (
	"fmt"
	"math"
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// codeSpace lays the keys of all ranks (gdi.KeyedAdjacencyScanner) end to
// end: key k of rank r is code base[r]+k. Each rank's range is a whole
// number of 64-bit words, so that a bitmap over codes is the ranks' words
// laid end to end, and gathering one (gather) is an Allgatherv of every
// rank's own words. Codes fit in 32 bits.
type codeSpace struct {
	base []uint64 // by rank: its first code; base[Size()] is the number of codes
}

// newCodeSpace lays out the keys of the ranks of ks.
func newCodeSpace(ks gdi.KeyedAdjacencyScanner, ranks int) (codeSpace, error) {
	cs := codeSpace{base: make([]uint64, ranks+1)}
	for r := range ranks {
		l, err := ks.KeyLimit(r)
		if err != nil {
			return cs, err
		}
		cs.base[r+1] = cs.base[r] + (l+63)/64*64
	}
	if n := cs.base[ranks]; n > math.MaxUint32 {
		return cs, fmt.Errorf("olap: the ranks have %d keys, past 32 bits", n)
	}
	return cs, nil
}

// size is the number of codes; keys(r) the number of rank r's.
func (cs codeSpace) size() uint64      { return cs.base[len(cs.base)-1] }
func (cs codeSpace) keys(r int) uint64 { return cs.base[r+1] - cs.base[r] }

// noLocal returns an array by key of rank r for the local index of each
// key's vertex, -1 (none) in every entry so far.
func (cs codeSpace) noLocal(r int) []int32 {
	localOf := make([]int32, cs.keys(r))
	for k := range localOf {
		localOf[k] = -1
	}
	return localOf
}

// code is the code of key on rank home; ok is false if there is none.
func (cs codeSpace) code(home int, key uint64) (c uint32, ok bool) {
	if home < 0 || home+1 >= len(cs.base) || key >= cs.keys(home) {
		return 0, false
	}
	return uint32(cs.base[home] + key), true
}

// home returns the rank and the key of code c.
func (cs codeSpace) home(c uint32) (rank int, key uint64) {
	r, _ := slices.BinarySearch(cs.base, uint64(c)+1)
	return r - 1, uint64(c) - cs.base[r-1]
}

// edgeEnd returns the code of the other end of e, or an error if it names
// no key of the ranks.
func (cs codeSpace) edgeEnd(e gdi.KeyedEdge) (uint32, error) {
	c, ok := cs.code(e.Home, e.Key)
	if !ok {
		return 0, fmt.Errorf("olap: an edge end on rank %d has key %d, past the limit", e.Home, e.Key)
	}
	return c, nil
}

// gather returns the bitmap over all codes whose words of this rank's
// range are mine (by key of this rank). It is collective.
func (cs codeSpace) gather(comm rma.Comm, mine []uint64) ([]uint64, error) {
	all, err := comm.Allgatherv(appendU64(make([]byte, 0, 8*len(mine)), mine...))
	if err != nil {
		return nil, err
	}
	bm := make([]uint64, 0, cs.size()/64)
	for _, b := range all {
		for ; len(b) >= 8; b = b[8:] {
			bm = append(bm, u64(b))
		}
	}
	if uint64(len(bm)) != cs.size()/64 {
		return nil, fmt.Errorf("olap: gathered bitmaps of %d words, want %d", len(bm), cs.size()/64)
	}
	return bm, nil
}

// has reports whether bitmap bm has code c; set sets it.
func has(bm []uint64, c uint32) bool { return bm[c/64]&(1<<(c%64)) != 0 }
func set(bm []uint64, c uint32)      { bm[c/64] |= 1 << (c % 64) }
