package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/txn"
)

// Errors of the index. Errors returned carry details; test with errors.Is.
var (
	// ErrKey reports a key longer than Config.MaxKey.
	ErrKey = errors.New("index: key too long")
	// ErrFull reports a rank without the free node blocks an insert needs
	// (the tree is left as it was), or a Create with every tree slot taken.
	ErrFull = errors.New("index: no room")
	// ErrBusy reports a tree part whose lock could not be had in time. It
	// wraps txn.ErrBusy.
	ErrBusy = fmt.Errorf("index: tree part busy: %w", txn.ErrBusy)
	// ErrTree reports a Tree that names no live tree of the forest.
	ErrTree = errors.New("index: no such tree")
	// ErrConfig reports forest parameters out of range.
	ErrConfig = errors.New("index: bad configuration")
	// ErrCorrupt reports a node that does not hold what a tree node must.
	// It means a bug or memory written outside the index.
	ErrCorrupt = errors.New("index: corrupt node")
)

// Defaults of a zero Config field.
const (
	DefaultNodeSize = 4096
	DefaultTrees    = 64
	DefaultMaxKey   = 48
	// DefaultBytes is the node memory per rank a zero Config.Nodes gets.
	DefaultBytes = 64 << 20
)

// Config sizes a forest. It must be the same on every rank; zero fields
// get the defaults.
type Config struct {
	// NodeSize is the size of a node block in bytes, a multiple of 8. It
	// must hold at least two entries per node.
	NodeSize int
	// Nodes is the number of node blocks on each rank, shared by the parts
	// of all trees on that rank.
	Nodes int
	// Trees is the number of tree slots: how many trees may exist at once.
	Trees int
	// MaxKey is the longest key in bytes.
	MaxKey int
}

// lockAttempts is how often an operation tries a part's lock before
// ErrBusy: with txn's back-off, about a second, which rides out writers
// queueing on a loaded machine but never waits forever.
var lockAttempts = txn.Attempts * 16

// Tree names a tree of a forest: a slot and the generation of the slot, so
// an id kept after Drop cannot reach the tree that reuses the slot. The
// zero Tree names no tree.
type Tree uint64

func (t Tree) slot() int                 { return int(uint32(t)) }
func (t Tree) gen() uint64               { return uint64(t >> 32) }
func makeTree(slot int, gen uint64) Tree { return Tree(gen<<32 | uint64(slot)) }

// Directory slots: the part's lock word, the generation of the tree that
// owns the slot (0 when none does), the root node and the entry count.
const (
	dirSlot  = 32
	dirGen   = 8
	dirRoot  = 16
	dirCount = 24
)

// Forest is one rank's handle on a set of distributed trees. Its
// non-collective methods are safe for concurrent use by goroutines of the
// rank; its collective ones (NewForest, Create, Drop, Free) are called by one
// goroutine of every rank, in the same order, as for rma.Comm.
type Forest struct {
	comm  rma.Comm
	pool  *bgdl.Pool
	data  rma.Window
	dir   rma.Window
	l     layout
	trees int

	// gens and live mirror the directory. Only the collectives touch them,
	// and they change alike on every rank.
	gens []uint64
	live []bool

	bufs     sync.Pool // *[]byte of l.bufSize()
	scratchs sync.Pool // *scratch
}

// NewForest allocates a forest on every rank. It is collective.
func NewForest(c rma.Comm, cfg Config) (*Forest, error) {
	if cfg.NodeSize == 0 {
		cfg.NodeSize = DefaultNodeSize
	}
	if cfg.MaxKey == 0 {
		cfg.MaxKey = DefaultMaxKey
	}
	if cfg.Trees == 0 {
		cfg.Trees = DefaultTrees
	}
	if cfg.Nodes == 0 && cfg.NodeSize > 0 {
		cfg.Nodes = max(DefaultBytes/cfg.NodeSize, 1)
	}
	l := newLayout(cfg.NodeSize, cfg.MaxKey)
	if cfg.NodeSize < 8 || cfg.NodeSize%8 != 0 || cfg.MaxKey < 0 || cfg.MaxKey > 1<<16 ||
		cfg.Nodes < 1 || cfg.Trees < 1 || cfg.Trees > 1<<20 || l.leafCap < 2 || l.innerCap < 2 {
		return nil, fmt.Errorf("%w: node size %d (a multiple of 8 holding two slots of %d bytes), %d nodes, %d trees, keys up to %d bytes",
			ErrConfig, cfg.NodeSize, l.innerSlot, cfg.Nodes, cfg.Trees, cfg.MaxKey)
	}
	f := &Forest{
		comm:  c,
		l:     l,
		trees: cfg.Trees,
		gens:  make([]uint64, cfg.Trees),
		live:  make([]bool, cfg.Trees),
	}
	f.bufs.New = func() any { b := make([]byte, f.l.bufSize()); return &b }
	f.scratchs.New = func() any { return new(scratch) }
	var err error
	if f.pool, err = bgdl.NewPool(c, bgdl.Config{BlockSize: cfg.NodeSize, Blocks: cfg.Nodes}); err != nil {
		return nil, fmt.Errorf("index: node pool: %w", err)
	}
	f.data = f.pool.Data()
	if f.dir, err = c.NewWindow(cfg.Trees * dirSlot); err != nil {
		return nil, errors.Join(fmt.Errorf("index: directory window: %w", err), f.pool.Free())
	}
	return f, nil
}

// Free releases the forest's windows. It is collective.
func (f *Forest) Free() error {
	return errors.Join(f.dir.Free(), f.pool.Free())
}

// FreeNodes counts the free node blocks of rank. Like bgdl.Pool.FreeBlocks
// it is exact only while no one inserts into or deletes from rank's parts.
func (f *Forest) FreeNodes(rank int) (int, error) {
	if err := f.checkRank(rank); err != nil {
		return 0, err
	}
	return f.pool.FreeBlocks(rank)
}

// Create makes a new, empty tree and returns its id, the same on every
// rank. It is collective.
func (f *Forest) Create() (Tree, error) {
	slot := -1
	for i, l := range f.live {
		if !l {
			slot = i
			break
		}
	}
	if slot < 0 {
		return 0, fmt.Errorf("%w: all %d tree slots in use", ErrFull, f.trees)
	}
	// Every rank advances the generation, even if Create fails, so the
	// mirrors stay alike and an id of a failed Create never comes alive.
	f.gens[slot] = (f.gens[slot] + 1) & (1<<32 - 1)
	if f.gens[slot] == 0 {
		f.gens[slot] = 1
	}
	t := makeTree(slot, f.gens[slot])
	err := f.setPart(slot, t.gen(), func(*part) error { return nil })
	if err := rma.Agree(f.comm, err); err != nil {
		return 0, err
	}
	f.live[slot] = true
	return t, nil
}

// Drop deletes tree t: every rank frees the nodes of its own part, and the
// slot becomes free for Create. It is collective.
func (f *Forest) Drop(t Tree) error {
	if err := f.checkLive(t); err != nil {
		return err
	}
	me := f.comm.Rank()
	err := f.setPart(t.slot(), 0, func(p *part) error {
		if p.gen != t.gen() {
			return fmt.Errorf("%w: %#x on rank %d holds generation %d", ErrCorrupt, uint64(t), me, p.gen)
		}
		return f.freeTree(me, p.root)
	})
	f.live[t.slot()] = false
	return rma.Agree(f.comm, err)
}

// setPart rewrites directory slot slot of the calling rank under its write
// lock: it runs fn on the part found there, then leaves the part empty and
// owned by generation gen (0 for none).
func (f *Forest) setPart(slot int, gen uint64, fn func(*part) error) error {
	me := f.comm.Rank()
	t := makeTree(slot, gen)
	off := slot * dirSlot
	if err := f.lock(t, me, txn.Write); err != nil {
		return err
	}
	s := f.getScratch()
	p, err := f.readDir(s, me, off)
	if err == nil {
		err = fn(&p)
	}
	binary.LittleEndian.PutUint64(s.dir[0:], gen)
	clear(s.dir[8:])
	err = errors.Join(err, f.dir.Put(s.dir[:], me, off+dirGen), f.dir.Flush(me))
	f.scratchs.Put(s)
	return errors.Join(err, txn.Unlock(f.dir, me, off, txn.Write))
}

func (f *Forest) checkLive(t Tree) error {
	if t.slot() >= f.trees || !f.live[t.slot()] || f.gens[t.slot()] != t.gen() {
		return fmt.Errorf("%w: %#x", ErrTree, uint64(t))
	}
	return nil
}

func (f *Forest) checkRank(rank int) error {
	if rank < 0 || rank >= f.comm.Size() {
		return fmt.Errorf("index: %w: %d of %d", rma.ErrRank, rank, f.comm.Size())
	}
	return nil
}

// part is the state of one rank's part of a tree, as its directory slot
// holds it.
type part struct {
	gen   uint64
	root  bgdl.DPtr
	count uint64
}

// lock takes the lock of t's part on rank in mode m.
func (f *Forest) lock(t Tree, rank int, m txn.Mode) error {
	if err := f.checkRank(rank); err != nil {
		return err
	}
	if t.slot() >= f.trees {
		return fmt.Errorf("%w: %#x (slot beyond %d)", ErrTree, uint64(t), f.trees)
	}
	err := txn.LockN(f.dir, rank, t.slot()*dirSlot, m, lockAttempts)
	if errors.Is(err, txn.ErrBusy) {
		return fmt.Errorf("%w: tree %#x on rank %d", ErrBusy, uint64(t), rank)
	}
	return err
}

// readDir reads the directory slot at off on rank; the caller holds its
// lock.
func (f *Forest) readDir(s *scratch, rank, off int) (part, error) {
	if err := f.dir.Get(s.dir[:], rank, off+dirGen); err != nil {
		return part{}, err
	}
	if err := f.dir.Flush(rank); err != nil {
		return part{}, err
	}
	return part{
		gen:   binary.LittleEndian.Uint64(s.dir[0:]),
		root:  bgdl.DPtr(binary.LittleEndian.Uint64(s.dir[8:])),
		count: binary.LittleEndian.Uint64(s.dir[16:]),
	}, nil
}

// open locks t's part on rank in mode m and reads its directory slot. On
// success the caller must call f.unlock(t, rank, m).
func (f *Forest) open(s *scratch, t Tree, rank int, m txn.Mode) (part, error) {
	if err := f.lock(t, rank, m); err != nil {
		return part{}, err
	}
	p, err := f.readDir(s, rank, t.slot()*dirSlot)
	if err == nil && (p.gen != t.gen() || t.gen() == 0) {
		err = fmt.Errorf("%w: %#x on rank %d", ErrTree, uint64(t), rank)
	}
	if err != nil {
		return part{}, errors.Join(err, f.unlock(t, rank, m))
	}
	return p, nil
}

func (f *Forest) unlock(t Tree, rank int, m txn.Mode) error {
	return txn.Unlock(f.dir, rank, t.slot()*dirSlot, m)
}

// writeDir stores a changed root and count; the caller holds the write lock.
func (f *Forest) writeDir(s *scratch, t Tree, rank int, p part) error {
	binary.LittleEndian.PutUint64(s.dir[8:], uint64(p.root))
	binary.LittleEndian.PutUint64(s.dir[16:], p.count)
	if err := f.dir.Put(s.dir[8:24], rank, t.slot()*dirSlot+dirRoot); err != nil {
		return err
	}
	return f.dir.Flush(rank)
}

// Len is the number of entries in rank's part of t.
func (f *Forest) Len(t Tree, rank int) (n int, err error) {
	s := f.getScratch()
	defer f.scratchs.Put(s)
	p, err := f.open(s, t, rank, txn.Read)
	if err != nil {
		return 0, err
	}
	return int(p.count), f.unlock(t, rank, txn.Read)
}

// scratch holds the buffers of one operation.
type scratch struct {
	dir   [24]byte
	path  []level  // the nodes on the way from the root to a leaf
	spare [][]byte // buffers for nodes made by splits
	fresh []bgdl.DPtr
	stack []bgdl.DPtr
}

type level struct {
	ptr bgdl.DPtr
	buf []byte
	idx int // the child taken, in inner nodes
}

func (f *Forest) getScratch() *scratch { return f.scratchs.Get().(*scratch) }

// pathBuf returns level d of the path, with a buffer.
func (f *Forest) pathBuf(s *scratch, d int) *level {
	for len(s.path) <= d {
		s.path = append(s.path, level{buf: make([]byte, f.l.bufSize())})
	}
	return &s.path[d]
}

func (f *Forest) spareBuf(s *scratch, i int) []byte {
	for len(s.spare) <= i {
		s.spare = append(s.spare, make([]byte, f.l.bufSize()))
	}
	return s.spare[i]
}

// readNode copies node p of rank into buf and checks it.
func (f *Forest) readNode(buf []byte, rank int, p bgdl.DPtr) error {
	off := p.Offset()
	if p.Rank() != rank || off%f.l.nodeSize != 0 || off/f.l.nodeSize < 1 || off/f.l.nodeSize > f.pool.Blocks() {
		return fmt.Errorf("%w: pointer %v on rank %d", ErrCorrupt, p, rank)
	}
	if err := f.data.Get(buf[:f.l.nodeSize], rank, off); err != nil {
		return err
	}
	if err := f.data.Flush(rank); err != nil {
		return err
	}
	return f.l.check(buf, p)
}

// putNode starts writing the used part of the node in buf to p; the caller
// flushes before touching buf again.
func (f *Forest) putNode(buf []byte, p bgdl.DPtr) error {
	n := slotOff(f.l.stride(nodeKind(buf)), nodeCount(buf))
	return f.data.Put(buf[:n], p.Rank(), p.Offset())
}

// freeTree releases every node of the tree rooted at root on rank.
func (f *Forest) freeTree(rank int, root bgdl.DPtr) error {
	if root.IsNull() {
		return nil
	}
	bp := f.bufs.Get().(*[]byte)
	defer f.bufs.Put(bp)
	buf := *bp
	stack := []bgdl.DPtr{root}
	var errs []error
	for visited := 0; len(stack) > 0; visited++ {
		if visited > f.pool.Blocks() {
			return fmt.Errorf("%w: tree on rank %d has more nodes than the rank", ErrCorrupt, rank)
		}
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if err := f.readNode(buf, rank, p); err != nil {
			errs = append(errs, err)
			continue
		}
		if nodeKind(buf) == kindInner {
			for i := range nodeCount(buf) + 1 {
				stack = append(stack, f.l.child(buf, i))
			}
		}
		// Clear the kind, so a stale pointer to the block reads as corrupt
		// rather than as a node.
		setHeader(buf, 0, 0)
		err := f.data.Put(buf[:8], rank, p.Offset())
		if err == nil {
			err = f.data.Flush(rank)
		}
		errs = append(errs, err, f.pool.Release(p))
	}
	return errors.Join(errs...)
}
