package rma

// Prefetcher is an optional capability of a Window whose memory the
// calling process reaches directly: rma/local, and rma/mpi when all ranks
// share a node. Prefetch asks the processor to start loading bytes
// [offset, offset+n) of target's part into its cache and returns at once,
// so that a Get of them a little later need not wait for memory: the
// caller overlaps the wait with other work, or with other misses.
//
// It is a hint. It copies and completes nothing, so it orders nothing and
// races with no writer; it reports no error (a range outside the window,
// or a freed window, is ignored); and it may do nothing at all, on a
// processor without a prefetch instruction. Callers find it by type
// assertion and go without where a window lacks it.
type Prefetcher interface {
	Prefetch(target, offset, n int)
}
