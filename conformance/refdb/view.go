package refdb

// A transaction sees the committed records overlaid with its cache. The
// first read of an object puts the committed record into the cache and
// remembers it as seen; later reads return the cached one, so reads repeat.
// A write replaces the cached record with a private copy (mine); commit
// installs the private copies once it has checked that every seen record
// is still the committed one.

// cached is an object in a transaction's cache.
type cached struct {
	seen *record // the committed record read first; nil if created here
	cur  *record // the record as the transaction sees it; nil if deleted
	mine bool    // cur is the transaction's own (created, changed or deleted)
}

// read returns object n as the transaction sees it, or nil if the
// transaction sees no such object. An object that is missing from the
// store although this transaction gave out its UID was deleted by a
// concurrent transaction: a transaction-critical error. The caller holds
// mu.
func (tx *Transaction) read(k kind, n uint64) (*record, error) {
	if c := tx.cache[k][n]; c != nil {
		return c.cur, nil
	}
	s := tx.db.store
	s.mu.Lock()
	r := s.get(k, n)
	s.mu.Unlock()
	if r == nil {
		if tx.handed[k][n] {
			return nil, tx.fail("%v %d was deleted by a concurrent transaction", k, n)
		}
		return nil, nil
	}
	tx.cache[k][n] = &cached{seen: r, cur: r}
	return r, nil
}

// follow reads an object that a record of the transaction refers to (an
// end of an edge, an edge of a vertex). If it is missing, the
// transaction's view mixes states of different commits: a
// transaction-critical error.
func (tx *Transaction) follow(k kind, n uint64) (*record, error) {
	r, err := tx.read(k, n)
	if err == nil && r == nil {
		err = tx.fail("%v %d, referred to by an object this transaction read, was deleted by a concurrent transaction", k, n)
	}
	return r, err
}

// write returns the transaction's own copy of object n, which it read
// before and found. The caller holds mu.
func (tx *Transaction) write(k kind, n uint64) *record {
	c := tx.cache[k][n]
	if !c.mine {
		c.cur = c.cur.clone()
		c.mine = true
	}
	return c.cur
}

// create adds a new object to the transaction and returns its number.
func (tx *Transaction) create(k kind, r *record) uint64 {
	n := tx.db.store.newNumber()
	tx.cache[k][n] = &cached{cur: r, mine: true}
	tx.hand(k, n)
	return n
}

// remove deletes object n, which the transaction read before and found.
func (tx *Transaction) remove(k kind, n uint64) {
	c := tx.cache[k][n]
	c.cur, c.mine = nil, true
}

// hand notes that the transaction gave out the UID of object n.
func (tx *Transaction) hand(k kind, n uint64) { tx.handed[k][n] = true }

// handAll is hand for several objects, returning them.
func (tx *Transaction) handAll(k kind, ns []uint64) []uint64 {
	for _, n := range ns {
		tx.hand(k, n)
	}
	return ns
}
