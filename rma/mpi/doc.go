// Package mpi runs rma ranks as Open MPI processes. It is compiled only with
// the build tag mpi; without it, Run reports rma.ErrNotBuiltIn and BuiltIn is
// false, so a plain go build needs no MPI installation. README.md beside this
// file gives the mpirun command line and its pitfalls.
//
// # Processes and runs
//
// MPI is initialized on the first Run, once per process, at the thread
// level GDI_MPI_THREAD names. The default, serialized
// (MPI_THREAD_SERIALIZED), lets one goroutine at a time into MPI: the C
// shim holds a lock around each call, and waits for a collective with the
// lock let go between tests, so that a rank's other goroutines can make
// the one-sided calls the peers may be waiting for before they join it.
// GDI_MPI_THREAD=multiple asks for MPI_THREAD_MULTIPLE and no lock. A
// library that does not provide the level asked for is reported as an
// error. Run(n, fn) is collective over all processes of
// the job: each call splits MPI_COMM_WORLD so that world ranks 0..n-1 run fn
// on a communicator of their own, and the other processes return nil. Runs
// may follow each other in one process as often as needed (tests do); they
// must not overlap. Finalize shuts MPI down after the last Run; a program
// should call it on every process before exiting, because mpirun reports a
// process that exits without it as failed. A panic in fn prints the stack
// and ends the whole job with MPI_Abort: a peer cannot go on without the
// rank, and would otherwise hang in its next collective.
//
// # Collectives
//
// Every collective begins with the same MPI call: an allgather of a small
// record per rank holding the collective's kind, the rank's verdict on its
// own arguments, and the sizes that must match. Data moves only when all
// records agree, so that, as with rma/local, a bad argument on one rank fails
// the collective on every rank with the same sentinel error, and mismatched
// calls return rma.ErrArgument instead of corrupting buffers or deadlocking
// in MPI. When fn returns, its rank keeps answering these allgathers with an
// "exit" record until every rank has returned; a peer's collective that meets
// such a record fails with rma.ErrAborted instead of hanging, and every rank
// learns whose fn failed. The price is one small allgather per collective,
// on top of the MPI collective that moves the data (Barrier is the
// allgather alone). MPI counts are C ints: one collective moves at most 2 GiB
// per buffer, and Allgatherv and Alltoallv at most 2 GiB in all; larger
// requests fail with rma.ErrArgument on every rank. AllreduceFloat64 sums in
// the order of Open MPI's algorithm, which may round differently from the
// rank-order sum of rma/local.
//
// # Windows
//
// A window's memory belongs to MPI, never to the Go heap, and the window
// is kept in an MPI_Win_lock_all epoch from allocation until Free. Ranks
// are grouped into nodes (node.go): a rank reaches its own part and the
// parts of its node's ranks directly, with copies and CPU atomics as in
// rma/local, and other nodes' ranks through MPI's one-sided calls. With
// every rank on one node no call reaches MPI; with GDI_MPI_SHM=0 every
// rank is a node of its own. What follows about the atomics and about Get
// and Put describes the MPI calls. Arguments are checked in Go before any
// access, with the errors of rma/local. Windows still open when Run returns
// are released then, and report rma.ErrFreed afterwards.
//
// # Progress
//
// Over osc ucx (and any component whose atomics the target's CPU carries
// out) a process serves the one-sided operations aimed at it only while
// it is inside an MPI call. So the package makes MPI calls on behalf of
// the ranks that wait or poll: windows implement rma.Idler, whose Idle
// runs MPI's progress engine for the time of a wait (txn's lock waits
// use it), and every pollEvery-th atomic on a directly mapped part runs
// it once, so a rank spinning on a word of its own lets other nodes'
// writes in. README.md gives the measurements behind this.
//
// The atomics are MPI_Compare_and_swap and MPI_Fetch_and_op on MPI_UINT64_T
// (MPI_SUM for FetchAndAdd, MPI_NO_OP for AtomicGet, MPI_REPLACE for
// AtomicPut), each followed by MPI_Win_flush to the target in the same C
// call, so the result is complete when the method returns. Words are native
// uint64s, hence little-endian as rma requires on the hosts Go and Open MPI
// share; Run refuses to start on a big-endian host.
//
// # Get, Put and Go memory
//
// rma's Get and Put are non-blocking until Flush, but the buffers are Go
// memory, and cgo forbids C code from keeping a Go pointer after the call
// that received it returns: MPI would write a Get's data into, or read a
// Put's data from, memory the garbage collector considers unreferenced by C.
// This package keeps MPI from ever holding a Go pointer across calls by
// staging (stage.go):
//
//   - a Get of a rank reached through MPI lands in C memory of the
//     window's stage for that rank, and is copied into dst by the flush
//     that completes it;
//   - a Put's data is copied into the stage, and MPI_Put reads it from
//     there: the caller may reuse src at once, and the data is visible at
//     the target after Flush or FlushAll;
//   - Flush issues MPI_Win_flush only if something is staged for the
//     target, and a batch of atomics completes the stages of its targets
//     too.
//
// A round of Gets or Puts to a rank is thus its MPI calls and one flush,
// and overlaps across a network. Gets and Puts larger than maxStaged are
// not staged: they complete at once in the same C call (MPI_Win_flush_local),
// as all of them did before staging, so they need no C memory. The stage
// of a rank has a lock, since Flush must complete the operations of every
// goroutine: issuing and completing are ordered by it. Ranks whose memory
// this process maps (node.go) are read and written directly, with no MPI
// call and no stage.
//
// Byte buffers cross cgo as char pointers rather than unsafe.Pointer, which
// spares the runtime's pointer check per call, and each operation is one cgo
// call. That call (about 35-45 ns here, see BenchmarkCgoCall) is the fixed
// cost of the Go layer; make bench-mpi shows it next to the same operations
// issued from C (testdata/latency.c).
package mpi
