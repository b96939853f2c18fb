package store

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/txn"
)

// Config sizes a Store. All ranks pass the same values.
type Config struct {
	Tag        uint16 // the database's tag, part of every UID
	BlockSize  int    // bytes per block
	Blocks     int    // blocks per rank
	DHTBuckets int    // buckets of the implicit index per rank
	DHTEntries int    // entries of the implicit index per rank
	MaxIDKey   int    // longest key of the implicit index
}

// Store is one rank's handle on the blocks, lock words, implicit index and
// control words of a database. It holds no graph data itself: all of it
// lives in RMA windows, which every rank reaches with one-sided
// operations only. A Store is safe for use by many goroutines.
type Store struct {
	tag  uint16
	rank int
	size int
	bs   int

	pool  *bgdl.Pool
	data  rma.Window
	locks rma.Window
	ctl   rma.Window
	ids   *dht.Table
	pf    rma.Prefetcher // data's, if it has the capability
	// hw is, per rank, a high-water mark that rank's is known to have
	// reached: acquires of blocks below it need not read the mark.
	hw []atomic.Uint64
	// hints say which holders are read the long way at once (checked.go).
	hints *hints

	bufs   *sync.Pool // of *[]byte, one block each
	images *imagePool
}

// blockReserve is how many blocks of its own a rank takes at a time
// (bgdl.Config.Reserve): the holders a transaction creates go to the rank
// it runs on.
const blockReserve = 16

// New creates the windows of a Store (collective over comm).
func New(comm rma.Comm, c Config) (*Store, error) {
	s := &Store{tag: c.Tag, rank: comm.Rank(), size: comm.Size(), bs: c.BlockSize, bufs: new(sync.Pool), images: new(imagePool),
		hw: make([]atomic.Uint64, comm.Size()), hints: new(hints)}
	var err error
	s.pool, err = bgdl.NewPool(comm, bgdl.Config{BlockSize: c.BlockSize, Blocks: c.Blocks, Reserve: blockReserve})
	if err != nil {
		return nil, err
	}
	s.data, s.locks = s.pool.Data(), s.pool.Locks()
	s.pf, _ = s.data.(rma.Prefetcher)
	if s.ctl, err = comm.NewWindow(ctlSize); err != nil {
		return nil, errors.Join(err, s.pool.Free())
	}
	if s.ids, err = dht.New(comm, dht.Config{Buckets: c.DHTBuckets, Entries: c.DHTEntries, MaxKey: c.MaxIDKey}); err != nil {
		return nil, errors.Join(err, s.pool.Free(), s.ctl.Free())
	}
	return s, nil
}

// Free releases the windows (collective).
func (s *Store) Free() error {
	return errors.Join(s.ids.Free(), s.ctl.Free(), s.pool.Free())
}

// Rank and Size are those of the communicator the Store was made on.
func (s *Store) Rank() int { return s.rank }
func (s *Store) Size() int { return s.size }

// BlockSize is the size of a block in bytes.
func (s *Store) BlockSize() int { return s.bs }

// Pool is the pool of blocks, for checkpoints and recovery.
func (s *Store) Pool() *bgdl.Pool { return s.pool }

// IDs is the distributed hash table of the implicit index.
func (s *Store) IDs() *dht.Table { return s.ids }

// Locks is the window of the lock words of the blocks, for transactions
// that lock holders (txn.LockSet).
func (s *Store) Locks() rma.Window { return s.locks }

// Data is the data window, which holds the blocks.
func (s *Store) Data() rma.Window { return s.data }

// Stage makes *dst a Store like s whose data window is w, a window that
// keeps the writes made through it (a commit's staged writes, which the
// redo log must take before anyone sees them). Everything else, the
// blocks' lock words and the pool included, is s's.
func (s *Store) Stage(dst *Store, w rma.Window) {
	*dst = *s
	dst.data = w
}

// Control is the control window, for checkpoints.
func (s *Store) Control() rma.Window { return s.ctl }

// Internal wraps a failure of the RMA layer in the gdi error it means.
func Internal(err error) error {
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

// ErrBusy is the transaction-critical error of holder p's lock, held by
// another transaction.
func ErrBusy(p bgdl.DPtr) error {
	return gdi.Errorf(gdi.ErrTransactionCritical, "gdirma: holder %v is locked by another transaction", p)
}

// LockAddr is where the lock word of holder p is.
func (s *Store) LockAddr(p bgdl.DPtr) txn.Addr {
	off, _ := s.pool.LockOffset(p)
	return txn.Addr{Rank: p.Rank(), Off: off}
}

// StillValid reports whether holder p's lock word is still stamp, as a
// reader without a lock found it (txn.ReadBegin): if it is, no writer
// changed the holder since.
func (s *Store) StillValid(p bgdl.DPtr, stamp uint64) (bool, error) {
	a := s.LockAddr(p)
	ok, err := txn.ReadValid(s.locks, a.Rank, a.Off, stamp)
	return ok, Internal(err)
}

// Detached returns a Store without windows that knows only its tag and
// block size: it encodes (Codec, UID, LightUID, FencesOf, BlocksFor) but
// holds and reads nothing. Tests of the encodings above it use one.
func Detached(tag uint16, blockSize int) *Store {
	return &Store{tag: tag, bs: blockSize, size: 1, bufs: new(sync.Pool), images: new(imagePool)}
}
