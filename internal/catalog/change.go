package catalog

// The change hook. Every collective call that changes the durable
// metadata (labels, property types, indexes) ends on every rank by
// reporting the change, as a Delta, to the hook the backend set with
// SetChangeHook: a backend with a redo log logs it there, and no other
// way. A mutator therefore has one duty: end with cat.changed(delta).
// TestEveryMutatorReportsItsChange holds the catalog to it, and fails for
// an exported method it does not know, until the method is listed as a
// reader or as a mutator whose deltas it checks.
//
// Constraints and subconstraints are objects of one rank that no
// database keeps; they are not reported.

// SetChangeHook makes the catalog call hook, on every rank, after each
// collective call that changed the durable metadata, with the change.
// The hook may make collective calls. An error of the hook is the
// call's error; the change stays made.
func (cat *Catalog) SetChangeHook(hook func(Delta) error) {
	cat.mu.Lock()
	defer cat.mu.Unlock()
	cat.changeHook = hook
}

// changed reports d to the change hook, if one is set. The caller holds
// no lock.
func (cat *Catalog) changed(d Delta) error {
	cat.mu.RLock()
	hook := cat.changeHook
	cat.mu.RUnlock()
	if hook == nil {
		return nil
	}
	return hook(d)
}
