package gdirma

import (
	"slices"
	"sync"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// The chain memo. A sparse drop (sparsedrop.go) needs the blocks of a
// long vertex, and learning them walks the chain: one dependent read a
// block, most of the cost of deleting a vertex whose neighbours are hubs.
// The same hubs are neighbours of many vertices, and their chains change
// seldom (a block is added after dozens of references), so each rank
// remembers the chains it walked: their blocks, and the number of the
// first entry of each block as last seen.
//
// What the memo says is a guess, checked before it is used:
//
//   - the blocks, by the chain sum of the vertex's primary block
//     (store.ChainSum), which the drop reads anyway; a chain that grew is
//     walked on from the last block remembered and summed again;
//   - the first entry of a block, by reading the block, which the drop
//     reads anyway to patch it: a block whose first entry turns out past
//     the reference is not used, and the blocks are searched by halving
//     instead.
//
// So the memo never needs to be told of a change; a stale entry costs
// the walk it would have saved, and is replaced.

// maxMemoBlocks bounds the blocks the memo of a rank lists, all chains
// together (at most 28 bytes each: a DPtr, a first entry, and its place
// among the rising ones).
const maxMemoBlocks = 1 << 18

// chainMemo is a rank's memo of chains. Its goroutines share it.
type chainMemo struct {
	mu     sync.Mutex
	chains map[bgdl.DPtr]*knownChain
	blocks int // listed by all chains
}

// knownChain is what the memo keeps of a vertex: its blocks, primary
// first, and the first entry number of each block (0 for the primary
// block, and where unknown).
type knownChain struct {
	chain  []bgdl.DPtr
	firsts []layout.Number
	// risingAt lists blocks whose first entries are known and rise along
	// the chain, and rising those entries, for guess to halve.
	risingAt []int32
	rising   []layout.Number
	sum      uint32 // of chain (store.ChainSum)
}

// newKnownChain returns what the memo keeps of chain, whose blocks start
// with the entries firsts (which it keeps).
func newKnownChain(chain []bgdl.DPtr, firsts []layout.Number) *knownChain {
	k := &knownChain{chain: slices.Clone(chain), firsts: firsts, sum: store.ChainSum(chain)}
	var top layout.Number
	for i, f := range firsts {
		if f > top {
			k.risingAt, k.rising, top = append(k.risingAt, int32(i)), append(k.rising, f), f
		}
	}
	return k
}

// guess returns the index of the block the entry numbered e is guessed
// to start in: the last whose first entry is known to be at most e, 0 if
// none.
func (k *knownChain) guess(e layout.Number) int {
	j, found := slices.BinarySearch(k.rising, e)
	if found {
		return int(k.risingAt[j])
	}
	if j == 0 {
		return 0
	}
	return int(k.risingAt[j-1])
}

// get returns what the memo has of vertex p, nil if nothing. A
// knownChain is not changed once kept: the caller may use it without the
// memo's lock.
func (m *chainMemo) get(p bgdl.DPtr) *knownChain {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.chains[p]
}

// remember keeps the chain of vertex p as far as d knows it, from the
// primary block on. A full memo forgets chains, any, until this one fits.
func (m *chainMemo) remember(p bgdl.DPtr, d *dropReader) {
	firsts := make([]layout.Number, len(d.chain))
	for i := range firsts {
		firsts[i] = d.firstOf(i)
	}
	k := newKnownChain(d.chain, firsts)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.chains == nil {
		m.chains = map[bgdl.DPtr]*knownChain{}
	}
	if old := m.chains[p]; old != nil {
		m.blocks -= len(old.chain)
		delete(m.chains, p)
	}
	for q, old := range m.chains {
		if m.blocks+len(k.chain) <= maxMemoBlocks {
			break
		}
		m.blocks -= len(old.chain)
		delete(m.chains, q)
	}
	if len(k.chain) <= maxMemoBlocks {
		m.chains[p] = k
		m.blocks += len(k.chain)
	}
}
