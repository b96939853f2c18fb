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

// Params are the parameters of CreateDatabase. There are none: nil, a
// Params or a *Params all ask for the one configuration refdb has.
type Params struct{}

// registry holds the stores of the open databases of the process by
// number, so that the ranks of a database (goroutines of this process)
// find the store rank 0 made.
var registry = struct {
	sync.Mutex
	last   uint32
	stores map[uint32]*store
}{stores: map[uint32]*store{}}

func register() *store {
	registry.Lock()
	defer registry.Unlock()
	registry.last++
	s := newStore(registry.last)
	registry.stores[s.number] = s
	return s
}

func lookup(number uint32) *store {
	registry.Lock()
	defer registry.Unlock()
	return registry.stores[number]
}

func unregister(number uint32) {
	registry.Lock()
	defer registry.Unlock()
	delete(registry.stores, number)
}

// CreateDatabase creates a database over the ranks of comm (collective).
// Rank 0 makes the store and sends its number to the others, which find it
// in the registry. Ranks that are not goroutines of one process cannot
// find it, and then every rank fails with ErrResource.
func (Driver) CreateDatabase(comm rma.Comm, params any) (gdi.Database, error) {
	var s *store
	if comm.Rank() == 0 {
		s = register()
	}
	buf := make([]byte, 4)
	if s != nil {
		binary.LittleEndian.PutUint32(buf, s.number)
	}
	if err := comm.Bcast(buf, 0); err != nil {
		return nil, gdi.Errorf(gdi.ErrIntern, "CreateDatabase: %w", err)
	}
	verdict := checkParams(params)
	if s = lookup(binary.LittleEndian.Uint32(buf)); s == nil && verdict == nil {
		verdict = gdi.Errorf(gdi.ErrResource, "CreateDatabase: the store of rank 0 is not in this process: refdb needs ranks that are goroutines of one process")
	}
	if err := agree(comm, "CreateDatabase", verdict); err != nil {
		if comm.Rank() == 0 {
			unregister(binary.LittleEndian.Uint32(buf))
		}
		return nil, err
	}
	return newDatabase(comm, s), nil
}

func checkParams(params any) error {
	switch params.(type) {
	case nil, Params, *Params:
		return nil
	}
	return gdi.Errorf(gdi.ErrArgument, "CreateDatabase: refdb takes no parameters of type %T", params)
}
