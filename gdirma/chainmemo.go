package gdirma

import (
	"slices"
	"sort"
	"sync"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
)

// The chain memo. A sparse drop (sparsedrop.go) needs the blocks of a
// long vertex, and learning them walks the chain: one dependent read a
// block, most of the cost of deleting a vertex whose neighbours are hubs.
// The same hubs are neighbours of many vertices, and their chains change
// seldom (a block is added after dozens of references), so each rank
// remembers the chains it walked: their blocks, and the fence and first
// entry number of each block as last seen.
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
// together (about 18 bytes each).
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
	// rising lists blocks whose first entries are known and rise along
	// the chain, for guess to halve.
	rising []int32
}

// newKnownChain returns what the memo keeps of chain, whose blocks start
// with the entries firsts (which it keeps).
func newKnownChain(chain []bgdl.DPtr, firsts []layout.Number) *knownChain {
	k := &knownChain{chain: slices.Clone(chain), firsts: firsts}
	var top layout.Number
	for i, f := range firsts {
		if f > top {
			k.rising, top = append(k.rising, int32(i)), f
		}
	}
	return k
}

// guess returns the index of the block the entry numbered e is guessed
// to start in: the last whose first entry is known to be at most e, 0 if
// none.
func (k *knownChain) guess(e layout.Number) int {
	j := sort.Search(len(k.rising), func(j int) bool { return k.firsts[k.rising[j]] > e })
	if j == 0 {
		return 0
	}
	return int(k.rising[j-1])
}

// recall copies what the memo has of vertex p into d's chain and
// guesses, and reports whether it had anything.
func (m *chainMemo) recall(p bgdl.DPtr, d *dropReader) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := m.chains[p]
	if k == nil {
		return false
	}
	d.chain = append(d.chain[:0], k.chain...)
	d.guesses, d.known = append(d.guesses[:0], k.firsts...), k
	return true
}

// guess returns the block of vertex p where the memo guesses the entry
// numbered e starts, and its index in the chain: the last whose first
// entry is at most e. ok is false if the memo has no such block.
func (m *chainMemo) guess(p bgdl.DPtr, e layout.Number) (at bgdl.DPtr, i int, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := m.chains[p]
	if k == nil {
		return 0, 0, false
	}
	if i = k.guess(e); i == 0 {
		return 0, 0, false
	}
	return k.chain[i], i, true
}

// knows reports whether the memo has a chain of vertex p: p was long
// when last seen.
func (m *chainMemo) knows(p bgdl.DPtr) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.chains[p] != nil
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
