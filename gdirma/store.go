package gdirma

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/index"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/txn"
)

// Block layout. Every block of a holder starts with a marker word and the
// DPtr of the next block of the holder (Null ends the chain). The primary
// block adds the version of the committed holder and the length of its
// byte image. The marker of a continuation block ends with its fence (16
// bits, see fences.go).
const (
	markerPrimary = uint64(0x4744495052494d00)  // "GDIPRIM\x00" | kind
	markerCont    = uint64(0x47444943_4f4e0000) // "GDICON" | fence
	primaryHeader = 32
	contHeader    = 16
	// prefixLead is how much of a primary block a prefix read gets first.
	prefixLead = 128
)

// Control window words of each rank: word 0 is the highest block number
// handed out on the rank (scans stop there); word 1 counts the commits
// made by the rank. A version is a rank's commit count and the rank
// (nextVersion), so versions are unique without a shared counter, and the
// sum of the counts (commits) moves with every commit anywhere. Word 2 of
// rank 0 is the scan gate: a lock word that writing commits which must
// rescan many holders take for writing, one at a time (see commit).
// Word 3 of rank 0 is the last sequence number of the redo log (redolog.go).
const (
	ctlHighWater = 0
	ctlCommits   = 8
	ctlScanGate  = 16
	ctlLogSeq    = 24
	ctlSize      = 32
)

// holderVersion is the version of a committed holder image, drawn by
// the commit that wrote it from its rank's commit counter: count<<16 |
// rank, unique among all versions ever written, never 0. 0 stands for no
// committed image (a holder created by the transaction).
type holderVersion uint64

// nextVersion draws a version from the calling rank's commit counter.
func (st *store) nextVersion() (holderVersion, error) {
	c, err := st.ctl.FetchAndAdd(st.rank, ctlCommits, 1)
	if err != nil {
		return 0, internal(err)
	}
	return holderVersion((c+1)<<16 | uint64(st.rank)), nil
}

// commits returns the number of commits made so far on all ranks. It is
// unchanged between two calls only if no rank committed in between.
func (st *store) commits() (uint64, error) {
	var sum uint64
	for r := range st.size {
		c, err := st.ctl.AtomicGet(r, ctlCommits)
		if err != nil {
			return 0, internal(err)
		}
		sum += c
	}
	return sum, nil
}

// stamp reads what validation needs of holder n without locking it: its
// kind (ok is false if n is no primary block), its version, and whether
// another transaction holds its lock for writing (about to change it).
func (st *store) stamp(n uint64) (k kind, version holderVersion, ok, writeLocked bool, err error) {
	if !st.valid(n) {
		return 0, 0, false, false, nil
	}
	p := bgdl.DPtr(n)
	if st.held == nil || !st.held.Holds(n) {
		a := st.lockAddr(n)
		w, err := st.locks.AtomicGet(a.Rank, a.Off)
		if err != nil {
			return 0, 0, false, false, internal(err)
		}
		writeLocked = w&txn.Writer != 0
	}
	marker, err := st.data.AtomicGet(p.Rank(), p.Offset())
	if err != nil {
		return 0, 0, false, false, internal(err)
	}
	if marker&^0xff != markerPrimary {
		return 0, 0, false, writeLocked, nil
	}
	v, err := st.data.AtomicGet(p.Rank(), p.Offset()+16)
	if err != nil {
		return 0, 0, false, false, internal(err)
	}
	return kind(marker & 0xff), holderVersion(v), true, writeLocked, nil
}

// store is one rank's handle on the graph data of a database. It holds no
// graph data itself: holders live in the blocks of pool, the implicit index
// in the DHT ids, and the counters in ctl. All of them are RMA windows, so
// every rank reaches all data only with one-sided operations.
type store struct {
	tag  uint16 // database tag, part of every UID
	comm rma.Comm
	rank int
	size int

	pool  *bgdl.Pool
	data  rma.Window
	locks rma.Window
	ctl   rma.Window
	ids   *dht.Table
	bs    int
	pf    rma.Prefetcher // data's, if it has the capability

	// held, if set, names the objects whose lock words the caller holds
	// (during a commit): reads of them are not checked against the lock
	// word.
	held interface{ Holds(n uint64) bool }

	// redo, if set, makes commits durable: see redoHook.
	redo redoHook

	bufs   *sync.Pool // of *[]byte, one block each
	images *imagePool
	loaded *loadedPool

	forest *index.Forest // entries of explicit indexes (index.go)
	idx    *indexTrees
}

func newStore(comm rma.Comm, p Params, tag uint16) (*store, error) {
	st := &store{tag: tag, comm: comm, rank: comm.Rank(), size: comm.Size(), bs: p.BlockSize, bufs: &sync.Pool{}, images: new(imagePool), loaded: new(loadedPool)}
	var err error
	st.pool, err = bgdl.NewPool(comm, bgdl.Config{BlockSize: p.BlockSize, Blocks: p.MemoryPerRank / p.BlockSize})
	if err != nil {
		return nil, err
	}
	st.data, st.locks = st.pool.Data(), st.pool.Locks()
	st.pf, _ = st.data.(rma.Prefetcher)
	if st.ctl, err = comm.NewWindow(ctlSize); err != nil {
		return nil, errors.Join(err, st.pool.Free())
	}
	if st.ids, err = dht.New(comm, dht.Config{Buckets: p.DHTBuckets, Entries: p.DHTEntries, MaxKey: idKeyLen}); err != nil {
		return nil, errors.Join(err, st.pool.Free(), st.ctl.Free())
	}
	st.forest, err = index.NewForest(comm, index.Config{NodeSize: indexNodeSize, Nodes: p.IndexMemoryPerRank / indexNodeSize, MaxKey: indexMaxKey})
	if err != nil {
		return nil, errors.Join(err, st.pool.Free(), st.ctl.Free(), st.ids.Free())
	}
	st.idx = &indexTrees{defs: map[uint32]*treeDef{}}
	return st, nil
}

// free releases the windows (collective).
func (st *store) free() error {
	return errors.Join(st.forest.Free(), st.ids.Free(), st.ctl.Free(), st.pool.Free())
}

// internal wraps a failure of the RMA layer.
func internal(err error) error {
	if err == nil { // inlined: most calls pass nil
		return nil
	}
	return internalErr(err)
}

func internalErr(err error) error {
	if errors.Is(err, bgdl.ErrExhausted) || errors.Is(err, dht.ErrFull) {
		return gdi.Errorf(gdi.ErrNoMemory, "gdirma: %v", err)
	}
	return gdi.Errorf(gdi.ErrIntern, "gdirma: %v", err)
}

// blockIndex returns the block number of DPtr n.
func (st *store) blockIndex(n uint64) int { return bgdl.DPtr(n).Offset() / st.bs }

// valid reports whether n names a block of the pool.
func (st *store) valid(n uint64) bool { return st.pool.Valid(bgdl.DPtr(n)) }

func (st *store) lockAddr(n uint64) txn.Addr {
	off, _ := st.pool.LockOffset(bgdl.DPtr(n))
	return txn.Addr{Rank: bgdl.DPtr(n).Rank(), Off: off}
}

// acquire takes a block, from rank target if it has one, else from the
// other ranks in turn. Its marker word is cleared.
func (st *store) acquire(target int) (uint64, error) {
	for i := range st.size {
		r := (target + i) % st.size
		p, err := st.pool.Acquire(r)
		if errors.Is(err, bgdl.ErrExhausted) {
			continue
		}
		if err != nil {
			return 0, internal(err)
		}
		if err := st.data.AtomicPut(r, p.Offset(), 0); err != nil {
			return 0, internal(err)
		}
		b := uint64(p.Offset() / st.bs)
		for {
			hw, err := st.ctl.AtomicGet(r, ctlHighWater)
			if err != nil {
				return 0, internal(err)
			}
			if hw >= b {
				break
			}
			if prev, err := st.ctl.CompareAndSwap(r, ctlHighWater, hw, b); err != nil {
				return 0, internal(err)
			} else if prev == hw {
				break
			}
		}
		return uint64(p), nil
	}
	return 0, gdi.Errorf(gdi.ErrNoMemory, "gdirma: no free block on any rank (%d blocks of %d bytes per rank)", st.pool.Blocks(), st.bs)
}

// release clears the marker of block n and gives it back to the pool.
func (st *store) release(n uint64) error {
	p := bgdl.DPtr(n)
	if err := st.data.AtomicPut(p.Rank(), p.Offset(), 0); err != nil {
		return internal(err)
	}
	return internal(st.pool.Release(p))
}

// newNumber creates the primary block of a new object on rank home; its
// DPtr is the object's number.
func (st *store) newNumber(home int) (uint64, error) { return st.acquire(home) }

// get reads len(buf) bytes of block n at offset off.
func (st *store) get(buf []byte, n uint64, off int) error {
	p := bgdl.DPtr(n)
	if err := st.data.Get(buf, p.Rank(), p.Offset()+off); err != nil {
		return internal(err)
	}
	return internal(st.data.Flush(p.Rank()))
}

func (st *store) put(buf []byte, n uint64, off int) error {
	p := bgdl.DPtr(n)
	if err := st.data.Put(buf, p.Rank(), p.Offset()+off); err != nil {
		return internal(err)
	}
	return internal(st.data.Flush(p.Rank()))
}

// prefetch starts loading the first k bytes of block n into the cache,
// where the data window can (rma.Prefetcher), and returns at once: a read
// of them a little later then need not wait for memory.
func (st *store) prefetch(n uint64, k int) {
	if st.pf != nil && st.valid(n) {
		p := bgdl.DPtr(n)
		st.pf.Prefetch(p.Rank(), p.Offset(), k)
	}
}

// errBusy is the transaction-critical error of a lock that is held.
func errBusy(n uint64) error {
	return gdi.Errorf(gdi.ErrTransactionCritical, "gdirma: holder %v is locked by another transaction", bgdl.DPtr(n))
}

// blocksFor is the number of blocks an image of length l needs.
func (st *store) blocksFor(l int) int {
	if l <= st.bs-primaryHeader {
		return 1
	}
	c := st.bs - contHeader
	return 1 + (l-(st.bs-primaryHeader)+c-1)/c
}

// writeImage writes img over the blocks chain (primary first): the
// continuation blocks first, the primary block last. Continuation blocks
// that dirty says are unchanged are left as they are. fences, if set, are
// those of the blocks, else they are found.
func (st *store) writeImage(k kind, version holderVersion, chain []uint64, img imageParts, dirty dirtySpan, fences []uint16) error {
	bp := st.blockBuf()
	defer st.putBlockBuf(bp)
	size := img.len()
	first := min(size, st.bs-primaryHeader)
	c := st.bs - contHeader
	next := func(i int) uint64 { // the block after chain[i], or 0
		if i+1 < len(chain) {
			return chain[i+1]
		}
		return 0
	}
	fw := walkFences(img, st.codec(chain[0]), len(chain))
	for i, off := 1, first; i < len(chain); i, off = i+1, off+c {
		var fence uint16
		if len(fences) == len(chain)-1 {
			fence = fences[i-1]
		} else {
			fence = fw.next(off, c)
		}
		if !dirty.covers(off, off+c) {
			continue
		}
		blk := (*bp)[:contHeader+min(max(size-off, 0), c)]
		binary.LittleEndian.PutUint64(blk, markerCont|uint64(fence))
		binary.LittleEndian.PutUint64(blk[8:], next(i))
		img.copyAt(blk[contHeader:], off)
		if err := st.put(blk, chain[i], 0); err != nil {
			return err
		}
	}
	blk := (*bp)[:primaryHeader+first]
	binary.LittleEndian.PutUint64(blk, markerPrimary|uint64(k))
	binary.LittleEndian.PutUint64(blk[8:], next(0))
	binary.LittleEndian.PutUint64(blk[16:], uint64(version))
	binary.LittleEndian.PutUint64(blk[24:], uint64(size))
	img.copyAt(blk[primaryHeader:], 0)
	return st.put(blk, chain[0], 0)
}

// UIDs carry the database tag (16 bits), the rank (16 bits) and the block
// number (32 bits) of the primary block.
func (st *store) uid(n uint64) uint64 {
	// The rank and the block index of DPtr n, written out so that
	// Transaction.edgeUID stays small enough to inline.
	return uint64(st.tag)<<48 | n>>48<<32 | n&(1<<48-1)/uint64(st.bs)
}

// number decodes a UID of this database.
func (st *store) number(u uint64, k kind) (uint64, error) {
	switch {
	case u == 0:
		return 0, gdi.Errorf(gdi.ErrUID, "zero %v UID", k)
	case uint16(u>>48) != st.tag:
		return 0, gdi.Errorf(gdi.ErrObjectMismatch, "%v UID %#x of another database", k, u)
	}
	rank, b := int(u>>32&0xffff), int(u&0xffffffff)
	if rank >= st.size || b < 1 || b > st.pool.Blocks() {
		return 0, gdi.Errorf(gdi.ErrUID, "%v UID %#x names no block", k, u)
	}
	return uint64(rank)<<48 | uint64(b*st.bs), nil
}

var _ = fmt.Sprintf
