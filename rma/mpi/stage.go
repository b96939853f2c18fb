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

// stageChunk is the size of the C memory a stage allocates at a time.
const stageChunk = 64 << 10

// stage is what the calling rank has issued to one target through MPI
// and not yet completed. Its lock orders issuing against completing:
// a flush completes everything issued before it took the lock.
type stage struct {
	mu      sync.Mutex
	chunks  []unsafe.Pointer // C memory of stageChunk bytes each
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

// reserve returns n bytes (n <= stageChunk) of C memory, valid until
// complete.
func (s *stage) reserve(n int) unsafe.Pointer {
	if len(s.chunks) == 0 || s.used+n > stageChunk {
		s.chunks = append(s.chunks, C.malloc(stageChunk))
		s.used = 0
	}
	p := unsafe.Add(s.chunks[len(s.chunks)-1], s.used)
	s.used += (n + 7) &^ 7
	return p
}

// bytes is the n bytes of C memory at p.
func bytesAt(p unsafe.Pointer, n int) []byte { return unsafe.Slice((*byte)(p), n) }

// complete finishes the operations of s, which MPI has completed: the
// Gets' data is copied out, and the memory is kept for the next round
// (one chunk; a stage that needed more frees the rest).
func (s *stage) complete() {
	for i, g := range s.gets {
		copy(g.dst, bytesAt(g.src, len(g.dst)))
		s.gets[i] = stagedGet{}
	}
	s.gets = s.gets[:0]
	for _, p := range s.chunks[min(1, len(s.chunks)):] {
		C.free(p)
	}
	s.chunks = s.chunks[:min(1, len(s.chunks))]
	s.used, s.pending = 0, false
}

// free gives back the C memory of s, which must have nothing pending.
func (s *stage) free() {
	for _, p := range s.chunks {
		C.free(p)
	}
	s.chunks = nil
}

// stagedGetOp issues a Get of len(dst) <= maxStaged bytes to target
// through its stage.
func (w *window) stagedGetOp(dst []byte, target, offset int) C.int {
	s := &w.stages[target]
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.reserve(len(dst))
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
	p := s.reserve(len(src))
	copy(bytesAt(p, len(src)), src)
	rc := C.gdi_put_nb(w.win, (*C.char)(p), C.size_t(len(src)), C.int(target), C.MPI_Aint(offset))
	if rc == C.MPI_SUCCESS {
		s.pending = true
	}
	return rc
}
