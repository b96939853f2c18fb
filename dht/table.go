package dht

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/cespare/xxhash/v2"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/internal/invariants"
	"github.com/gdi-go/gdi/rma"
)

// testHookBeforeCopy, when set by a test, runs after find has read a link
// and before it copies the entry the link points to.
var testHookBeforeCopy func()

// Errors of the table.
var (
	// ErrExists reports an Insert of a key that is present.
	ErrExists = errors.New("dht: key exists")
	// ErrKeyTooLong reports a key longer than Config.MaxKey.
	ErrKeyTooLong = errors.New("dht: key too long")
	// ErrFull reports a rank whose entry heap is used up.
	ErrFull = errors.New("dht: no free entry")
	// ErrConfig reports table parameters out of range.
	ErrConfig = errors.New("dht: bad configuration")
)

// Config sizes a table. It must be the same on every rank.
type Config struct {
	// Buckets is the number of buckets on each rank. Every bucket has room
	// for Homes entries of its own, so a rank holds up to
	// Homes*Buckets+Entries keys.
	Buckets int
	// Entries is the number of overflow entries in each rank's heap, for
	// keys whose bucket's own entries are taken.
	Entries int
	// MaxKey is the longest key in bytes.
	MaxKey int
}

// DefaultMaxKey is the key length limit a zero Config.MaxKey gets.
const DefaultMaxKey = 32

const (
	headerSize = 32
	idxBits    = 30
	idxMask    = 1<<idxBits - 1
	markBit    = 1 << idxBits
	usedBit    = 1 << (idxBits + 1)
	maxEntries = idxMask
)

// link is a chain pointer: tag (32 bits) | used | mark | entry number.
// The used bit tells a home entry in use from a free one (whose link a
// chain never reaches); overflow entries and bucket words carry it too.
type link = uint64

func entryOf(l link) int { return int(l & idxMask) }
func marked(l link) bool { return l&markBit != 0 }
func used(l link) bool   { return l&usedBit != 0 }

// next returns the link that replaces l and points to entry e, unmarked.
func next(l link, e int) link { return (l>>32+1)<<32 | usedBit | uint64(e) }

// freed returns the link that replaces l when its home entry is freed. It
// keeps pointing where l did: a walk that reached the entry by a link
// read before it was unlinked goes on into the chain (see chainInSlot).
func freed(l link) link { return (l>>32+1)<<32 | uint64(entryOf(l)) }

// Table is one rank's handle on a distributed hash table. Its methods are
// safe for concurrent use by goroutines of that rank.
type Table struct {
	comm      rma.Comm
	table     rma.Window     // bucket slots: link, home states, home entries
	pf        rma.Prefetcher // table's, if it has the capability
	heap      *bgdl.Pool     // overflow entries
	data      rma.Window     // the heap's data window
	entrySize int
	slotSize  int
	buckets   int
	maxKey    int
	bufs      sync.Pool
}

// A bucket slot holds the bucket's link word and its home entries. A home
// entry is in use while the used bit of its own link is set.
const (
	// Homes is the number of home entries of a bucket. With two, at one
	// key per two buckets (a load of 0.5) 3% of keys overflow, where with
	// one 21% do.
	Homes = 2
	// SlotHeader is the bytes of a bucket slot before its first home
	// entry; EntryHeader those of an entry before its key.
	SlotHeader  = slotEntries
	EntryHeader = headerSize

	slotEntries = 8
	cacheLine   = 64
)

// New creates a table on all ranks. It is collective.
func New(c rma.Comm, cfg Config) (*Table, error) {
	if cfg.MaxKey == 0 {
		cfg.MaxKey = DefaultMaxKey
	}
	if cfg.Buckets < 1 || cfg.Entries < 1 || cfg.Buckets > (maxEntries-cfg.Entries)/Homes || cfg.MaxKey < 0 || cfg.MaxKey > 1<<20 {
		return nil, fmt.Errorf("%w: %d buckets and %d entries (each at least 1, %d per bucket and the entries together below %d), keys up to %d bytes",
			ErrConfig, cfg.Buckets, cfg.Entries, Homes, maxEntries, cfg.MaxKey)
	}
	entrySize := headerSize + (cfg.MaxKey+7)&^7
	// Slots are whole cache lines: a lookup of a key found in a home entry
	// reads the first lines of its bucket's slot alone.
	slotSize := (slotEntries + Homes*entrySize + cacheLine - 1) &^ (cacheLine - 1)
	t := &Table{
		comm:      c,
		entrySize: entrySize,
		slotSize:  slotSize,
		buckets:   cfg.Buckets,
		maxKey:    cfg.MaxKey,
	}
	t.bufs.New = func() any { b := make([]byte, max(t.entrySize, t.slotSize)); return &b }
	var err error
	if t.table, err = c.NewWindow(cfg.Buckets * t.slotSize); err != nil {
		return nil, fmt.Errorf("dht: bucket window: %w", err)
	}
	if t.heap, err = bgdl.NewPool(c, bgdl.Config{BlockSize: t.entrySize, Blocks: cfg.Entries}); err != nil {
		return nil, errors.Join(fmt.Errorf("dht: entry heap: %w", err), t.table.Free())
	}
	t.data = t.heap.Data()
	t.pf, _ = t.table.(rma.Prefetcher)
	return t, nil
}

// Free releases the table's windows. It is collective.
func (t *Table) Free() error {
	return errors.Join(t.table.Free(), t.heap.Free())
}

// Hash is the 64-bit hash of a key, which picks its rank and bucket.
func Hash(label uint32, key []byte) uint64 {
	h := xxhash.Sum64(key) ^ (uint64(label)+1)*0x9e3779b97f4a7c15
	// Finish with a 64-bit mixer so the label reaches every bit.
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// Home is the rank that stores key.
func (t *Table) Home(label uint32, key []byte) int {
	r, _ := t.place(Hash(label, key))
	return r
}

// place returns the rank and bucket of a hash.
func (t *Table) place(h uint64) (rank, bucket int) {
	rank = int((h >> 32) * uint64(t.comm.Size()) >> 32)
	return rank, int(uint64(uint32(h)) * uint64(t.buckets) >> 32)
}

// Entries are numbered from 1 on each rank: 1 … Homes*Buckets are the
// buckets' home entries, Homes a bucket, the rest are blocks of the
// overflow heap.

// homes is the number of home entries of a rank.
func (t *Table) homes() int { return Homes * t.buckets }

// entryAt returns the window and offset of entry e.
func (t *Table) entryAt(e int) (rma.Window, int) {
	if e <= t.homes() {
		b, i := (e-1)/Homes, (e-1)%Homes
		return t.table, b*t.slotSize + slotEntries + i*t.entrySize
	}
	return t.data, (e - t.homes()) * t.entrySize
}

// pos is where find stopped: the link that points at the current entry, and
// that entry's own link.
type pos struct {
	rank     int
	prevWin  rma.Window
	prevOff  int
	prevLink link // value of the link at (prevWin, prevOff), pointing to cur
	cur      int  // entry number, 0 at the end of the chain
	curLink  link // the link stored in cur
	head     link // the bucket word at the start of the final pass
	value    uint64
}

// find walks the chain of key's bucket and stops at the entry holding key,
// or at the end. It unlinks marked entries on its way.
func (t *Table) find(h uint64, label uint32, key []byte, buf []byte) (bool, pos, error) {
	r, b := t.place(h)
	// Only the header and as many key bytes as key has are read: a
	// longer stored key differs in its length word.
	n := headerSize + (len(key)+7)&^7
again:
	p := pos{rank: r, prevWin: t.table, prevOff: b * t.slotSize}
	var err error
	if p.prevLink, err = t.table.AtomicGet(r, p.prevOff); err != nil {
		return false, p, err
	}
	p.head = p.prevLink
	for {
		p.cur = entryOf(p.prevLink)
		if p.cur == 0 {
			return false, p, nil
		}
		// Between reading the link and copying its entry, the entry may be
		// deleted and reused: the revalidation below catches that.
		invariants.MaybeYield()
		if testHookBeforeCopy != nil {
			testHookBeforeCopy()
		}
		win, off := t.entryAt(p.cur)
		if err := win.Get(buf[:n], r, off); err != nil {
			return false, p, err
		}
		if err := win.Flush(r); err != nil {
			return false, p, err
		}
		// Revalidate: if the link we followed is unchanged, cur stayed in
		// the chain, and so unchanged, while we copied it.
		check, err := p.prevWin.AtomicGet(r, p.prevOff)
		if err != nil {
			return false, p, err
		}
		if check != p.prevLink {
			goto again
		}
		p.curLink = binary.LittleEndian.Uint64(buf)
		if marked(p.curLink) {
			// cur is being deleted: swing the predecessor past it.
			swung := next(p.prevLink, entryOf(p.curLink))
			prev, err := p.prevWin.CompareAndSwap(r, p.prevOff, p.prevLink, swung)
			if err != nil {
				return false, p, err
			}
			if prev != p.prevLink {
				goto again
			}
			if err := t.release(r, p.cur, p.curLink); err != nil {
				return false, p, err
			}
			p.prevLink = swung
			continue
		}
		if t.holds(buf, h, label, key) {
			p.value = binary.LittleEndian.Uint64(buf[8:])
			return true, p, nil
		}
		p.prevWin, p.prevOff, p.prevLink = win, off, p.curLink
	}
}

// holds reports whether the entry copied into buf stores key.
func (t *Table) holds(buf []byte, h uint64, label uint32, key []byte) bool {
	if binary.LittleEndian.Uint64(buf[16:]) != h {
		return false
	}
	lk := binary.LittleEndian.Uint64(buf[24:])
	n := int(lk >> 32)
	return uint32(lk) == label && n == len(key) && n <= t.maxKey && bytes.Equal(buf[headerSize:headerSize+n], key)
}

func (t *Table) buf() *[]byte  { return t.bufs.Get().(*[]byte) }
func (t *Table) put(b *[]byte) { t.bufs.Put(b) }

func (t *Table) checkKey(key []byte) error {
	if len(key) > t.maxKey {
		return fmt.Errorf("%w: %d bytes, at most %d", ErrKeyTooLong, len(key), t.maxKey)
	}
	return nil
}

// Lookup returns the value stored under (label, key).
func (t *Table) Lookup(label uint32, key []byte) (value uint64, found bool, err error) {
	return t.LookupBuf(label, key, nil)
}

// EntrySize is the length of a buffer that LookupBuf uses as it is.
func (t *Table) EntrySize() int { return t.entrySize }

// LookupBuf is Lookup that copies entries into scratch if it holds
// EntrySize bytes, rather than into a buffer of the table's pool: for
// callers that look keys up often and have room of their own. scratch
// must not be in use elsewhere while the call runs.
func (t *Table) LookupBuf(label uint32, key []byte, scratch []byte) (value uint64, found bool, err error) {
	if err := t.checkKey(key); err != nil {
		return 0, false, err
	}
	if len(scratch) < t.entrySize {
		b := t.buf()
		defer t.put(b)
		scratch = *b
	}
	ok, p, err := t.find(Hash(label, key), label, key, scratch)
	return p.value, ok && err == nil, err
}

// Delete removes (label, key) and reports whether it was present.
func (t *Table) Delete(label uint32, key []byte) (bool, error) {
	return t.delete(label, key, 0, false)
}

// DeleteIf removes (label, key) if it holds value, and reports whether it
// did: a Lookup and a Delete in one walk of the chain.
func (t *Table) DeleteIf(label uint32, key []byte, value uint64) (bool, error) {
	return t.delete(label, key, value, true)
}

// delete is Delete, or DeleteIf if only.
func (t *Table) delete(label uint32, key []byte, value uint64, only bool) (bool, error) {
	if err := t.checkKey(key); err != nil {
		return false, err
	}
	b := t.buf()
	defer t.put(b)
	h := Hash(label, key)
	for {
		found, p, err := t.find(h, label, key, *b)
		if err != nil || !found || only && p.value != value {
			return false, err
		}
		// Mark cur's own link: from here on the key is deleted, and no
		// one can insert after cur.
		markedLink := next(p.curLink, entryOf(p.curLink)) | markBit
		win, off := t.entryAt(p.cur)
		prev, err := win.CompareAndSwap(p.rank, off, p.curLink, markedLink)
		if err != nil {
			return false, err
		}
		if prev != p.curLink {
			continue
		}
		invariants.MaybeYield()
		// Unlink it. If the predecessor moved, a fresh find unlinks it.
		swung := next(p.prevLink, entryOf(p.curLink))
		prev, err = p.prevWin.CompareAndSwap(p.rank, p.prevOff, p.prevLink, swung)
		if err != nil {
			return true, err
		}
		if prev == p.prevLink {
			return true, t.release(p.rank, p.cur, markedLink)
		}
		_, _, err = t.find(h, label, key, *b)
		return true, err
	}
}
