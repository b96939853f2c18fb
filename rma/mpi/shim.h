//go:build mpi

// Declarations of the C side of package mpi: thin wrappers that bundle each
// rma operation into one call across cgo, and hide the Open MPI handles that
// are macros (MPI_COMM_WORLD, MPI_UINT64_T, ...) from Go.
#ifndef GDI_MPI_SHIM_H
#define GDI_MPI_SHIM_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

// A word result and the MPI return code of the call that produced it.
typedef struct {
	uint64_t v;
	int rc;
} gdi_word;

// Element types and reductions of gdi_allreduce.
enum { GDI_INT64 = 0, GDI_UINT64 = 1, GDI_DOUBLE = 2 };
enum { GDI_SUM = 0, GDI_MIN = 1, GDI_MAX = 2 };
// Operations of gdi_fetch_op.
enum { GDI_FOP_SUM = 0, GDI_FOP_NO_OP = 1, GDI_FOP_REPLACE = 2 };

// gdi_nop does nothing: benchmarks time it to show the cost of a cgo call.
int gdi_nop(int x);

int gdi_init(int want, int *provided);
int gdi_finalize(void);
void gdi_abort(int code);
int gdi_error_string(int rc, char *buf, int len);

MPI_Comm gdi_comm_world(void);
int gdi_world_size(int *size);
int gdi_world_rank(int *rank);
int gdi_comm_split_world(int color, int key, MPI_Comm *out);
int gdi_comm_free(MPI_Comm *comm);

int gdi_check(MPI_Comm comm, const int64_t *send, int n, int64_t *recv);
int gdi_bcast(MPI_Comm comm, char *buf, size_t n, int root);
int gdi_allreduce(MPI_Comm comm, char *buf, int n, int type, int op);
int gdi_allgather(MPI_Comm comm, const char *send, int n, char *recv);
int gdi_allgatherv(MPI_Comm comm, const char *send, int n, char *recv, const int *counts, const int *displs);
int gdi_alltoall(MPI_Comm comm, const char *send, int blk, char *recv);
int gdi_alltoall_i64(MPI_Comm comm, const int64_t *send, int64_t *recv);
int gdi_alltoallv(MPI_Comm comm, const char *send, const int *scounts, const int *sdispls,
                  char *recv, const int *rcounts, const int *rdispls);

// Node layouts of gdi_node_split.
enum { GDI_WHOLE = 0, GDI_SINGLES = 1, GDI_NODES = 2 };

int gdi_node_split(MPI_Comm comm, int want, int nodeSize, MPI_Comm *node, int *ranks, int *layout);
int gdi_win_allocate_node(MPI_Comm comm, MPI_Comm node, int layout, int allocate, MPI_Aint size,
                          MPI_Win *win, MPI_Win *nodeWin, void **mem, void **bases);
int gdi_win_free(MPI_Win *win, MPI_Win *nodeWin, void *mem);

int gdi_get(MPI_Win win, char *dst, size_t n, int target, MPI_Aint off);
int gdi_put(MPI_Win win, const char *src, size_t n, int target, MPI_Aint off);
int gdi_get_nb(MPI_Win win, char *dst, size_t n, int target, MPI_Aint off);
int gdi_put_nb(MPI_Win win, const char *src, size_t n, int target, MPI_Aint off);
int gdi_flush(MPI_Win win, int target);
int gdi_progress(MPI_Comm comm);
gdi_word gdi_cas(MPI_Win win, int target, MPI_Aint off, uint64_t old, uint64_t new_);
gdi_word gdi_fetch_op(MPI_Win win, int target, MPI_Aint off, uint64_t v, int op);

// An atomic of gdi_atomics: kind is one of GDI_ATOMIC_*, prev receives the
// word found. The layout matches package mpi's batchOp.
typedef struct {
	uint64_t old, arg, prev;
	int64_t offset;
	int32_t target, kind;
} gdi_atomic;
enum { GDI_ATOMIC_CAS = 1, GDI_ATOMIC_FAA = 2, GDI_ATOMIC_GET = 3, GDI_ATOMIC_PUT = 4 };

int gdi_atomics(MPI_Win win, gdi_atomic *ops, int n);

#endif
