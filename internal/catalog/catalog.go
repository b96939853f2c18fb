package catalog

import (
	"encoding/binary"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Catalog is one rank's replica of a database's metadata and the rank's
// local catalog objects (constraints, subconstraints, index handles).
type Catalog struct {
	comm    rma.Comm
	rank    int
	tag     gdi.DatabaseTag
	backend string // prefixes internal errors, as "refdb" or "gdirma"
	// everyRank: the metadata rewrites run on every rank (see
	// RewriteOnEveryRank).
	everyRank bool

	mu     sync.RWMutex // guards everything below; taken after no other lock
	freed  bool
	labels map[uint32]*labelMeta
	ptypes map[uint32]*ptypeMeta
	// labelNames and ptypeNames find the live labels and property types
	// by name.
	labelNames, ptypeNames map[string]uint32
	// last object numbers handed out; numbers are never reused.
	lastLabel, lastPtype, lastIndex uint32
	labelOrder, ptypeOrder          []uint32
	indexes                         []*Index
	// indexHook, if set, is called collectively after an index is
	// created, changed or freed (see SetIndexHook).
	indexHook      func(IndexDef) error
	changeHook     func(Delta) error // see change.go
	constraints    []*Constraint
	subconstraints []*Subconstraint

	view atomic.Pointer[view] // see view.go
}

type labelMeta struct {
	name  string
	freed bool
}

type ptypeMeta struct {
	info  gdi.PropertyTypeInfo
	freed bool
	// generation counts the updates; conditions remember the generation
	// they were made in and are stale once it changes.
	generation int
}

// New returns the empty catalog of a rank of a new database, with a new
// database tag. backend names the backend in internal errors.
func New(comm rma.Comm, backend string) *Catalog {
	cat := &Catalog{
		comm:       comm,
		rank:       comm.Rank(),
		tag:        gdi.NewDatabaseTag(),
		backend:    backend,
		labels:     map[uint32]*labelMeta{},
		ptypes:     map[uint32]*ptypeMeta{},
		labelNames: map[string]uint32{},
		ptypeNames: map[string]uint32{},
		lastLabel:  gdi.FirstUserID - 1,
		lastPtype:  gdi.FirstUserID - 1,
		lastIndex:  gdi.FirstUserID - 1,
	}
	cat.publishLocked()
	return cat
}

// Tag returns the tag of this rank's handles.
func (cat *Catalog) Tag() gdi.DatabaseTag { return cat.tag }

// Agree is the common step of every collective call. Each rank brings a
// description of the call and its arguments (call) and the outcome of its
// local checks (local). If the calls differ, every rank returns
// ErrNotSame; if any rank failed, every rank fails: with its own error, or
// with the class of the first rank that failed. It synchronises the ranks
// (no rank leaves before all have entered).
func (cat *Catalog) Agree(call string, local error) error {
	msg := binary.LittleEndian.AppendUint64(nil, uint64(gdi.ErrorClass(local)))
	msg = append(msg, call...)
	all, err := cat.comm.Allgatherv(msg)
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "%s: collective %s: %w", cat.backend, call, err)
	}
	for r, m := range all {
		if len(m) < 8 || string(m[8:]) != call {
			return gdi.Errorf(gdi.ErrNotSame, "%s: rank %d called %q", call, r, m[min(8, len(m)):])
		}
	}
	if local != nil {
		return local
	}
	for r, m := range all {
		if c := gdi.Code(binary.LittleEndian.Uint64(m)); c != gdi.Success {
			return gdi.Errorf(c, "%s failed on rank %d", call, r)
		}
	}
	return nil
}

// Barrier waits for all ranks.
func (cat *Catalog) Barrier() error {
	if err := cat.comm.Barrier(); err != nil {
		return gdi.Errorf(gdi.ErrIntern, "%s: barrier: %w", cat.backend, err)
	}
	return nil
}

// BcastCode makes every rank return the class rank 0 computed.
func (cat *Catalog) BcastCode(err error) error {
	buf := binary.LittleEndian.AppendUint64(nil, uint64(gdi.ErrorClass(err)))
	if e := cat.comm.Bcast(buf, 0); e != nil {
		return gdi.Errorf(gdi.ErrIntern, "%s: broadcast: %w", cat.backend, e)
	}
	if cat.rank == 0 || err != nil {
		return err
	}
	if c := gdi.Code(binary.LittleEndian.Uint64(buf)); c != gdi.Success {
		return gdi.Errorf(c, "on rank 0")
	}
	return nil
}

// IsFreed reports whether the database is freed.
func (cat *Catalog) IsFreed() bool {
	return cat.view.Load().freed
}

// ErrFreedDB is the error of calls on a freed database.
func ErrFreedDB() error { return gdi.Errorf(gdi.ErrDatabase, "database freed") }

// MarkFreed is the catalog's part of freeing the database: every catalog
// object of the rank becomes invalid.
func (cat *Catalog) MarkFreed() {
	cat.mu.Lock()
	defer cat.mu.Unlock()
	cat.freed = true
	cat.publishLocked()
	cat.indexes = nil
	cat.constraints = nil
	cat.subconstraints = nil
}

// Indexes returns the indexes that are not freed.
func (cat *Catalog) Indexes() ([]gdi.Index, error) {
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if cat.freed {
		return nil, ErrFreedDB()
	}
	out := make([]gdi.Index, len(cat.indexes))
	for i, x := range cat.indexes {
		out[i] = x
	}
	return out, nil
}

// Constraints returns the rank's constraints that are not freed.
func (cat *Catalog) Constraints() ([]gdi.Constraint, error) {
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if cat.freed {
		return nil, ErrFreedDB()
	}
	out := make([]gdi.Constraint, len(cat.constraints))
	for i, x := range cat.constraints {
		out[i] = x
	}
	return out, nil
}

// Subconstraints returns the rank's subconstraints that are not freed.
func (cat *Catalog) Subconstraints() ([]gdi.Subconstraint, error) {
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if cat.freed {
		return nil, ErrFreedDB()
	}
	out := make([]gdi.Subconstraint, len(cat.subconstraints))
	for i, x := range cat.subconstraints {
		out[i] = x
	}
	return out, nil
}

func removeItem[T comparable](s []T, x T) []T {
	return slices.DeleteFunc(s, func(y T) bool { return y == x })
}
