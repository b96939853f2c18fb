package gdirma

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/index"
	"github.com/gdi-go/gdi/internal/invariants"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/txn"
)

// Holders in blocks: the layout of an image and how a transaction reads it.
//
// Every vertex, and every heavyweight edge, is a holder: a chain of bgdl
// blocks. A vertex's number — and, with the database tag, its UID — is the
// DPtr of its primary block, so UIDs are stable for the vertex's life.
// Vertex UIDs are tag (16 bits) | rank (16 bits) | block number (32 bits);
// edge UIDs are {UID of the origin, slot} (see below), or {UID of the
// holder, 0} for edges numbered by their holder.
//
// Each block begins with a marker word (primary of a vertex, primary of an
// edge, continuation with its fence) and the DPtr of the next block. The primary block
// adds the version of the committed holder and the length of its byte
// image; the image follows, continued in as many blocks as needed:
//
//	labels      count, label numbers
//	properties  count, then (property type, datatype, length, raw bytes)
//	vertex      degree, in-degree, out-degree; count of incident edges,
//	            then for each, in ascending order of edge numbers, a
//	            reference written relative to the vertex (refcodec.go):
//	            direction, which ends the vertex is, the other end,
//	            label (lightweight edges) and holder (heavyweight edges
//	            numbered after their origin), each only when needed
//	edge        direction, origin and target vertex numbers
//
// A transaction reads a vertex whose whole image fits in its primary block
// at once. Of a longer one it first reads the first 128 bytes (or the
// primary block, if it is at most 256 bytes long), and if its labels,
// properties and degrees fit there, reads the edge references only when it
// needs them (Transaction.full), and then only the bytes it has not read
// yet, if the holder's lock word says that no writer came in between
// (restHint). If they go on past the primary block, it reads on block by
// block until they end when the image is longer than minFenced blocks (a
// hub with long properties), and whole otherwise (Transaction.spanning).
// A vertex needed whole from the start (an end of an edge
// being changed) is read whole at once (Transaction.getWhole). Where the
// data window can prefetch (rma.Prefetcher: rma/local, and rma/mpi on
// one node), a read asks for the primary block before it reads the lock
// word (another window), a prefix read of an image that goes on asks for
// its next block at once, and deleting a vertex asks for the primary blocks of
// all its neighbours before it reads any, so that their misses overlap
// instead of following one another. Images of 256 bytes or more are read into
// buffers the transaction gives back when it ends (imagepool.go), and so
// are the copies of what it read, with the committed record of a vertex
// read whole (objpool.go): holders are kept apart from the
// copies, and results are copied out of them, so that nothing handed to
// the caller sees a copy reused by a later transaction. The labels and
// properties of a holder read whole stay encoded until used
// (lazyhead.go): an edge query, or a neighbour a delete changes, never
// decodes them. References stay
// undecoded bytes until used: edge queries in a transaction that changed
// no edge read them in place (vertexHolder.quickEdges, and allEdges
// without a constraint), and finding or
// changing one reference walks only the sizes of the others
// (record.rawFind); once a copy has references of its own, further
// changes are made in place. A commit writes the references of a changed
// vertex from its copy as they are.
// A reference removed from a long image is overwritten by a tombstone of
// its size rather than cut out (refcodec.go), so the image keeps its
// length and the commit writes only the blocks that changed (dirty.go);
// tombstones go when the references are next spliced or re-encoded. The
// marker of each continuation block says where the first entry starting
// in it begins (its fence, fences.go), so that a search for one reference
// in a long image halves the blocks and walks only one. Deleting a vertex
// does not even read its long neighbours whole: it walks the first cache
// line of each of their blocks to find its references by the fences, and
// the commit writes the tombstones into the blocks (sparsedrop.go).
//
// Both ends of an edge keep a reference to it with its direction and ends.
// A lightweight edge (at most one label, no properties) is nothing but
// these two references, which also carry its label; it is numbered after
// its origin and a slot (see light.go). An edge that gets a property or a
// second label becomes heavyweight: it gets a holder of its own for its
// labels and properties, named in the references, and keeps its number.
// Edge and neighbour queries without a constraint, constraints on
// lightweight edges, and the degree property types are answered from the
// vertex holder alone; a heavyweight edge's holder is read only when a
// constraint needs its labels or properties. A transaction that changes
// an edge rewrites the references at both ends in the same commit, so they
// never disagree. Index queries over edges find them through the holders
// of their origins.
//
// Blocks are taken from the creating rank first and from the other ranks
// when it has none left. A rank's high-water mark of blocks handed out
// (control window) bounds the scans that index queries make.

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

// nextVersion draws a version from the calling rank's commit counter:
// unique among all versions ever written, never 0.
func (st *store) nextVersion() (uint64, error) {
	c, err := st.ctl.FetchAndAdd(st.rank, ctlCommits, 1)
	if err != nil {
		return 0, internal(err)
	}
	return (c+1)<<16 | uint64(st.rank), nil
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
func (st *store) stamp(n uint64) (k kind, version uint64, ok, writeLocked bool, err error) {
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
	if version, err = st.data.AtomicGet(p.Rank(), p.Offset()+16); err != nil {
		return 0, 0, false, false, internal(err)
	}
	return kind(marker & 0xff), version, true, writeLocked, nil
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

// image is a committed holder as read from its blocks.
type image struct {
	k       kind
	version uint64
	chain   []uint64 // the blocks, primary first (if asked for)
	bytes   []byte   // the image, or its first part (prefix reads)
	length  int      // of the whole image
	fences  []uint16 // of the continuation blocks, if read
	// single: a prefix read found the image whole in the primary block,
	// and bytes is a copy of its own (or in a buffer of the caller's, see
	// imageBuf).
	single bool
	// next is the first continuation block, and stamp, if stamped, the
	// lock word the copy was checked against (see restHint).
	next    uint64
	stamp   uint64
	stamped bool
}

// blockBuf returns a buffer of one block for a read; putBlockBuf gives it
// back.
func (st *store) blockBuf() *[]byte {
	if b, ok := st.bufs.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, st.bs)
	return &b
}

func (st *store) putBlockBuf(b *[]byte) { st.bufs.Put(b) }

// readImage reads the holder whose primary block is n, as a writer left
// it (see readImageTo). ok is false if n is no primary block.
// With prefix set it reads the primary block only: img.bytes is then the
// part of the image that block holds.
// With chain set it lists the blocks.
func (st *store) readImage(n uint64, prefix, chain bool) (img image, ok bool, err error) {
	return st.readImageTo(n, prefix, chain, nil, nil, nil)
}

// readImageTo is readImage that, if into is set, reads a long image into
// a buffer from st.images, which it appends to *into. The chain, if asked
// for, is appended to chainBuf[:0] (which may be nil). A prefix read that
// finds the image whole in its primary block copies it into small if it
// fits there.
//
// The holder is copied without taking its lock: the copy is checked
// against the lock word afterwards (txn.ReadValid), and made again if a
// writer took the word meanwhile, up to txn.Attempts times.
func (st *store) readImageTo(n uint64, prefix, chain bool, into *[]*[]byte, chainBuf []uint64, small []byte) (img image, ok bool, err error) {
	if !st.valid(n) {
		return img, false, nil
	}
	if st.held != nil && st.held.Holds(n) {
		return st.copyImage(n, prefix, chain, into, chainBuf, small)
	}
	a := st.lockAddr(n)
	// The lock word and the block are in different windows: the block
	// is on its way while the word is read.
	st.prefetch(n, min(st.bs, prefixLead))
	for range txn.Attempts {
		stamp, err := txn.ReadBegin(st.locks, a.Rank, a.Off)
		if err != nil {
			if errors.Is(err, txn.ErrBusy) {
				return image{}, false, errBusy(n)
			}
			return image{}, false, internal(err)
		}
		// What a torn copy says, errors included, counts only if the
		// copy is not torn.
		img, ok, err = st.copyImage(n, prefix, chain, into, chainBuf, small)
		valid, verr := txn.ReadValid(st.locks, a.Rank, a.Off, stamp)
		if verr == nil && valid {
			img.stamp, img.stamped = stamp, true
			return img, ok, err
		}
		if verr != nil {
			return image{}, false, internal(verr)
		}
	}
	return image{}, false, errBusy(n)
}

// copyImage is readImageTo without the check against the lock word: the
// caller holds the lock, or checks the copy afterwards.
func (st *store) copyImage(n uint64, prefix, chain bool, into *[]*[]byte, chainBuf []uint64, small []byte) (img image, ok bool, err error) {
	bp := st.blockBuf()
	blk := *bp
	defer st.putBlockBuf(bp)
	// A prefix read starts with the first cache line or two: most vertices
	// have their labels, properties and degrees there. A block of at most
	// twice that is read whole at once: a second read would cost more than
	// the bytes it saves.
	lead := st.bs
	if prefix && st.bs > 2*prefixLead {
		lead = prefixLead
	}
	if err := st.get(blk[:lead], n, 0); err != nil {
		return img, false, err
	}
	marker := binary.LittleEndian.Uint64(blk)
	if marker&^0xff != markerPrimary {
		return img, false, nil
	}
	img.k = kind(marker & 0xff)
	next := binary.LittleEndian.Uint64(blk[8:])
	img.version = binary.LittleEndian.Uint64(blk[16:])
	length := int(binary.LittleEndian.Uint64(blk[24:]))
	if length < 0 || length > st.pool.Blocks()*st.size*st.bs {
		return img, false, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v has a corrupt length %d", bgdl.DPtr(n), length)
	}
	img.length = length
	first := min(length, st.bs-primaryHeader)
	img.next = next
	if prefix && length > first {
		// The rest is often read next (Transaction.full): its first
		// block is on its way meanwhile.
		st.prefetch(next, min(st.bs, length-first+contHeader))
	}
	if prefix {
		// An image that fits in the primary block is read whole: a
		// second read for the edge references would cost more than the
		// rest of the block. A longer one is cut after the lead if that
		// holds the labels, properties and degrees.
		if end := primaryHeader + first; end > lead {
			if length > first && prefixHolds(blk[primaryHeader:lead]) {
				first = lead - primaryHeader
			} else if err := st.get(blk[lead:end], n, lead); err != nil {
				return img, false, err
			}
		}
		// The image, whole (single) or the part the primary block holds,
		// is copied out for the caller to keep, in small or an image
		// buffer, so that its labels and properties can stay encoded
		// (lazyhead.go); the block buffer goes back at once.
		img.single = first == length
		if first <= len(small) {
			img.bytes = small[:first]
		} else {
			img.bytes = st.imageBuf(first, into)
		}
		copy(img.bytes, blk[primaryHeader:])
		return img, true, nil
	}
	if chain {
		if need := st.blocksFor(length); cap(chainBuf) < need {
			chainBuf = make([]uint64, 0, need)
		}
		img.chain = append(chainBuf[:0], n)
	}
	img.bytes = st.imageBuf(length, into)
	copy(img.bytes, blk[primaryHeader:primaryHeader+first])
	if err := st.readConts(n, &img, first, chain); err != nil {
		return img, false, err
	}
	return img, true, nil
}

// readConts reads the continuation blocks of holder n, from img.next on,
// into img.bytes[have:], have being the bytes of the blocks read before
// (the primary block, and any whole continuation blocks after it); with
// chain set it appends them to img.chain. It keeps the fences of a long
// image, appended to those img has.
func (st *store) readConts(n uint64, img *image, have int, chain bool) error {
	length, next := img.length, img.next
	keepFences := st.blocksFor(length) > minFenced // see fences.go
	done := 1 + (have-min(length, st.bs-primaryHeader))/(st.bs-contHeader)
	for blocks := done; have < length; blocks++ {
		if next == 0 || !st.valid(next) || blocks > st.pool.Blocks()*st.size {
			return gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v has a broken chain", bgdl.DPtr(n))
		}
		// The block is read into its place in the image, its header
		// over the last bytes of the block before, which are put back:
		// one copy of the bytes, not two.
		dst := img.bytes[have-contHeader : have+min(st.bs-contHeader, length-have)]
		hd := (*[contHeader]byte)(dst) // contHeader is two words
		s0, s1 := binary.LittleEndian.Uint64(hd[:8]), binary.LittleEndian.Uint64(hd[8:])
		if err := st.get(dst, next, 0); err != nil {
			return err
		}
		marker := binary.LittleEndian.Uint64(hd[:8])
		after := binary.LittleEndian.Uint64(hd[8:])
		binary.LittleEndian.PutUint64(hd[:8], s0)
		binary.LittleEndian.PutUint64(hd[8:], s1)
		if marker&^0xffff != markerCont {
			return gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: block %v is no continuation", bgdl.DPtr(n), bgdl.DPtr(next))
		}
		if keepFences {
			if img.fences == nil {
				img.fences = make([]uint16, 0, st.blocksFor(length)-1)
			}
			img.fences = append(img.fences, uint16(marker))
		}
		if chain {
			img.chain = append(img.chain, next)
		}
		have += len(dst) - contHeader
		next = after
	}
	return nil
}

// load returns the committed object n of kind k, or nil if there is none.
func (st *store) load(k kind, n uint64) (*record, error) {
	r, _, err := st.loadImage(k, n, false, false)
	return r, err
}

// loadPart is load that, with prefix set, reads only the primary block of
// a vertex whose labels and properties fit in it: the record is then
// partial, without edge references (see record.partial).
func (st *store) loadPart(k kind, n uint64, prefix bool) (*record, error) {
	r, _, err := st.loadImage(k, n, prefix, false)
	return r, err
}

// loadImage is load and loadPart that can also return the blocks of the
// holder.
func (st *store) loadImage(k kind, n uint64, prefix, chain bool) (*record, []uint64, error) {
	r := new(record)
	ok, chainOut, _, err := st.loadInto(r, k, n, prefix, chain, nil, nil)
	if !ok {
		return nil, nil, err
	}
	return r, chainOut, err
}

// loadInto is loadImage decoding into r, a zero record: ok is false (and r
// unusable) if there is no such object. single is the image r was decoded
// from if a prefix read found it whole in the primary block (its only
// block), for commits that install over it (see txObj.img).
func (st *store) loadInto(r *record, k kind, n uint64, prefix, chain bool, into *[]*[]byte, small []byte) (ok bool, chainOut []uint64, single []byte, err error) {
	img, ok, err := st.readImageTo(n, prefix && k == vertexKind, chain, into, nil, small)
	if err != nil || !ok || img.k != k {
		return false, nil, nil, err
	}
	return st.decodeRead(r, k, n, &img, chain, into)
}

// restHint is what a transaction keeps of a prefix read of a vertex to
// read the rest of its image later without reading the prefix again
// (store.loadRest): valid only while the holder's lock word is the same,
// which every writer changes (it counts write locks; a count that wrapped
// around to the same value in between would take 2^31 commits of the one
// vertex).
type restHint struct {
	prefix []byte // the image bytes read
	length int    // of the whole image
	next   uint64 // the first block not read
	stamp  uint64 // the lock word the read was checked against
	// chain and fences are set if the prefix goes on past the primary
	// block (extendPrefix): the blocks it spans, primary first, and the
	// fences of those after the primary, if the image keeps fences.
	chain  []uint64
	fences []uint16
	// spans is set if the labels and properties go on past the part
	// read: the record is then empty, and version is that of the image.
	spans   bool
	version uint64
}

// loadPrefix is loadInto of a prefix of vertex n that also returns, if r
// is partial, how to read the rest (hint.prefix is nil if it cannot). If
// the labels and properties of n go on past its primary block, it reads
// on until they end if the image is long (extendPrefix), so that a hub
// with long properties is not read whole for them; otherwise, or if that
// fails, it returns the hint with spans set and r empty, for the caller
// to read the rest (loadRest) as a whole record.
func (st *store) loadPrefix(r *record, n uint64, into *[]*[]byte, small []byte) (ok bool, single []byte, hint restHint, err error) {
	img, ok, err := st.readImageTo(n, true, false, into, nil, small)
	if err != nil || !ok || img.k != vertexKind {
		return false, nil, hint, err
	}
	if len(img.bytes) == img.length || !img.stamped {
		ok, _, single, err = st.decodeRead(r, vertexKind, n, &img, false, into)
		return ok, single, hint, err
	}
	whole, err := st.decodePart(r, n, &img)
	if err != nil {
		return false, nil, hint, err
	}
	hint = restHint{prefix: img.bytes, length: img.length, next: img.next, stamp: img.stamp}
	if !whole && st.blocksFor(img.length) > minFenced {
		// A long image: read on for the head only. A short one is read
		// whole at once (Transaction.spanning), which its commit needs.
		ext, err := st.extendPrefix(n, &img, into)
		if err != nil {
			return false, nil, hint, err
		}
		if ext.prefix != nil {
			img.bytes = ext.prefix
			if whole, err = st.decodePart(r, n, &img); err != nil {
				return false, nil, hint, err
			}
			if whole {
				hint = ext
			}
		}
	}
	if !whole {
		hint.spans, hint.version = true, img.version
	}
	return true, nil, hint, nil
}

// extendPrefix reads on from a prefix read img of vertex n that holds its
// primary block whole but not all its labels, properties and degrees:
// block by block, until they are whole or the image ends. It returns the
// hint of the longer prefix, whose bytes are in a buffer from into, or a
// zero hint if a writer came in meanwhile (the lock word is checked
// again) or the blocks make no sense (the caller then reads the holder
// whole, and finds out).
func (st *store) extendPrefix(n uint64, img *image, into *[]*[]byte) (restHint, error) {
	c := st.bs - contHeader
	have := len(img.bytes)
	if have != min(img.length, st.bs-primaryHeader) {
		return restHint{}, nil // a prefix cut short, which prefixHolds would have read on
	}
	keepFences := st.blocksFor(img.length) > minFenced
	h := restHint{length: img.length, next: img.next, stamp: img.stamp, chain: []uint64{n}}
	buf := st.imageBuf(min(img.length, have+2*c), into) // room for most heads
	copy(buf, img.bytes)
	bp := st.blockBuf()
	defer st.putBlockBuf(bp)
	blk := *bp
	for !prefixHolds(buf[:have]) && have < img.length {
		next := h.next
		if next == 0 || !st.valid(next) || len(h.chain) >= st.blocksFor(img.length) {
			return restHint{}, nil
		}
		k := min(c, img.length-have)
		if err := st.get(blk[:contHeader+k], next, 0); err != nil {
			return restHint{}, err
		}
		marker := binary.LittleEndian.Uint64(blk)
		if marker&^0xffff != markerCont {
			return restHint{}, nil
		}
		if have+k > len(buf) {
			grown := st.imageBuf(min(img.length, 2*len(buf)+k), into)
			copy(grown, buf[:have])
			buf = grown
		}
		copy(buf[have:], blk[contHeader:contHeader+k])
		have += k
		h.chain = append(h.chain, next)
		if keepFences {
			h.fences = append(h.fences, uint16(marker))
		}
		h.next = binary.LittleEndian.Uint64(blk[8:])
	}
	a := st.lockAddr(n)
	if valid, err := txn.ReadValid(st.locks, a.Rank, a.Off, img.stamp); err != nil {
		return restHint{}, internal(err)
	} else if !valid {
		return restHint{}, nil
	}
	h.prefix = buf[:have]
	return h, nil
}

// loadRest is loadRefs of vertex n of the given version, read in part
// before as h says: only the rest of its image is read. ok is false if
// the holder's lock word changed since the first read (the caller reads
// it whole, and finds out what changed); the copy is then not used.
func (st *store) loadRest(n, version uint64, h *restHint, pooled *[]*[]byte, r *record, chainBuf []uint64) (c *record, chain []uint64, ok bool, err error) {
	img := image{k: vertexKind, version: version, length: h.length, next: h.next}
	img.bytes = st.imageBuf(h.length, pooled)
	have := copy(img.bytes, h.prefix)
	first := min(h.length, st.bs-primaryHeader)
	if have < first {
		err = st.get(img.bytes[have:first], n, primaryHeader+have)
		have = first
	}
	img.chain = append(chainBuf[:0], n)
	if len(h.chain) > 1 { // the prefix spans blocks (extendPrefix)
		img.chain = append(chainBuf[:0], h.chain...)
		img.fences = slices.Clone(h.fences)
	}
	if err == nil {
		err = st.readConts(n, &img, have, true)
	}
	// As in readImageTo, a torn copy's errors do not count.
	a := st.lockAddr(n)
	valid, verr := txn.ReadValid(st.locks, a.Rank, a.Off, h.stamp)
	if verr != nil {
		return nil, nil, false, internal(verr)
	}
	if !valid {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	if err := decodeImage(r, vertexKind, img.bytes, st.codec(n)); err != nil {
		return nil, nil, false, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: %v", bgdl.DPtr(n), err)
	}
	r.readFrom(&img, n)
	return r, img.chain, true, nil
}

// decodeRead is loadInto once the image is read.
func (st *store) decodeRead(r *record, k kind, n uint64, img *image, chain bool, into *[]*[]byte) (ok bool, chainOut []uint64, single []byte, err error) {
	if len(img.bytes) < img.length {
		whole, err := st.decodePart(r, n, img)
		if err == nil && !whole {
			// The properties go on in the next block: read it all.
			return st.loadInto(r, k, n, false, chain, into, nil)
		}
		return whole, img.chain, nil, err
	}
	// The image is the caller's own (not a block buffer): its labels and
	// properties are decoded when first used.
	err = decodeImage(r, k, img.bytes, st.codec(n))
	if img.single {
		single = img.bytes
	}
	if err != nil {
		return false, nil, nil, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: %v", bgdl.DPtr(n), err)
	}
	r.readFrom(img, n)
	return true, img.chain, single, nil
}

// decodePart decodes into r the first part of the image of vertex n that
// img holds (a prefix read). whole is false, and r left empty, if the
// labels and properties go on past it.
func (st *store) decodePart(r *record, n uint64, img *image) (whole bool, err error) {
	whole, err = decodePrefix(r, img.bytes, st.codec(n))
	if err != nil {
		return false, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: %v", bgdl.DPtr(n), err)
	}
	if !whole {
		*r = record{}
		return false, nil
	}
	r.readFrom(img, n)
	return true, nil
}

// readFrom gives r, decoded from img, the image of holder n, what the
// image says besides its bytes.
func (r *record) readFrom(img *image, n uint64) {
	r.version, r.home = img.version, homeOf(n)
	if img.fences != nil {
		r.long = &longRefs{fences: img.fences}
	}
}

// loadRefs reads vertex n whole for its edge references into r, a zero
// record, and its blocks into chainBuf[:0]: its labels and properties are
// left encoded (record.headRaw) until decodeHeadNow. It returns nil if
// there is no such vertex. A long image lies in a buffer from st.images,
// appended to *pooled: the record is valid until it is given back.
func (st *store) loadRefs(n uint64, pooled *[]*[]byte, r *record, chainBuf []uint64) (*record, []uint64, error) {
	img, ok, err := st.readImageTo(n, false, true, pooled, chainBuf, nil)
	if err != nil || !ok || img.k != vertexKind {
		return nil, nil, err
	}
	if err := decodeImage(r, vertexKind, img.bytes, st.codec(n)); err != nil {
		return nil, nil, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: %v", bgdl.DPtr(n), err)
	}
	r.readFrom(&img, n)
	return r, img.chain, nil
}

// imageBuf returns a buffer of l bytes for an image: from st.images,
// appended to *into, if into is set and the image is not small.
func (st *store) imageBuf(l int, into *[]*[]byte) []byte {
	if into == nil || l < minPooledImage {
		return make([]byte, l)
	}
	b := st.images.get(l)
	*into = append(*into, b)
	return *b
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
func (st *store) writeImage(k kind, version uint64, chain []uint64, img imageParts, dirty dirtySpan, fences []uint16) error {
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
	binary.LittleEndian.PutUint64(blk[16:], version)
	binary.LittleEndian.PutUint64(blk[24:], uint64(size))
	img.copyAt(blk[primaryHeader:], 0)
	return st.put(blk, chain[0], 0)
}

// scan calls fn for every committed object of kind k, rank by rank. It
// reads the marker words up to each rank's high-water mark, then loads each
// primary block it found (readImage).
func (st *store) scan(k kind, fn func(n uint64, r *record) error) error {
	if k == edgeKind {
		return st.scanEdges(fn)
	}
	return st.scanHolders(k, fn)
}

// scanHolders calls fn for every committed holder of kind k.
func (st *store) scanHolders(k kind, fn func(n uint64, r *record) error) error {
	for rank := range st.size {
		if err := st.scanRank(rank, k, fn); err != nil {
			return err
		}
	}
	return nil
}

// scanRank calls fn for every committed holder of kind k whose primary
// block is on rank.
func (st *store) scanRank(rank int, k kind, fn func(n uint64, r *record) error) error {
	const chunk = 1 << 20
	hw, err := st.ctl.AtomicGet(rank, ctlHighWater)
	if err != nil {
		return internal(err)
	}
	per := max(1, chunk/st.bs)
	buf := make([]byte, per*st.bs)
	for b0 := 1; b0 <= int(hw); b0 += per {
		cnt := min(per, int(hw)-b0+1)
		if err := st.data.Get(buf[:cnt*st.bs], rank, b0*st.bs); err != nil {
			return internal(err)
		}
		if err := st.data.Flush(rank); err != nil {
			return internal(err)
		}
		for i := range cnt {
			if binary.LittleEndian.Uint64(buf[i*st.bs:]) != markerPrimary|uint64(k) {
				continue
			}
			n := uint64(bgdl.DPtr(uint64(rank)<<48 | uint64((b0+i)*st.bs)))
			r, err := st.load(k, n)
			if err != nil {
				return err
			}
			if r != nil {
				if err := fn(n, r); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// scanEdges is scan for edges: every edge is found in the holder of its
// origin, which keeps all of a lightweight edge and the holder of a
// heavyweight one.
func (st *store) scanEdges(fn func(n uint64, r *record) error) error {
	return st.scanHolders(vertexKind, func(v uint64, r *record) error {
		return st.originEdges(v, r, func(e uint64, er *record, _ int) error { return fn(e, er) })
	})
}

// originEdges calls fn for every edge whose origin is vertex v (record r),
// with its number, its record and its home rank (of its holder, or of v
// for a lightweight edge).
func (st *store) originEdges(v uint64, r *record, fn func(e uint64, er *record, home int) error) error {
	for _, ee := range r.refList() {
		e, x := ee.n, ee.ref
		if x.Origin != v {
			continue
		}
		er, home := refRecord(x, e), bgdl.DPtr(v).Rank()
		if !x.Lightweight(e) {
			h := e
			if layout.IsLight(e) {
				h = x.Holder
			}
			var err error
			if er, err = st.load(edgeKind, h); err != nil {
				return err
			}
			if er == nil {
				continue // deleted since the vertex was read
			}
			home = bgdl.DPtr(h).Rank()
		}
		if err := fn(e, er, home); err != nil {
			return err
		}
	}
	return nil
}

// loadEdge returns the committed edge numbered e, or nil if there is none.
func (st *store) loadEdge(e uint64) (*record, error) {
	if !layout.IsLight(e) {
		return st.load(edgeKind, e)
	}
	v := st.lightOrigin(e)
	if !st.valid(v) {
		return nil, nil
	}
	r, err := st.load(vertexKind, v)
	if err != nil || r == nil {
		return nil, err
	}
	x, ok := r.refList().get(e)
	switch {
	case !ok:
		return nil, nil
	case x.Holder != 0:
		return st.load(edgeKind, x.Holder)
	}
	return refRecord(x, e), nil
}

// all returns every committed holder of kind k (lightweight edges are
// part of their vertices' holders).
func (st *store) all(k kind) (map[uint64]*record, error) {
	out := map[uint64]*record{}
	err := st.scanHolders(k, func(n uint64, r *record) error { out[n] = r; return nil })
	return out, err
}

// idKeyLen is the DHT key length: IDs shorter than it are their own key,
// longer ones are replaced by their SHA-256 digest (exactly idKeyLen
// bytes, so a digest never equals a short ID). A DHT hit is always checked
// against the ID stored in the holder.
const idKeyLen = sha256.Size

func dhtKey(id string) []byte {
	if len(id) < idKeyLen {
		return []byte(id)
	}
	d := sha256.Sum256([]byte(id))
	return d[:]
}

// committedIDMatches returns the committed objects of kind k found under
// key. Vertices with a label are found through the DHT; the others (edges,
// vertices without labels, whose IDs need not be unique) by a scan.
func (st *store) committedIDMatches(k kind, key idKey) (map[uint64]struct{}, error) {
	out := map[uint64]struct{}{}
	if k == vertexKind && key.label != uint32(gdi.LabelNone) {
		n, found, err := st.ids.Lookup(key.label, dhtKey(key.id))
		if err != nil || !found {
			return out, internal(err)
		}
		r, err := st.load(vertexKind, n)
		if err != nil {
			return nil, err
		}
		if r != nil && r.matchesID(key) {
			out[n] = struct{}{}
		}
		return out, nil
	}
	err := st.scan(k, func(n uint64, r *record) error {
		if r.matchesID(key) {
			out[n] = struct{}{}
		}
		return nil
	})
	return out, err
}

// change is one object to install: new == nil deletes it; old is the
// committed record it replaces (nil for a new object).
type change struct {
	k        kind
	n        uint64
	old, new *record
	chain    []uint64 // the blocks of old, if the caller read them
	// num and oldNum are the numbers of an edge before and after the
	// change, for its index entries, if they are not n (edges numbered
	// after their origin); 0 if they are.
	num, oldNum uint64
	// head, if set, is the new labels and properties of a vertex whose
	// edge references did not change (old and new are partial records),
	// as long as the old ones and within the primary block: the change
	// is written over them in place.
	head []byte
	// undo, if set, is what the new record turned into tombstones in the
	// references it shares with old (record.undo).
	undo []deadPatch
}

// oldRefs returns the old record with its references as committed.
func (c change) oldRefs() *record {
	if len(c.undo) == 0 || c.old == nil || c.old.raw == nil {
		return c.old
	}
	r := *c.old
	r.raw, r.own, r.lastFound = restored(c.old.raw, c.undo), ownSelf, foundRef{}
	return &r
}

// apply installs changes, which the caller has locked for writing (or the
// database is quiet), in steps:
//
//  1. the implicit index: keys the changes drop, then keys they add (where
//     uniqueness is decided);
//  2. blocks: the images are encoded and take the blocks they need;
//  3. a new version, and the explicit indexes;
//  4. the writes of the images to the data window;
//  5. logged, if not nil: the caller's last step (the redo log), which
//     may still fail the whole.
//
// An error in steps 1 to 3 or 5 undoes the steps before it: the implicit
// and explicit indexes are as before, and the blocks taken are given back.
// The writes of step 4 can be undone only if they were staged (see
// stagedWindow): an error of the data window there is internal. It returns
// the blocks to release once the locks are dropped.
func (st *store) apply(changes []change, logged func() error) (freed []uint64, err error) {
	var u applyUndo
	if err := st.applyKeys(changes, &u); err != nil {
		st.undoApply(&u)
		return nil, err
	}
	var pbuf [4]blockPlan // most commits change a few holders
	plans := pbuf[:min(len(changes), len(pbuf))]
	if len(changes) > len(pbuf) {
		plans = make([]blockPlan, len(changes))
	}
	defer st.putHeads(plans)
	if freed, err = st.planBlocks(changes, &u, plans); err != nil {
		st.undoApply(&u)
		return nil, err
	}
	version, err := st.nextVersion()
	if err != nil {
		st.undoApply(&u)
		return nil, err
	}
	// The explicit indexes, while the holders are locked: a query that
	// finds a new entry early waits for the holder's lock.
	undoIndexes, err := st.reindex(changes)
	if err == nil {
		if err = applyFailpoint(stepIndexes); err != nil {
			undoIndexes()
		}
	}
	if err == nil {
		err = st.writeChanges(changes, version, plans)
		if err == nil && logged != nil {
			err = logged()
		}
		if err != nil {
			undoIndexes()
		}
	}
	if err != nil {
		st.undoApply(&u)
		return nil, err
	}
	return freed, nil
}

// applyUndo is what apply did so far and takes back if a later step
// fails: the changes of the implicit index and the blocks taken.
type applyUndo struct {
	keys  []keyUndo
	taken []uint64
}

// keyUndo is a key apply deleted from (insert false) or inserted into
// the implicit index.
type keyUndo struct {
	insert bool
	label  uint32
	key    []byte
	n      uint64
}

// undoApply gives back the blocks taken and the implicit index's keys.
func (st *store) undoApply(u *applyUndo) {
	for _, b := range u.taken {
		_ = st.release(b)
	}
	for i := len(u.keys) - 1; i >= 0; i-- {
		k := u.keys[i]
		if k.insert {
			_, _ = st.ids.Delete(k.label, k.key)
		} else {
			_ = st.ids.Insert(k.label, k.key, k.n)
		}
	}
}

// applyKeys is apply's step 1: it deletes the implicit index's keys that
// the changes drop, then inserts those they add, where uniqueness is
// decided (ErrNonUniqueID), noting each in u.
func (st *store) applyKeys(changes []change, u *applyUndo) error {
	for _, c := range changes {
		if sameKeys(c) {
			continue
		}
		var nb, ob [2]idKey
		nk := keysOf(c.new, nb[:])
		for _, key := range keysOf(c.old, ob[:]) {
			if slices.Contains(nk, key) {
				continue
			}
			dk := dhtKey(key.id)
			v, found, err := st.ids.Lookup(key.label, dk)
			if err == nil {
				err = applyFailpoint(stepIndexDelete)
			}
			if err == nil && found && v == c.n {
				if _, err = st.ids.Delete(key.label, dk); err == nil {
					u.keys = append(u.keys, keyUndo{false, key.label, dk, c.n})
				}
			}
			if err != nil {
				return internal(err)
			}
		}
	}
	for _, c := range changes {
		if sameKeys(c) {
			continue
		}
		var ob, nb [2]idKey
		ok := keysOf(c.old, ob[:])
		for _, key := range keysOf(c.new, nb[:]) {
			if slices.Contains(ok, key) {
				continue
			}
			dk := dhtKey(key.id)
			err := applyFailpoint(stepIndexInsert)
			if err == nil {
				err = st.ids.Insert(key.label, dk, c.n)
			}
			if errors.Is(err, dht.ErrExists) {
				return gdi.Errorf(gdi.ErrNonUniqueID, "label %d and ID %q not unique", key.label, key.id)
			}
			if err != nil {
				return internal(err)
			}
			u.keys = append(u.keys, keyUndo{true, key.label, dk, c.n})
		}
	}
	return nil
}

// keysOf returns the implicit index's keys of r (its ID under each of its
// labels), in buf if they fit.
func keysOf(r *record, buf []idKey) []idKey {
	if r == nil {
		return nil
	}
	id, ok := r.appID()
	if !ok {
		return nil
	}
	ks := buf[:0]
	for _, l := range r.labels() {
		if l != uint32(gdi.LabelNone) {
			ks = append(ks, idKey{l, id})
		}
	}
	return ks
}

// sameKeys reports whether c keeps the keys of its object: most changes
// keep the labels and the ID of a vertex.
func sameKeys(c change) bool {
	if c.k != vertexKind {
		return true
	}
	if c.old == nil || c.new == nil {
		return false
	}
	if c.old.headRaw != nil && c.new.headRaw != nil {
		// Both still encoded (lazyhead.go): compared as they are.
		return string(c.old.headRaw) == string(c.new.headRaw)
	}
	if !slices.Equal(c.old.labels(), c.new.labels()) {
		return false
	}
	a, okA := c.old.appID()
	b, okB := c.new.appID()
	return okA == okB && a == b
}

// blockPlan is where apply writes the image of a change: its blocks, its
// encoding (whose head is in a block buffer), and the part that changed.
type blockPlan struct {
	chain []uint64
	img   imageParts
	dirty dirtySpan
	head  *[]byte
}

// putHeads gives back the block buffers of plans.
func (st *store) putHeads(plans []blockPlan) {
	for _, p := range plans {
		if p.head != nil {
			st.putBlockBuf(p.head)
		}
	}
}

// planBlocks is apply's step 2: it encodes the image of each change into
// plans and takes the blocks it needs (noting them in u), and returns the
// blocks the changes no longer use.
func (st *store) planBlocks(changes []change, u *applyUndo, plans []blockPlan) (freed []uint64, err error) {
	for i, c := range changes {
		if c.head != nil {
			continue
		}
		chain := c.chain
		if c.old != nil && chain == nil {
			img, ok, err := st.readImage(c.n, false, true)
			if err != nil {
				return nil, err
			}
			if ok {
				chain = img.chain
			}
		}
		if len(chain) == 0 {
			chain = []uint64{c.n}
		}
		if c.new == nil {
			freed = append(freed, chain...)
			continue
		}
		plans[i].head = st.blockBuf()
		b := encodeParts(c.k, c.new, st.codec(c.n), *plans[i].head)
		need := st.blocksFor(b.len())
		for len(chain) < need {
			err := applyFailpoint(stepBlocks)
			var nb uint64
			if err == nil {
				nb, err = st.acquire(bgdl.DPtr(c.n).Rank())
			}
			if err != nil {
				return nil, err
			}
			u.taken = append(u.taken, nb)
			chain = append(chain, nb)
		}
		if len(chain) > need {
			freed = append(freed, chain[need:]...)
			chain = chain[:need]
		}
		plans[i].chain, plans[i].img, plans[i].dirty = chain, b, dirtyOf(c, b, chain)
	}
	return freed, nil
}

// writeChanges is apply's step 4: each change's image, with version.
func (st *store) writeChanges(changes []change, version uint64, plans []blockPlan) error {
	for i, c := range changes {
		if err := st.writeChange(c, version, plans[i].chain, plans[i].img, plans[i].dirty); err != nil {
			return err
		}
	}
	return nil
}

// writeChange writes the image of c, with version, to the blocks chain
// (step 4 of apply).
func (st *store) writeChange(c change, version uint64, chain []uint64, img imageParts, dirty dirtySpan) error {
	if err := applyFailpoint(stepWrites); err != nil {
		return err
	}
	if c.new == nil {
		return internal(st.data.AtomicPut(bgdl.DPtr(c.n).Rank(), bgdl.DPtr(c.n).Offset(), 0))
	}
	c.new.version = version
	if c.head != nil {
		if err := st.patchHead(c.n, version, c.head); err != nil {
			return err
		}
		if testHookHeadPatch != nil {
			testHookHeadPatch(c.n)
		}
		if invariants.Enabled && !c.new.partial {
			st.checkWritten(c, encodeParts(c.k, c.new, st.codec(c.n), nil))
		}
		return nil
	}
	var fences []uint16
	if dirty.some {
		fences = c.new.fences() // the layout is the one read
	}
	if err := st.writeImage(c.k, version, chain, img, dirty, fences); err != nil {
		return err
	}
	if invariants.Enabled && dirty.some {
		st.checkWritten(c, img)
	}
	return nil
}

// applyStep names a step of apply, for failpoints.
type applyStep int

const (
	stepIndexDelete applyStep = iota // a key of the implicit index dropped
	stepIndexInsert                  // a key of the implicit index added
	stepBlocks                       // a block taken
	stepIndexes                      // the explicit indexes changed
	stepWrites                       // an image written
	numApplySteps
)

// testHookApply, if set by a test, is called at each step of apply; an
// error it returns fails the step.
var testHookApply func(applyStep) error

func applyFailpoint(s applyStep) error {
	if testHookApply == nil {
		return nil
	}
	return testHookApply(s)
}

// testHookHeadPatch, if set by a test, is called for every holder whose
// labels and properties a commit writes over in place (patchHead).
var testHookHeadPatch func(n uint64)

// patchHead writes head over the labels and properties of holder n, which
// it replaces byte for byte within the primary block, and sets the
// holder's version.
func (st *store) patchHead(n uint64, version uint64, head []byte) error {
	p := bgdl.DPtr(n)
	if err := st.data.Put(head, p.Rank(), p.Offset()+primaryHeader); err != nil {
		return internal(err)
	}
	if err := st.data.AtomicPut(p.Rank(), p.Offset()+16, version); err != nil {
		return internal(err)
	}
	return internal(st.data.Flush(p.Rank()))
}

// releaseAll gives blocks back to the pool.
func (st *store) releaseAll(blocks []uint64) error {
	var first error
	for _, b := range blocks {
		if err := st.release(b); err != nil && first == nil {
			first = err
		}
	}
	return first
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
