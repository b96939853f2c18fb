package gdirma

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Driver is the GDI-RMA backend. Its zero value is ready to use:
//
//	db, err := gdirma.Driver{}.CreateDatabase(comm, gdirma.Params{BlockSize: 512})
type Driver struct{}

// Params are the parameters of CreateDatabase. Zero fields get defaults;
// nil params mean all defaults. Every rank must pass the same values.
type Params struct {
	// BlockSize is the size of a BGDL block in bytes: a multiple of 8 from
	// 64 to 4096. Default 256.
	BlockSize int
	// MemoryPerRank is the size of each rank's block memory in bytes.
	// Default 8 MiB.
	MemoryPerRank int
	// DHTBuckets is the number of buckets of the implicit index per rank.
	// Default half of DHTEntries, at least 4096.
	DHTBuckets int
	// DHTEntries is the number of implicit-index entries per rank (one per
	// label of each vertex with an ID). Default MemoryPerRank/BlockSize.
	DHTEntries int
	// IndexMemoryPerRank is the size of each rank's memory for the
	// entries of explicit indexes, in bytes. Default 4 MiB, at least 4
	// KiB. A change of an index whose entries do not fit fails with
	// ErrNoMemory and changes nothing; after BulkLoad, a metadata rewrite
	// or recovery, such an index is left without entries: its queries
	// scan the graph.
	IndexMemoryPerRank int
	// Restore, if not empty, is the directory of a checkpoint
	// (Database.Checkpoint) to create the database from. The checkpoint
	// sets the other fields: those that are not zero must equal its
	// values (ErrArgument otherwise), and so must the number of ranks.
	Restore string `json:",omitempty"`
	// Log is the mode of the redo log: LogOff (the zero value, or "off"),
	// LogAsync or LogSync (see "The redo log" in redolog.go). With the log on,
	// every commit of the rank is appended to its log beside the current
	// checkpoint in LogDir, and CreateDatabase, Checkpoint(LogDir) and the
	// collective calls that write holders outside commits (BulkLoad, the
	// CSV loaders, FreeLabel, FreePropertyType, UpdatePropertyType) write
	// a checkpoint to LogDir, which starts the logs anew.
	Log LogMode `json:",omitempty"`
	// LogDir is the directory of the redo log (all ranks must reach it as
	// the same directory). With Restore equal to LogDir, the logs beside
	// the checkpoint are replayed on top of it, whatever Log is: this
	// recovers a database that logged there. With Restore set and LogDir
	// empty or another directory, a restore whose checkpoint has logs
	// with commits after it fails rather than drop them.
	LogDir string `json:",omitempty"`
	// LogCheckpointSize bounds the log: once a rank's log passes this
	// many bytes since the last checkpoint, the database takes a
	// checkpoint to LogDir on its own, while commits go on (autockpt.go),
	// and the log starts anew. Zero means DefaultLogCheckpointSize; a
	// negative size switches automatic checkpoints off.
	LogCheckpointSize int64 `json:",omitempty"`
}

// DefaultLogCheckpointSize is the default of Params.LogCheckpointSize.
const DefaultLogCheckpointSize = 64 << 20

// logCheckpointSize is the bound of the log in bytes, or 0 for none.
func (p Params) logCheckpointSize() int64 {
	switch {
	case p.LogCheckpointSize < 0:
		return 0
	case p.LogCheckpointSize == 0:
		return DefaultLogCheckpointSize
	}
	return p.LogCheckpointSize
}

// Defaults of Params.
const (
	DefaultBlockSize     = 256
	DefaultMemoryPerRank = 8 << 20
	DefaultDHTBuckets    = 4096
	DefaultIndexMemory   = 4 << 20
)

func (p Params) withDefaults() (Params, error) {
	if err := p.checkLog(); err != nil {
		return p, err
	}
	if p.BlockSize == 0 {
		p.BlockSize = DefaultBlockSize
	}
	if p.MemoryPerRank == 0 {
		p.MemoryPerRank = DefaultMemoryPerRank
	}
	if p.IndexMemoryPerRank == 0 {
		p.IndexMemoryPerRank = DefaultIndexMemory
	}
	switch {
	case p.BlockSize < 64 || p.BlockSize > 4096 || p.BlockSize%8 != 0:
		return p, gdi.Errorf(gdi.ErrArgument, "gdirma: block size %d: want a multiple of 8 from 64 to 4096", p.BlockSize)
	case p.MemoryPerRank < 2*p.BlockSize || p.MemoryPerRank/p.BlockSize > 1<<31:
		return p, gdi.Errorf(gdi.ErrArgument, "gdirma: memory per rank %d for blocks of %d bytes", p.MemoryPerRank, p.BlockSize)
	case p.DHTBuckets < 0 || p.DHTBuckets > 1<<28:
		return p, gdi.Errorf(gdi.ErrArgument, "gdirma: %d DHT buckets", p.DHTBuckets)
	case p.DHTEntries < 0 || p.DHTEntries > 1<<30:
		return p, gdi.Errorf(gdi.ErrArgument, "gdirma: %d DHT entries", p.DHTEntries)
	case p.IndexMemoryPerRank < 4*indexNodeSize || p.IndexMemoryPerRank/indexNodeSize > 1<<31:
		return p, gdi.Errorf(gdi.ErrArgument, "gdirma: index memory per rank %d", p.IndexMemoryPerRank)
	}
	if p.DHTEntries == 0 {
		p.DHTEntries = max(64, p.MemoryPerRank/p.BlockSize)
	}
	if p.DHTBuckets == 0 {
		// About one key per bucket when the entries are in use, so that
		// most lookups find their key in the bucket's own entry.
		p.DHTBuckets = min(max(DefaultDHTBuckets, p.DHTEntries/2), 1<<28)
	}
	return p, nil
}

var _ gdi.Driver = Driver{}

// lastTag numbers the databases of the process; rank 0's choice is
// broadcast, so UIDs of two databases differ in their tag.
var lastTag atomic.Uint32

func init() { lastTag.Store(rand.Uint32()) }

// CreateDatabase creates a database over the ranks of comm (collective).
func (Driver) CreateDatabase(comm rma.Comm, params any) (gdi.Database, error) {
	if comm == nil {
		return nil, gdi.Errorf(gdi.ErrArgument, "nil Comm")
	}
	var local error
	var p Params
	switch q := params.(type) {
	case nil:
	case Params:
		p = q
	case *Params:
		if q != nil {
			p = *q
		}
	default:
		local = gdi.Errorf(gdi.ErrArgument, "gdirma does not know parameters of type %T", params)
	}
	if local == nil && p.Restore == "" {
		p, local = p.withDefaults()
	} else if local == nil {
		local = p.checkLog()
	}
	if p.Log == "off" {
		p.Log = LogOff
	}
	tag := uint16(0)
	if comm.Rank() == 0 {
		for tag == 0 {
			tag = uint16(lastTag.Add(1))
		}
	}
	buf := binary.LittleEndian.AppendUint16(nil, tag)
	if err := comm.Bcast(buf, 0); err != nil {
		return nil, gdi.Errorf(gdi.ErrIntern, "gdirma: broadcast of the tag: %w", err)
	}
	tag = binary.LittleEndian.Uint16(buf)
	db := newDatabase(nil, comm)
	if err := db.Agree(fmt.Sprintf("CreateDatabase %+v", p), local); err != nil {
		return nil, err
	}
	if p.Restore != "" {
		if err := db.restore(p); err != nil {
			return nil, err
		}
		db.setHooks()
		if err := db.startLog(); err != nil {
			return nil, errors.Join(err, db.Free())
		}
		return db, nil
	}
	db.params = p
	st, err := newGraph(comm, p, tag, db.labelText)
	if err != nil {
		// Window allocation is collective and fails alike on every rank.
		return nil, gdi.Errorf(gdi.ErrNoMemory, "gdirma: %v", err)
	}
	db.st = st
	db.setHooks()
	if err := db.startLog(); err != nil {
		return nil, errors.Join(err, db.Free())
	}
	return db, nil
}
