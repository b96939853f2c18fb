//go:build mpi

package mpi

/*
#include <stdlib.h>
#include "shim.h"
#cgo nocallback gdi_get_nb
#cgo nocallback gdi_put_nb
*/
import "C"

import (
	"sync"
	"unsafe"
)

// Staged Gets and Puts (see the package doc, "Get, Put and Go memory").
// A Get or Put to a rank reached through MPI, of at most maxStaged bytes,
// goes through C memory of the window's stage for that rank: MPI_Get
// lands there and is copied into the Go buffer at the flush; a Put's data
// is copied there first. MPI then never holds Go memory, and a round of
// Gets or Puts to a rank costs its MPI calls and one MPI_Win_flush instead
// of a flush each.

// maxStaged is the largest Get or Put staged; a larger one completes at
// once, as through shared memory, and uses no staging memory.
const maxStaged = 64 << 10

// stageChunk is the size of the C memory a stage takes at a time.
const stageChunk = 64 << 10

// maxFreeChunks bounds the chunks a window keeps for its stages between
// rounds: its C memory grows with the rounds in flight at once, not with
// the ranks it reaches.
const maxFreeChunks = 16

// chunkPool is a window's C memory for its stages, stageChunk bytes a
// chunk: stages take chunks for a round and give them back when it
// completes.
type chunkPool struct {
	mu   sync.Mutex
	free []unsafe.Pointer
}

func (cp *chunkPool) get() unsafe.Pointer {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	if n := len(cp.free); n > 0 {
		p := cp.free[n-1]
		cp.free = cp.free[:n-1]
		return p
	}
	return C.malloc(stageChunk)
}

// put takes back chunks, freeing those past maxFreeChunks.
func (cp *chunkPool) put(chunks []unsafe.Pointer) {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	for _, p := range chunks {
		if len(cp.free) < maxFreeChunks {
			cp.free = append(cp.free, p)
		} else {
			C.free(p)
		}
	}
}

// release frees every chunk the pool holds.
func (cp *chunkPool) release() {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	for _, p := range cp.free {
		C.free(p)
	}
	cp.free = nil
}

// stage is what the calling rank has issued to one target through MPI
// and not yet completed. Its lock orders issuing against completing:
// a flush completes everything issued before it took the lock.
type stage struct {
	mu      sync.Mutex
	chunks  []unsafe.Pointer // from the window's chunkPool, for this round
	used    int              // bytes used of the last chunk
	gets    []stagedGet      // to copy out at the flush
	pending bool             // issued since the last completion
	_       [24]byte
}

// stagedGet is a Get whose data lands at src, to copy into dst.
type stagedGet struct {
	dst []byte
	src unsafe.Pointer
}

// reserve returns n bytes (n <= stageChunk) of C memory from cp, valid
// until complete.
func (s *stage) reserve(cp *chunkPool, n int) unsafe.Pointer {
	if len(s.chunks) == 0 || s.used+n > stageChunk {
		s.chunks = append(s.chunks, cp.get())
		s.used = 0
	}
	p := unsafe.Add(s.chunks[len(s.chunks)-1], s.used)
	s.used += (n + 7) &^ 7
	return p
}

// bytesAt is the n bytes of C memory at p.
func bytesAt(p unsafe.Pointer, n int) []byte { return unsafe.Slice((*byte)(p), n) }

// complete finishes the operations of s, which MPI has completed: the
// Gets' data is copied out, and the memory goes back to cp.
func (s *stage) complete(cp *chunkPool) {
	for i, g := range s.gets {
		copy(g.dst, bytesAt(g.src, len(g.dst)))
		s.gets[i] = stagedGet{}
	}
	s.gets = s.gets[:0]
	cp.put(s.chunks)
	clear(s.chunks)
	s.chunks = s.chunks[:0]
	s.used, s.pending = 0, false
}

// stagedGetOp issues a Get of len(dst) <= maxStaged bytes to target
// through its stage.
func (w *window) stagedGetOp(dst []byte, target, offset int) C.int {
	s := &w.stages[target]
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.reserve(&w.chunks, len(dst))
	rc := C.gdi_get_nb(w.win, (*C.char)(p), C.size_t(len(dst)), C.int(target), C.MPI_Aint(offset))
	if rc == C.MPI_SUCCESS {
		s.gets = append(s.gets, stagedGet{dst, p})
		s.pending = true
	}
	return rc
}

// stagedPutOp issues a Put of len(src) <= maxStaged bytes to target
// through its stage.
func (w *window) stagedPutOp(src []byte, target, offset int) C.int {
	s := &w.stages[target]
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.reserve(&w.chunks, len(src))
	copy(bytesAt(p, len(src)), src)
	rc := C.gdi_put_nb(w.win, (*C.char)(p), C.size_t(len(src)), C.int(target), C.MPI_Aint(offset))
	if rc == C.MPI_SUCCESS {
		s.pending = true
	}
	return rc
}
