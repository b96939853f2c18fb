package gdirma

import (
	"errors"

	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
	"github.com/gdi-go/gdi/index"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/txn"
)

// graph is one rank's handle on the committed graph of a database: the
// holders in the blocks of its store, decoded into records as
// transactions read them, the explicit indexes beside them, and the hook
// that makes commits durable. The blocks, lock words and implicit index
// themselves are the store's (package store).
type graph struct {
	*store.Store
	comm rma.Comm

	// held, if set, names the holders whose lock words the caller holds
	// (during a commit, on the commit's own copy of the graph): reads
	// of them are not checked against the lock word.
	held *txn.LockSet

	// redo, if set, makes commits durable: see redoHook.
	redo redoHook

	loaded *loadedPool
	chains *chainMemo // of the hubs this rank dropped references from

	forest *index.Forest // entries of explicit indexes (index.go)
	idx    *indexTrees

	// labelName names a label number in messages (Database.labelText).
	labelName func(n uint32) string
}

func newGraph(comm rma.Comm, p Params, tag uint16, labelName func(uint32) string) (*graph, error) {
	s, err := store.New(comm, store.Config{Tag: tag, BlockSize: p.BlockSize, Blocks: p.MemoryPerRank / p.BlockSize,
		DHTBuckets: p.DHTBuckets, DHTEntries: p.DHTEntries, MaxIDKey: idKeyLen})
	if err != nil {
		return nil, err
	}
	st := &graph{Store: s, comm: comm, loaded: new(loadedPool), chains: new(chainMemo), labelName: labelName}
	st.forest, err = index.NewForest(comm, index.Config{NodeSize: indexNodeSize, Nodes: p.IndexMemoryPerRank / indexNodeSize, MaxKey: indexMaxKey})
	if err != nil {
		return nil, errors.Join(err, s.Free())
	}
	st.idx = &indexTrees{defs: map[uint32]*treeDef{}}
	return st, nil
}

// holding makes *dst the graph as a commit that holds the lock words of
// ls sees it: its reads of those holders are not checked against their
// lock words (which the commit itself holds). dst shares everything else.
func (st *graph) holding(dst *graph, ls *txn.LockSet) {
	*dst = *st
	dst.held = ls
}

// free releases the windows (collective).
func (st *graph) free() error {
	return errors.Join(st.forest.Free(), st.Store.Free())
}

// internal wraps a failure of the RMA layer.
func internal(err error) error { return store.Internal(err) }

// heldWord returns the word the lock of holder n was taken from, if the
// graph's caller holds it for writing (txn.LockSet.Took).
func (st *graph) heldWord(n layout.Number) (uint64, bool) {
	if st.held == nil {
		return 0, false
	}
	return st.held.Took(uint64(n))
}

// read reads holder n as rq says, with the graph's held lock words.
func (st *graph) read(n layout.Number, rq *store.Request, img *store.Image) (bool, error) {
	rq.Held = st.held
	return st.Read(n.Holder(), rq, img)
}

// newNumber creates the primary block of a new holder on rank home (or
// the next rank with a free block): its DPtr is the holder's number.
func (st *graph) newNumber(home int) (layout.Number, error) {
	p, err := st.Acquire(home)
	return layout.NumberOf(p), err
}

// number decodes a UID of this database into the number of the holder it
// names.
func (st *graph) number(u uint64, k kind) (layout.Number, error) {
	p, err := st.Holder(u, k)
	return layout.NumberOf(p), err
}
