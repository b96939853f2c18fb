package refdb

import (
	"encoding/binary"
	"sync"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Driver is the reference backend. Its zero value is ready to use:
//
//	db, err := refdb.Driver{}.CreateDatabase(comm, nil)
type Driver struct{}

// Params are the parameters of CreateDatabase. There are none yet; nil, a
// Params or a *Params ask for the defaults.
type Params struct{}

var _ gdi.Driver = Driver{}

// registry holds the stores being set up, by number, so that the ranks of
// one CreateDatabase call can find the store rank 0 created.
var registry struct {
	sync.Mutex
	last   uint32
	stores map[uint32]*store
}

// CreateDatabase creates a database over the ranks of comm (collective).
// Rank 0 creates the store and broadcasts its number; the other ranks find
// it in the process-wide registry. If they cannot (the ranks are not
// goroutines of one process), every rank returns an error.
func (Driver) CreateDatabase(comm rma.Comm, params any) (gdi.Database, error) {
	if comm == nil {
		return nil, gdi.Errorf(gdi.ErrArgument, "nil Comm")
	}
	var local error
	switch params.(type) {
	case nil, Params, *Params:
	default:
		local = gdi.Errorf(gdi.ErrArgument, "refdb does not know parameters of type %T", params)
	}
	var num uint32
	if comm.Rank() == 0 {
		registry.Lock()
		registry.last++
		num = registry.last
		if registry.stores == nil {
			registry.stores = map[uint32]*store{}
		}
		registry.stores[num] = newStore(num)
		registry.Unlock()
	}
	buf := binary.LittleEndian.AppendUint32(nil, num)
	if err := comm.Bcast(buf, 0); err != nil {
		return nil, gdi.Errorf(gdi.ErrIntern, "refdb: broadcast of the store: %w", err)
	}
	num = binary.LittleEndian.Uint32(buf)
	registry.Lock()
	st := registry.stores[num]
	registry.Unlock()
	if st == nil && local == nil {
		local = gdi.Errorf(gdi.ErrResource, "refdb: rank %d cannot find store %d: refdb shares Go memory between ranks and runs only on rma/local", comm.Rank(), num)
	}
	db := newDatabase(st, comm)
	err := db.Agree("CreateDatabase", local)
	if comm.Rank() == 0 {
		registry.Lock()
		delete(registry.stores, num)
		registry.Unlock()
	}
	if err != nil {
		return nil, err
	}
	return db, nil
}
