// Package vfstest provides FS, an in-memory vfs.FS for tests of crash
// safety, in the manner of SQLite's crash-test VFS and bbolt's failpoints:
//
//   - failpoints: the nth next operation of a kind fails with a given
//     error (FailNext), and a space limit makes writes fail with ENOSPC
//     part way (SetSpace);
//   - process death: after a set number of mutating operations every
//     operation fails with ErrCrashed, and the state is frozen (CrashAfter);
//   - power loss: Image returns the file system as a reboot would find it,
//     with what was not made durable dropped, kept, or kept in part and
//     torn.
//
// # Durability model
//
// It is the one package vfs states, taken strictly. File data is durable
// up to the last File.Sync; data written after it survives a power loss
// in part at most: a prefix of it, whose last sector may hold garbage or
// zeros. Operations on names (create, rename, remove, mkdir) go into one
// ordered journal, as in a journaling file system; SyncDir makes every
// operation so far durable, and a power loss keeps a prefix of the rest.
// Nothing but SyncDir makes a name durable: not File.Sync, not Close.
package vfstest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/gdi-go/gdi/internal/vfs"
)

// ErrCrashed is the error of every operation after the crash point.
var ErrCrashed = errors.New("vfstest: the process has crashed")

// Op is a kind of operation, for failpoints.
type Op int

// The kinds of operation.
const (
	OpCreate Op = iota
	OpOpen
	OpWrite
	OpSync
	OpTruncate
	OpRename
	OpRemove
	OpMkdir
	OpSyncDir
	numOps
)

var opNames = [numOps]string{"create", "open", "write", "sync", "truncate", "rename", "remove", "mkdir", "syncdir"}

func (o Op) String() string { return opNames[o] }

// Mode chooses what Image keeps of what was not durable.
type Mode int

const (
	// KeepAll keeps everything: the process died, the machine did not.
	KeepAll Mode = iota
	// DropAll keeps only what was durable.
	DropAll
	// Torn keeps a random prefix of the journal and of each file's
	// unsynced data, and may tear the last sector kept.
	Torn
)

// sector is the unit a power loss may tear.
const sector = 512

// FS is the in-memory file system. Its zero value is not usable: call New.
type FS struct {
	mu      sync.Mutex
	nodes   map[string]*node // the namespace now
	durable map[string]*node // the namespace after the durable operations
	journal []nsOp           // operations on names not durable yet
	ops     int              // mutating operations so far
	crashAt int              // the crash point (0: none)
	crashed bool
	fail    [numOps]failpoint
	space   int64         // bytes that writes may still add; <0 unlimited
	hold    chan struct{} // while not nil, writes wait for it to close
}

type node struct {
	dir    bool
	data   []byte
	synced []byte
}

type nsOp struct {
	kind   Op // OpCreate (also mkdir: n.dir), OpRename, OpRemove
	a, b   string
	n      *node
	subdir bool
}

type failpoint struct {
	n   int // fail the nth next operation (1-based); 0: none
	err error
}

// New returns an empty file system in which root and its parents exist
// (durably).
func New(root string) *FS {
	f := &FS{nodes: map[string]*node{}, durable: map[string]*node{}, space: -1}
	for d := filepath.Clean(root); ; d = filepath.Dir(d) {
		n := &node{dir: true}
		f.nodes[d], f.durable[d] = n, n
		if d == filepath.Dir(d) {
			break
		}
	}
	return f
}

// FailNext makes the nth next operation of kind op fail with err (which
// is wrapped in an fs.PathError naming the file).
func (f *FS) FailNext(op Op, nth int, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail[op] = failpoint{nth, err}
}

// SetSpace lets writes add at most n more bytes (n < 0: unlimited); a write
// past it writes what fits and fails with ENOSPC.
func (f *FS) SetSpace(n int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.space = n
}

// HoldWrites makes every write wait, as on a stalled disk, until release
// is called.
func (f *FS) HoldWrites() (release func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan struct{})
	f.hold = ch
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.hold == ch {
			f.hold = nil
		}
		close(ch)
	}
}

// CrashAfter makes the process crash after n more mutating operations
// (creates, writes, syncs, truncates, renames, removes, mkdirs): from the
// next one on, every operation fails with ErrCrashed and changes nothing.
func (f *FS) CrashAfter(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.crashAt = f.ops + n
}

// Ops returns the number of mutating operations so far.
func (f *FS) Ops() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ops
}

// Crashed reports whether the crash point was reached.
func (f *FS) Crashed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.crashed
}

// begin starts an operation of kind op on name; mutating operations count
// towards the crash point. The caller holds f.mu.
func (f *FS) begin(op Op, name string, mutating bool) error {
	if f.crashed {
		return &fs.PathError{Op: op.String(), Path: name, Err: ErrCrashed}
	}
	if mutating {
		if f.crashAt > 0 && f.ops >= f.crashAt {
			f.crashed = true
			return &fs.PathError{Op: op.String(), Path: name, Err: ErrCrashed}
		}
		f.ops++
	}
	if fp := &f.fail[op]; fp.n > 0 {
		fp.n--
		if fp.n == 0 {
			return &fs.PathError{Op: op.String(), Path: name, Err: fp.err}
		}
	}
	return nil
}

func notExist(op Op, name string) error {
	return &fs.PathError{Op: op.String(), Path: name, Err: fs.ErrNotExist}
}

// parentOK reports whether name's directory exists. The caller holds f.mu.
func (f *FS) parentOK(name string) bool {
	d := f.nodes[filepath.Dir(name)]
	return d != nil && d.dir
}

func (f *FS) Create(name string) (vfs.File, error) {
	name = filepath.Clean(name)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(OpCreate, name, true); err != nil {
		return nil, err
	}
	if !f.parentOK(name) {
		return nil, notExist(OpCreate, name)
	}
	n := f.nodes[name]
	switch {
	case n != nil && n.dir:
		return nil, &fs.PathError{Op: "create", Path: name, Err: syscall.EISDIR}
	case n != nil:
		if f.space >= 0 {
			f.space += int64(len(n.data))
		}
		n.data = n.data[:0:0]
	default:
		n = &node{}
		f.nodes[name] = n
		f.journal = append(f.journal, nsOp{kind: OpCreate, a: name, n: n})
	}
	return &file{fs: f, n: n, name: name, write: true}, nil
}

func (f *FS) Open(name string) (vfs.File, error) {
	name = filepath.Clean(name)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(OpOpen, name, false); err != nil {
		return nil, err
	}
	n := f.nodes[name]
	if n == nil {
		return nil, notExist(OpOpen, name)
	}
	return &file{fs: f, n: n, name: name}, nil
}

func (f *FS) Rename(oldname, newname string) error {
	oldname, newname = filepath.Clean(oldname), filepath.Clean(newname)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(OpRename, oldname, true); err != nil {
		return err
	}
	n := f.nodes[oldname]
	if n == nil || !f.parentOK(newname) {
		return notExist(OpRename, oldname)
	}
	if old := f.nodes[newname]; old != nil && old.dir != n.dir {
		return &fs.PathError{Op: "rename", Path: newname, Err: syscall.EEXIST}
	}
	moveTree(f.nodes, oldname, newname)
	f.journal = append(f.journal, nsOp{kind: OpRename, a: oldname, b: newname})
	return nil
}

// moveTree renames a and everything below it to b in ns.
func moveTree(ns map[string]*node, a, b string) {
	n := ns[a]
	if n == nil {
		return
	}
	removeTree(ns, b)
	for p, m := range ns {
		if strings.HasPrefix(p, a+string(filepath.Separator)) {
			delete(ns, p)
			ns[b+p[len(a):]] = m
		}
	}
	delete(ns, a)
	ns[b] = n
}

// removeTree removes a and everything below it from ns.
func removeTree(ns map[string]*node, a string) {
	for p := range ns {
		if p == a || strings.HasPrefix(p, a+string(filepath.Separator)) {
			delete(ns, p)
		}
	}
}

func (f *FS) Remove(name string) error {
	name = filepath.Clean(name)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(OpRemove, name, true); err != nil {
		return err
	}
	n := f.nodes[name]
	if n == nil {
		return notExist(OpRemove, name)
	}
	if n.dir && len(f.below(name)) > 0 {
		return &fs.PathError{Op: "remove", Path: name, Err: syscall.ENOTEMPTY}
	}
	f.removeLocked(name)
	return nil
}

func (f *FS) removeLocked(name string) {
	for _, p := range append(f.below(name), name) {
		if n := f.nodes[p]; f.space >= 0 && n != nil {
			f.space += int64(len(n.data))
		}
	}
	removeTree(f.nodes, name)
	f.journal = append(f.journal, nsOp{kind: OpRemove, a: name})
}

// below returns the names under directory name. The caller holds f.mu.
func (f *FS) below(name string) []string {
	var out []string
	for p := range f.nodes {
		if strings.HasPrefix(p, name+string(filepath.Separator)) {
			out = append(out, p)
		}
	}
	return out
}

func (f *FS) RemoveAll(name string) error {
	name = filepath.Clean(name)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(OpRemove, name, true); err != nil {
		return err
	}
	if f.nodes[name] != nil {
		f.removeLocked(name)
	}
	return nil
}

func (f *FS) MkdirAll(name string) error {
	name = filepath.Clean(name)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(OpMkdir, name, true); err != nil {
		return err
	}
	var missing []string
	for d := name; f.nodes[d] == nil; d = filepath.Dir(d) {
		missing = append(missing, d)
	}
	for _, d := range slices.Backward(missing) {
		n := &node{dir: true}
		f.nodes[d] = n
		f.journal = append(f.journal, nsOp{kind: OpCreate, a: d, n: n})
	}
	if n := f.nodes[name]; !n.dir {
		return &fs.PathError{Op: "mkdir", Path: name, Err: syscall.ENOTDIR}
	}
	return nil
}

func (f *FS) ReadDir(name string) ([]string, error) {
	name = filepath.Clean(name)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(OpOpen, name, false); err != nil {
		return nil, err
	}
	if n := f.nodes[name]; n == nil || !n.dir {
		return nil, notExist(OpOpen, name)
	}
	var out []string
	for p := range f.nodes {
		if filepath.Dir(p) == name && p != name {
			out = append(out, filepath.Base(p))
		}
	}
	slices.Sort(out)
	return out, nil
}

// SyncDir makes every operation on names so far durable (a journal
// commit), whichever directory it names.
func (f *FS) SyncDir(name string) error {
	name = filepath.Clean(name)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(OpSyncDir, name, true); err != nil {
		return err
	}
	if n := f.nodes[name]; n == nil || !n.dir {
		return notExist(OpSyncDir, name)
	}
	for _, op := range f.journal {
		op.apply(f.durable)
	}
	f.journal = f.journal[:0]
	return nil
}

func (op nsOp) apply(ns map[string]*node) {
	switch op.kind {
	case OpCreate:
		ns[op.a] = op.n
	case OpRename:
		moveTree(ns, op.a, op.b)
	case OpRemove:
		removeTree(ns, op.a)
	}
}

// Image returns the file system as a restart after a crash now would find
// it, keeping what mode says of what was not durable (rng is used by Torn
// only). It may be called after the crash point; f is not changed.
func (f *FS) Image(mode Mode, rng *rand.Rand) *FS {
	f.mu.Lock()
	defer f.mu.Unlock()
	ns := map[string]*node{}
	for p, n := range f.durable {
		ns[p] = n
	}
	keep := 0
	switch mode {
	case KeepAll:
		keep = len(f.journal)
	case Torn:
		keep = rng.IntN(len(f.journal) + 1)
	}
	for _, op := range f.journal[:keep] {
		op.apply(ns)
	}
	out := &FS{nodes: map[string]*node{}, durable: map[string]*node{}, space: -1}
	copies := map[*node]*node{}
	for p, n := range ns {
		c := copies[n]
		if c == nil {
			c = &node{dir: n.dir}
			if !n.dir {
				c.data = afterCrash(n, mode, rng)
				c.synced = c.data
			}
			copies[n] = c
		}
		out.nodes[p], out.durable[p] = c, c
	}
	return out
}

// afterCrash returns what a crash leaves of the data of n.
func afterCrash(n *node, mode Mode, rng *rand.Rand) []byte {
	switch {
	case mode == KeepAll:
		return slices.Clone(n.data)
	case mode == DropAll:
		return slices.Clone(n.synced)
	case len(n.data) < len(n.synced) || string(n.data[:len(n.synced)]) != string(n.synced):
		// Truncated or overwritten since the sync: either state.
		if rng.IntN(2) == 0 {
			return slices.Clone(n.synced)
		}
		return slices.Clone(n.data)
	}
	extra := n.data[len(n.synced):]
	k := rng.IntN(len(extra) + 1)
	out := slices.Concat(n.synced, extra[:k])
	if k > 0 && rng.IntN(2) == 0 {
		// The last sector kept is torn: garbage or zeros from some byte on.
		from := len(out) - min(k, 1+rng.IntN(sector))
		zero := rng.IntN(2) == 0
		for i := from; i < len(out); i++ {
			if zero {
				out[i] = 0
			} else {
				out[i] = byte(rng.Uint32())
			}
		}
	}
	return out
}

// file is an open file of FS.
type file struct {
	fs     *FS
	n      *node
	name   string
	off    int
	write  bool
	closed bool
}

func (h *file) Read(p []byte) (int, error) {
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	if err := h.fs.begin(OpOpen, h.name, false); err != nil {
		return 0, err
	}
	if h.off >= len(h.n.data) {
		return 0, io.EOF
	}
	k := copy(p, h.n.data[h.off:])
	h.off += k
	return k, nil
}

func (h *file) Write(p []byte) (int, error) {
	h.fs.mu.Lock()
	for h.fs.hold != nil {
		ch := h.fs.hold
		h.fs.mu.Unlock()
		<-ch
		h.fs.mu.Lock()
	}
	defer h.fs.mu.Unlock()
	if !h.write || h.closed {
		return 0, &fs.PathError{Op: "write", Path: h.name, Err: fs.ErrInvalid}
	}
	if err := h.fs.begin(OpWrite, h.name, true); err != nil {
		return 0, err
	}
	want := p
	grow := int64(max(0, h.off+len(p)-len(h.n.data)))
	if h.fs.space >= 0 && grow > h.fs.space {
		want = p[:len(p)-int(grow-h.fs.space)]
	}
	end := h.off + len(want)
	if end > len(h.n.data) {
		if h.fs.space >= 0 {
			h.fs.space -= int64(end - len(h.n.data))
		}
		h.n.data = append(h.n.data, make([]byte, end-len(h.n.data))...)
	}
	copy(h.n.data[h.off:], want)
	h.off = end
	if len(want) < len(p) {
		return len(want), &fs.PathError{Op: "write", Path: h.name, Err: syscall.ENOSPC}
	}
	return len(p), nil
}

func (h *file) Sync() error {
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	if err := h.fs.begin(OpSync, h.name, true); err != nil {
		return err
	}
	h.n.synced = slices.Clone(h.n.data)
	return nil
}

func (h *file) Truncate(size int64) error {
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	if err := h.fs.begin(OpTruncate, h.name, true); err != nil {
		return err
	}
	if size < 0 || size > int64(len(h.n.data)) {
		return &fs.PathError{Op: "truncate", Path: h.name, Err: fs.ErrInvalid}
	}
	if h.fs.space >= 0 {
		h.fs.space += int64(len(h.n.data)) - size
	}
	h.n.data = h.n.data[:size:size]
	h.off = int(size)
	return nil
}

func (h *file) Size() (int64, error) {
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	return int64(len(h.n.data)), nil
}

func (h *file) Close() error {
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	h.closed = true
	return nil
}

// String describes the file system, for failure messages.
func (f *FS) String() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var names []string
	for p, n := range f.nodes {
		if !n.dir {
			names = append(names, fmt.Sprintf("%s (%d bytes, %d synced)", p, len(n.data), len(n.synced)))
		}
	}
	slices.Sort(names)
	return strings.Join(names, "\n")
}
