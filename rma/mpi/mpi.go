//go:build mpi

package mpi

/*
#cgo pkg-config: ompi
#include "shim.h"
#cgo nocallback gdi_nop
*/
import "C"

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"unsafe"

	"github.com/gdi-go/gdi/rma"
)

// BuiltIn reports whether this binary was built with the mpi tag.
const BuiltIn = true

// ErrFinalized reports a Run after Finalize: MPI cannot be started twice in
// one process.
var ErrFinalized = errors.New("mpi: MPI already finalized")

// The MPI library is started once per process, on the first Run, and shut
// down by Finalize. Both happen on one locked OS thread, the thread MPI calls
// the main thread.
var (
	initOnce  sync.Once
	initErr   error
	worldRank int
	worldSize int

	stateMu   sync.Mutex
	finalized bool
	mainReq   chan func() // work for the main MPI thread; nil before init
	runMu     sync.Mutex  // one Run at a time per process
)

// startMPI initializes MPI at the thread level of GDI_MPI_THREAD on a
// goroutine that keeps its OS thread for the life of the process.
func startMPI() {
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		initErr = errors.New("mpi: rma words are little-endian and MPI's atomics work on native words; this host is big-endian")
		return
	}
	level, err := threadSetting()
	if err != nil {
		initErr = err
		return
	}
	if initErr = oscRefusal(level); initErr != nil {
		return
	}
	oscDefault()
	ucxSignals()
	ucxAtomics()
	mainReq = make(chan func())
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread() // never unlocked: this thread is MPI's main thread
		want := C.int(C.MPI_THREAD_SERIALIZED)
		if level == threadMultiple {
			want = C.MPI_THREAD_MULTIPLE
		}
		var provided C.int
		if rc := C.gdi_init(want, &provided); rc != C.MPI_SUCCESS {
			initErr = fmt.Errorf("mpi: MPI_Init_thread: %w", mpiError(rc))
		} else if provided < want {
			initErr = fmt.Errorf("mpi: MPI_Init_thread provided thread level %d, GDI_MPI_THREAD=%v needs %d",
				int(provided), level, int(want))
		} else {
			var r, s C.int
			if rc := C.gdi_world_rank(&r); rc != C.MPI_SUCCESS {
				initErr = fmt.Errorf("mpi: MPI_Comm_rank: %w", mpiError(rc))
			} else if rc := C.gdi_world_size(&s); rc != C.MPI_SUCCESS {
				initErr = fmt.Errorf("mpi: MPI_Comm_size: %w", mpiError(rc))
			}
			worldRank, worldSize = int(r), int(s)
			if initErr == nil {
				initErr = checkNodeComponents()
			}
		}
		close(done)
		for f := range mainReq {
			f()
		}
	}()
	<-done
}

// onMainThread runs f on MPI's main thread and waits for it.
func onMainThread(f func()) {
	done := make(chan struct{})
	mainReq <- func() { f(); close(done) }
	<-done
}

// Finalize shuts MPI down. Call it once, on every process, after the last
// Run, before the program exits: Open MPI's mpirun counts a process that
// exits without finalizing as failed (unless started with
// --mca orte_allowed_exit_without_sync 1). It is collective over all
// processes of the job. A Run after Finalize returns ErrFinalized. Finalize
// without a Run before it does nothing; a second Finalize does nothing.
func Finalize() error {
	runMu.Lock()
	defer runMu.Unlock()
	stateMu.Lock()
	defer stateMu.Unlock()
	if finalized {
		return nil
	}
	finalized = true
	if mainReq == nil || initErr != nil {
		return nil
	}
	printStats(os.Stderr)
	var rc C.int
	onMainThread(func() { rc = C.gdi_finalize() })
	if rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: MPI_Finalize: %w", mpiError(rc))
	}
	return nil
}

// WorldRank and WorldSize are the process's rank in MPI_COMM_WORLD and the
// number of processes, starting MPI if needed.
func WorldRank() (int, error) {
	err := ensureInit()
	return worldRank, err
}

// WorldSize is the number of processes of the MPI job; see WorldRank.
func WorldSize() (int, error) {
	err := ensureInit()
	return worldSize, err
}

func ensureInit() error {
	stateMu.Lock()
	fin := finalized
	stateMu.Unlock()
	if fin {
		return ErrFinalized
	}
	initOnce.Do(startMPI)
	return initErr
}

// Start starts MPI, if it is not yet, and returns why it cannot serve: a
// program (or a test binary's TestMain) that calls it first stops at once
// with the reason, rather than failing at its first window.
func Start() error { return ensureInit() }

// Run is the rma.Launcher of the MPI backend. Every process of the job calls
// it with the same n and fn, in the same order as its other Runs.
//
// With n equal to the number of processes, fn runs on all of them with a
// communicator duplicated from MPI_COMM_WORLD. With fewer, processes 0..n-1
// run fn on a communicator of their own and the others return nil at once.
// With more, Run returns an error wrapping rma.ErrRanks on every process.
//
// Run returns the error of fn, wrapped with the rank; a process whose fn
// succeeded while another rank's failed returns an error wrapping
// rma.ErrAborted, so all ranks agree on failure. Collectives that a peer
// never joins because it returned fail with rma.ErrAborted instead of
// hanging. A panic in fn prints the panic and stack, then aborts the whole
// job with MPI_Abort, since the peers could not continue without this rank.
//
// Runs must not overlap within a process: a Run while another is active
// (concurrent, or nested in fn) returns an error wrapping rma.ErrArgument.
func Run(n int, fn func(rma.Comm) error) error {
	if n < 1 {
		return fmt.Errorf("%w: mpi.Run needs at least one rank, got %d", rma.ErrArgument, n)
	}
	if !runMu.TryLock() {
		return fmt.Errorf("%w: mpi.Run called while another Run of this process is active; MPI runs are collective over all processes and cannot overlap", rma.ErrArgument)
	}
	defer runMu.Unlock()
	if err := ensureInit(); err != nil {
		return err
	}
	if n > worldSize {
		return fmt.Errorf("%w: %d ranks asked of an MPI job of %d processes (mpirun -n)", rma.ErrRanks, n, worldSize)
	}
	color := C.int(-1)
	if worldRank < n {
		color = 0
	}
	var mc C.MPI_Comm
	if rc := C.gdi_comm_split_world(color, C.int(worldRank), &mc); rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: MPI_Comm_split: %w", mpiError(rc))
	}
	if worldRank >= n {
		return nil
	}
	c := &comm{c: mc, node: C.MPI_COMM_NULL, rank: worldRank, size: n}
	if err := c.splitNodes(); err != nil {
		return errors.Join(err, c.finish(nil))
	}
	err := runRank(c, fn)
	return c.finish(err)
}

func runRank(c *comm, fn func(rma.Comm) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "rma/mpi: rank %d (world rank %d) panicked: %v\n%s\naborting the MPI job\n",
				c.rank, worldRank, p, debug.Stack())
			C.gdi_abort(2)
			os.Exit(2) // not reached: MPI_Abort ends the process
		}
	}()
	if err := fn(c); err != nil {
		return fmt.Errorf("rank %d: %w", c.rank, err)
	}
	return nil
}

// mpiError turns an MPI return code into an error with MPI's own text.
func mpiError(rc C.int) error {
	var buf [C.MPI_MAX_ERROR_STRING]C.char
	n := C.gdi_error_string(rc, &buf[0], C.int(len(buf)))
	if n <= 0 {
		return fmt.Errorf("MPI error %d", int(rc))
	}
	return fmt.Errorf("MPI error %d: %s", int(rc), C.GoStringN(&buf[0], n))
}

// cbytes is the address of b's first byte for a C call, or nil if b is
// empty. It is typed as a char pointer, not unsafe.Pointer: memory of a
// pointer-free type needs no cgo pointer check, which would otherwise look
// the buffer up in the heap on every call (a quarter of the cost of a Get).
func cbytes(b []byte) *C.char {
	if len(b) == 0 {
		return nil
	}
	return (*C.char)(unsafe.Pointer(unsafe.SliceData(b)))
}

// cgoNop makes one cgo call to a C function that does nothing; its
// benchmark is the floor under every operation of this package.
func cgoNop(x int) int { return int(C.gdi_nop(C.int(x))) }
