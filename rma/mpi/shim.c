//go:build mpi

#include "shim.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

// Largest element count passed to one MPI call; byte ranges beyond it are
// split, since MPI counts are C ints.
#define GDI_CHUNK ((size_t)1 << 30)

// A tag no message is sent with; see gdi_progress.
#define GDI_PROGRESS_TAG 32000

int gdi_nop(int x) { return x; }

// The thread level. Under MPI_THREAD_SERIALIZED (gdi_serialized) the shim
// lets one thread at a time into MPI: every entry point holds gdi_mu while
// it calls MPI. A blocking collective would hold it until the other ranks
// arrive, and their arrival may wait on a lock word that this process's
// other goroutines must release through MPI; so collectives are started
// nonblocking and waited for in gdi_wait, which lets go between tests.
// Window and communicator creation hold gdi_mu throughout: they happen
// before a database is used.
static pthread_mutex_t gdi_mu = PTHREAD_MUTEX_INITIALIZER;
static int gdi_serialized;

static void enter(void) {
	if (gdi_serialized) {
		pthread_mutex_lock(&gdi_mu);
	}
}

static void leave(void) {
	if (gdi_serialized) {
		pthread_mutex_unlock(&gdi_mu);
	}
}

// gdi_wait completes *req, started by the caller under enter() with
// return code rc, and returns the first error.
static int gdi_wait(int rc, MPI_Request *req) {
	if (rc != MPI_SUCCESS) {
		return rc;
	}
	if (!gdi_serialized) {
		return MPI_Wait(req, MPI_STATUS_IGNORE);
	}
	for (;;) {
		int done = 0;
		enter();
		rc = MPI_Test(req, &done, MPI_STATUS_IGNORE);
		leave();
		if (rc != MPI_SUCCESS || done) {
			return rc;
		}
		sched_yield();
	}
}

int gdi_init(int want, int *provided) {
	int done = 0;
	MPI_Initialized(&done);
	if (done) {
		return MPI_Query_thread(provided);
	}
	// Open MPI replaces the handlers of SIGSEGV, SIGBUS, SIGFPE and SIGABRT
	// with its own backtrace printers, which would turn Go's nil-dereference
	// panics into process crashes. Keep Go's handlers unless the user chose.
	setenv("OMPI_MCA_opal_signal", "", 0);
	gdi_serialized = want < MPI_THREAD_MULTIPLE;
	int rc = MPI_Init_thread(NULL, NULL, want, provided);
	if (rc == MPI_SUCCESS) {
		// Errors are returned to Go as error values rather than aborting.
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	}
	return rc;
}

int gdi_finalize(void) {
	int done = 0;
	MPI_Finalized(&done);
	if (done) {
		return MPI_SUCCESS;
	}
	enter();
	int rc = MPI_Finalize();
	leave();
	return rc;
}

// gdi_abort takes no lock: a rank that panics must end the job even while
// another of its goroutines is inside MPI.
void gdi_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

int gdi_error_string(int rc, char *buf, int len) {
	int n = 0;
	char tmp[MPI_MAX_ERROR_STRING];
	enter();
	int erc = MPI_Error_string(rc, tmp, &n);
	leave();
	if (erc != MPI_SUCCESS) {
		return 0;
	}
	if (n >= len) {
		n = len - 1;
	}
	memcpy(buf, tmp, n);
	buf[n] = 0;
	return n;
}

MPI_Comm gdi_comm_world(void) { return MPI_COMM_WORLD; }
int gdi_world_size(int *size) { return MPI_Comm_size(MPI_COMM_WORLD, size); }
int gdi_world_rank(int *rank) { return MPI_Comm_rank(MPI_COMM_WORLD, rank); }

int gdi_comm_split_world(int color, int key, MPI_Comm *out) {
	enter();
	int rc = MPI_Comm_split(MPI_COMM_WORLD, color < 0 ? MPI_UNDEFINED : color, key, out);
	if (rc == MPI_SUCCESS && *out != MPI_COMM_NULL) {
		rc = MPI_Comm_set_errhandler(*out, MPI_ERRORS_RETURN);
	}
	leave();
	return rc;
}

int gdi_comm_free(MPI_Comm *comm) {
	enter();
	int rc = MPI_Comm_free(comm);
	leave();
	return rc;
}

int gdi_check(MPI_Comm comm, const int64_t *send, int n, int64_t *recv) {
	MPI_Request req;
	enter();
	int rc = MPI_Iallgather(send, n, MPI_INT64_T, recv, n, MPI_INT64_T, comm, &req);
	leave();
	return gdi_wait(rc, &req);
}

int gdi_bcast(MPI_Comm comm, char *buf, size_t n, int root) {
	char *p = buf;
	do {
		size_t k = n < GDI_CHUNK ? n : GDI_CHUNK;
		MPI_Request req;
		enter();
		int rc = MPI_Ibcast(p, (int)k, MPI_BYTE, root, comm, &req);
		leave();
		if ((rc = gdi_wait(rc, &req)) != MPI_SUCCESS) {
			return rc;
		}
		p += k;
		n -= k;
	} while (n > 0);
	return MPI_SUCCESS;
}

int gdi_allreduce(MPI_Comm comm, char *buf, int n, int type, int op) {
	MPI_Datatype t = type == GDI_INT64 ? MPI_INT64_T : type == GDI_UINT64 ? MPI_UINT64_T : MPI_DOUBLE;
	MPI_Op o = op == GDI_SUM ? MPI_SUM : op == GDI_MIN ? MPI_MIN : MPI_MAX;
	MPI_Request req;
	enter();
	int rc = MPI_Iallreduce(MPI_IN_PLACE, buf, n, t, o, comm, &req);
	leave();
	return gdi_wait(rc, &req);
}

int gdi_allgather(MPI_Comm comm, const char *send, int n, char *recv) {
	MPI_Request req;
	enter();
	int rc = MPI_Iallgather(send, n, MPI_BYTE, recv, n, MPI_BYTE, comm, &req);
	leave();
	return gdi_wait(rc, &req);
}

int gdi_allgatherv(MPI_Comm comm, const char *send, int n, char *recv, const int *counts, const int *displs) {
	MPI_Request req;
	enter();
	int rc = MPI_Iallgatherv(send, n, MPI_BYTE, recv, counts, displs, MPI_BYTE, comm, &req);
	leave();
	return gdi_wait(rc, &req);
}

int gdi_alltoall(MPI_Comm comm, const char *send, int blk, char *recv) {
	MPI_Request req;
	enter();
	int rc = MPI_Ialltoall(send, blk, MPI_BYTE, recv, blk, MPI_BYTE, comm, &req);
	leave();
	return gdi_wait(rc, &req);
}

int gdi_alltoall_i64(MPI_Comm comm, const int64_t *send, int64_t *recv) {
	MPI_Request req;
	enter();
	int rc = MPI_Ialltoall(send, 1, MPI_INT64_T, recv, 1, MPI_INT64_T, comm, &req);
	leave();
	return gdi_wait(rc, &req);
}

int gdi_alltoallv(MPI_Comm comm, const char *send, const int *scounts, const int *sdispls,
                  char *recv, const int *rcounts, const int *rdispls) {
	MPI_Request req;
	enter();
	int rc = MPI_Ialltoallv(send, scounts, sdispls, MPI_BYTE, recv, rcounts, rdispls, MPI_BYTE, comm, &req);
	leave();
	return gdi_wait(rc, &req);
}

// window_info makes the hints of every window: every rank allocates the
// same size with the same displacement unit; plus the hint key=value.
static int window_info(const char *key, const char *value, MPI_Info *info) {
	int rc = MPI_Info_create(info);
	if (rc != MPI_SUCCESS) {
		return rc;
	}
	MPI_Info_set(*info, "same_size", "true");
	MPI_Info_set(*info, "same_disp_unit", "true");
	MPI_Info_set(*info, key, value);
	return MPI_SUCCESS;
}

// window_open finishes a window just allocated, whose own part is base:
// errors are returned, the part is zeroed, and the window is locked for
// all ranks. On failure the window is freed.
static int window_open(MPI_Comm comm, MPI_Win *win, void *base, MPI_Aint size) {
	MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN);
	if (size > 0) {
		memset(base, 0, (size_t)size);
	}
	int rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, *win);
	if (rc != MPI_SUCCESS) {
		MPI_Win_free(win);
		return rc;
	}
	// Nobody may reach a peer's memory before the peer has zeroed it.
	rc = MPI_Barrier(comm);
	if (rc != MPI_SUCCESS) {
		MPI_Win_unlock_all(*win);
		MPI_Win_free(win);
	}
	return rc;
}

// gdi_node_split makes *node, the communicator of the ranks of comm on
// this rank's node, which reach each other's windows directly: the ranks
// that share memory with it, cut into pretend nodes of nodeSize
// consecutive ranks of comm if nodeSize > 0, or this rank alone if want
// is 0. ranks (comm's size) receives the comm rank of each node rank, and
// *layout, the same on every rank, is GDI_SINGLES if every node holds one
// rank, else GDI_WHOLE if the node holds all of comm, else GDI_NODES.
static int node_split(MPI_Comm comm, int want, int nodeSize, MPI_Comm *node, int *ranks, int *layout) {
	MPI_Comm shm;
	int rank, size, n, rc;
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	rc = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shm);
	if (rc != MPI_SUCCESS) {
		return rc;
	}
	int color = !want ? rank : nodeSize > 0 ? rank / nodeSize : 0;
	rc = MPI_Comm_split(shm, color, rank, node);
	MPI_Comm_free(&shm);
	if (rc != MPI_SUCCESS) {
		return rc;
	}
	MPI_Comm_set_errhandler(*node, MPI_ERRORS_RETURN);
	MPI_Comm_size(*node, &n);
	rc = MPI_Allgather(&rank, 1, MPI_INT, ranks, 1, MPI_INT, *node);
	int largest = n;
	if (rc == MPI_SUCCESS) {
		rc = MPI_Allreduce(&n, &largest, 1, MPI_INT, MPI_MAX, comm);
	}
	*layout = largest == 1 ? GDI_SINGLES : largest == size ? GDI_WHOLE : GDI_NODES;
	if (rc != MPI_SUCCESS) {
		MPI_Comm_free(node);
	}
	return rc;
}

int gdi_node_split(MPI_Comm comm, int want, int nodeSize, MPI_Comm *node, int *ranks, int *layout) {
	enter();
	int rc = node_split(comm, want, nodeSize, node, ranks, layout);
	leave();
	return rc;
}

// comm_window makes *win over comm on this rank's part *base: with
// MPI_Win_allocate, which also makes the part, if allocate; otherwise with
// MPI_Win_create on the part given.
static int comm_window(MPI_Comm comm, int allocate, MPI_Aint size, void **base, MPI_Win *win) {
	MPI_Info info;
	// The library need not order accumulates (the atomics) issued by one
	// origin among themselves.
	int rc = window_info("accumulate_ordering", "none", &info);
	if (rc != MPI_SUCCESS) {
		return rc;
	}
	rc = allocate ? MPI_Win_allocate(size, 1, info, comm, base, win)
	              : MPI_Win_create(*base, size, 1, info, comm, win);
	MPI_Info_free(&info);
	return rc;
}

// node_memory makes the parts of node's n ranks with
// MPI_Win_allocate_shared (*nodeWin), and their addresses in bases.
static int node_memory(MPI_Comm node, int n, MPI_Aint size, MPI_Win *nodeWin, void **bases) {
	MPI_Info info;
	// Each rank's part on its own pages, first touched by its owner.
	int rc = window_info("alloc_shared_noncontig", "true", &info);
	if (rc != MPI_SUCCESS) {
		return rc;
	}
	rc = MPI_Win_allocate_shared(size, 1, info, node, &bases[0], nodeWin);
	MPI_Info_free(&info);
	for (int r = 0; r < n && rc == MPI_SUCCESS; r++) {
		MPI_Aint sz;
		int du;
		rc = MPI_Win_shared_query(*nodeWin, r, &sz, &du, &bases[r]);
	}
	return rc;
}

// gdi_win_allocate_node allocates a window of size bytes per rank of comm
// and maps the parts of the ranks of node (from gdi_node_split): bases
// receives the address of each node rank's part, through which this
// process reaches them directly, and *win is the window over comm through
// which the other nodes' ranks are reached. Every rank of comm makes the
// same collective calls, chosen by layout (from gdi_node_split):
//   - GDI_SINGLES: each rank maps its own part, from MPI_Win_allocate over
//     comm if allocate, else from MPI_Alloc_mem (*mem) with MPI_Win_create,
//     which osc sm does not take (its atomics are not the CPU's);
//   - GDI_WHOLE: the memory comes from MPI_Win_allocate_shared over node
//     (osc sm), and *win is that window;
//   - GDI_NODES: the same, *nodeWin is that window, and *win is made on
//     the same memory with MPI_Win_create.
// Freed with gdi_win_free.
static int win_allocate_node(MPI_Comm comm, MPI_Comm node, int layout, int allocate, MPI_Aint size,
                          MPI_Win *win, MPI_Win *nodeWin, void **mem, void **bases) {
	int n, me, rc = MPI_SUCCESS;
	*nodeWin = MPI_WIN_NULL;
	*mem = NULL;
	MPI_Comm_size(node, &n);
	MPI_Comm_rank(node, &me);
	allocate = allocate && layout == GDI_SINGLES;
	if (layout != GDI_SINGLES) {
		rc = node_memory(node, n, size, nodeWin, bases);
	} else if (!allocate) {
		rc = MPI_Alloc_mem(size > 0 ? size : 8, MPI_INFO_NULL, mem);
		bases[0] = *mem;
	}
	if (rc == MPI_SUCCESS && layout == GDI_WHOLE) {
		*win = *nodeWin;
		*nodeWin = MPI_WIN_NULL;
	} else if (rc == MPI_SUCCESS) {
		rc = comm_window(comm, allocate, size, &bases[me], win);
	}
	if (rc == MPI_SUCCESS) {
		rc = window_open(comm, win, bases[me], size); // frees *win on failure
	}
	if (rc != MPI_SUCCESS && *nodeWin != MPI_WIN_NULL) {
		MPI_Win_free(nodeWin);
	}
	if (rc != MPI_SUCCESS && *mem != NULL) {
		MPI_Free_mem(*mem);
		*mem = NULL;
	}
	return rc;
}

int gdi_win_allocate_node(MPI_Comm comm, MPI_Comm node, int layout, int allocate, MPI_Aint size,
                          MPI_Win *win, MPI_Win *nodeWin, void **mem, void **bases) {
	enter();
	int rc = win_allocate_node(comm, node, layout, allocate, size, win, nodeWin, mem, bases);
	leave();
	return rc;
}

static int win_free(MPI_Win *win, MPI_Win *nodeWin, void *mem) {
	int rc = MPI_Win_unlock_all(*win);
	if (rc == MPI_SUCCESS) {
		rc = MPI_Win_free(win);
	}
	if (rc == MPI_SUCCESS && *nodeWin != MPI_WIN_NULL) {
		rc = MPI_Win_free(nodeWin);
	}
	if (rc == MPI_SUCCESS && mem != NULL) {
		rc = MPI_Free_mem(mem);
	}
	return rc;
}

int gdi_win_free(MPI_Win *win, MPI_Win *nodeWin, void *mem) {
	enter();
	int rc = win_free(win, nodeWin, mem);
	leave();
	return rc;
}

static int get(MPI_Win win, char *dst, size_t n, int target, MPI_Aint off) {
	char *p = dst;
	while (n > 0) {
		size_t k = n < GDI_CHUNK ? n : GDI_CHUNK;
		int rc = MPI_Get(p, (int)k, MPI_BYTE, target, off, (int)k, MPI_BYTE, win);
		if (rc != MPI_SUCCESS) {
			return rc;
		}
		p += k;
		off += (MPI_Aint)k;
		n -= k;
	}
	// Complete the Get at the origin: dst is Go memory, which MPI must not
	// write after this call returns.
	return MPI_Win_flush_local(target, win);
}

int gdi_get(MPI_Win win, char *dst, size_t n, int target, MPI_Aint off) {
	enter();
	int rc = get(win, dst, n, target, off);
	leave();
	return rc;
}

static int put(MPI_Win win, const char *src, size_t n, int target, MPI_Aint off) {
	const char *p = src;
	while (n > 0) {
		size_t k = n < GDI_CHUNK ? n : GDI_CHUNK;
		int rc = MPI_Put(p, (int)k, MPI_BYTE, target, off, (int)k, MPI_BYTE, win);
		if (rc != MPI_SUCCESS) {
			return rc;
		}
		p += k;
		off += (MPI_Aint)k;
		n -= k;
	}
	// Local completion only: MPI is done reading src, which is Go memory.
	// Visibility at the target waits for gdi_flush.
	return MPI_Win_flush_local(target, win);
}

int gdi_put(MPI_Win win, const char *src, size_t n, int target, MPI_Aint off) {
	enter();
	int rc = put(win, src, n, target, off);
	leave();
	return rc;
}

// gdi_get_nb and gdi_put_nb start a Get or Put of C memory, which a later
// flush completes.
int gdi_get_nb(MPI_Win win, char *dst, size_t n, int target, MPI_Aint off) {
	enter();
	int rc = MPI_Get(dst, (int)n, MPI_BYTE, target, off, (int)n, MPI_BYTE, win);
	leave();
	return rc;
}

int gdi_put_nb(MPI_Win win, const char *src, size_t n, int target, MPI_Aint off) {
	enter();
	int rc = MPI_Put(src, (int)n, MPI_BYTE, target, off, (int)n, MPI_BYTE, win);
	leave();
	return rc;
}

// gdi_progress runs MPI's progress engine once, which serves the one-sided
// operations other processes aim at this one: MPI_Iprobe for a tag no one
// sends. Any MPI call that does not complete at once would do.
int gdi_progress(MPI_Comm comm) {
	int flag;
	enter();
	int rc = MPI_Iprobe(MPI_ANY_SOURCE, GDI_PROGRESS_TAG, comm, &flag, MPI_STATUS_IGNORE);
	leave();
	return rc;
}

int gdi_flush(MPI_Win win, int target) {
	enter();
	int rc = MPI_Win_flush(target, win);
	leave();
	return rc;
}

gdi_word gdi_cas(MPI_Win win, int target, MPI_Aint off, uint64_t old, uint64_t new_) {
	gdi_word r = {0, MPI_SUCCESS};
	enter();
	r.rc = MPI_Compare_and_swap(&new_, &old, &r.v, MPI_UINT64_T, target, off, win);
	if (r.rc == MPI_SUCCESS) {
		r.rc = MPI_Win_flush(target, win);
	}
	leave();
	return r;
}

gdi_word gdi_fetch_op(MPI_Win win, int target, MPI_Aint off, uint64_t v, int op) {
	gdi_word r = {0, MPI_SUCCESS};
	MPI_Op o = op == GDI_FOP_SUM ? MPI_SUM : op == GDI_FOP_NO_OP ? MPI_NO_OP : MPI_REPLACE;
	enter();
	r.rc = MPI_Fetch_and_op(&v, &r.v, MPI_UINT64_T, target, off, o, win);
	if (r.rc == MPI_SUCCESS) {
		r.rc = MPI_Win_flush(target, win);
	}
	leave();
	return r;
}

// batch_new reports whether ops[i] is the first op of ops on its target.
static int batch_new(const gdi_atomic *ops, int i) {
	for (int j = 0; j < i; j++) {
		if (ops[j].target == ops[i].target) {
			return 0;
		}
	}
	return 1;
}

// batch_flush completes ops[0:n] with a flush per target. (Not
// MPI_Win_flush_all: under osc ucx of Open MPI 4.1 it left Puts of
// another window layout incomplete; see stage.go.)
static int batch_flush(MPI_Win win, const gdi_atomic *ops, int n) {
	int rc = MPI_SUCCESS;
	for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
		if (batch_new(ops, i)) {
			rc = MPI_Win_flush(ops[i].target, win);
		}
	}
	return rc;
}

// gdi_atomics starts the n atomics of ops, unordered, then
// completes them with one flush per target.
int gdi_atomics(MPI_Win win, gdi_atomic *ops, int n) {
	int rc = MPI_SUCCESS;
	enter();
	for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
		gdi_atomic *a = &ops[i];
		MPI_Op o = a->kind == GDI_ATOMIC_FAA ? MPI_SUM : a->kind == GDI_ATOMIC_GET ? MPI_NO_OP : MPI_REPLACE;
		if (a->kind == GDI_ATOMIC_CAS) {
			rc = MPI_Compare_and_swap(&a->arg, &a->old, &a->prev, MPI_UINT64_T, a->target, a->offset, win);
		} else {
			rc = MPI_Fetch_and_op(&a->arg, &a->prev, MPI_UINT64_T, a->target, a->offset, o, win);
		}
	}
	if (rc == MPI_SUCCESS) {
		rc = batch_flush(win, ops, n);
	}
	leave();
	return rc;
}
