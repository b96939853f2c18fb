package gdirma

import (
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// conflicted reports whether a committed object the transaction copied
// has changed since, is about to change (another transaction holds its
// lock for writing), or cannot be read now. A copy read under a lock word
// (stamped) is checked against that word alone: every writer moves it. A
// copy the commit locked is checked against the word it locked it from,
// with no access at all. Of other copies the lock, marker and version
// words are read.
func (tx *Transaction) conflicted(st *graph) bool {
	for k := range tx.objs {
		for _, o := range tx.objs[k].all() {
			if o.created || o.ptr == 0 {
				continue // a lightweight edge is validated with its origin
			}
			if !stillCommitted(st, kind(k), o) {
				st.MarkBusy(o.ptr.Holder())
				return true
			}
		}
	}
	return false
}

// stillCommitted reports whether copy o of a holder of kind k is of the
// committed holder, which no other transaction holds for writing. A copy
// stamped with its lock word is checked against that word; if the word
// moved, or o has no stamp, its version decides (the word may move with
// no write, and a stamp taken from a checked block may be stale: see
// store's checked.go).
func stillCommitted(st *graph, k kind, o *txObj) bool {
	if o.stamped {
		if took, held := st.heldWord(o.ptr); held && took == o.stamp {
			return true
		}
		if valid, err := st.StillValid(o.ptr.Holder(), o.stamp); err == nil && valid {
			return true
		}
	}
	return st.hasVersion(k, o.ptr, o.base)
}

// hasVersion reports whether holder n is committed with version v, of
// kind k, and no other transaction holds it for writing.
func (st *graph) hasVersion(k kind, n layout.Number, v store.Version) bool {
	ik, version, ok, locked, err := st.Stamp(n.Holder(), st.held)
	return err == nil && ok && !locked && ik == k && version == v
}

// pendingScans reports whether a query of the transaction must be asked
// again at commit. DHT lookups settled by the version of the vertex they
// found are not kept (see lookupID and validate).
func (tx *Transaction) pendingScans() bool { return len(tx.scans) > 0 }

// validate checks, with the transaction's locks held, that everything it
// read is as it was: the versions of its copies, and the committed matches
// of its scans.
func (tx *Transaction) validate(st *graph) bool {
	if tx.conflicted(st) {
		return false
	}
	// Lookups that found a vertex in the DHT whose copy has the ID are
	// settled by the version check above (and not kept): while the
	// vertex keeps its ID, the DHT names it and nothing else. Other DHT
	// lookups are made again; scans only if some rank committed since
	// the first of them.
	if !tx.pendingScans() {
		return true
	}
	rescan := true
	if tx.epochSet {
		if now, err := st.Commits(); err == nil && now == tx.epoch {
			rescan = false
		}
	}
	for _, s := range tx.scans {
		if !rescan && s.global() {
			continue
		}
		now, err := s.eval(st)
		if err != nil || len(now) != len(s.seen) {
			return false
		}
		for n := range now {
			if _, ok := s.seen[n]; !ok {
				return false
			}
		}
	}
	return true
}
