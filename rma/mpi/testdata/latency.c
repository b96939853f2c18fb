/*
 * latency.c measures the MPI operations under the rma/mpi backend directly
 * in C, so the cost of the Go layer shows as a ratio against these figures.
 *
 * Every rank runs the same loop against the next rank, (rank+1) % size, like
 * the Go benchmarks of rma/mpi, on a window from MPI_Win_allocate kept in an
 * MPI_Win_lock_all epoch. Rank 0 prints one line per operation in the format
 * of go test -bench, so the two outputs can be compared side by side:
 *
 *   BenchmarkC/Get8/ranks=2   1000000   123.4 ns/op
 *
 * Build and run: mpicc -O2 -o latency latency.c
 *                mpirun -n 2 ./latency [iterations]
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MPI_Win win;
static int target;
static long iters;

static double now(void) { return MPI_Wtime(); }

static void report(const char *name, int size, double secs) {
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* The slowest rank's time is the one that counts. */
	double worst;
	MPI_Reduce(&secs, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		printf("BenchmarkC/%s/ranks=%d\t%ld\t%.1f ns/op\n", name, size, iters,
		       worst * 1e9 / (double)iters);
		fflush(stdout);
	}
}

int main(int argc, char **argv) {
	int provided, rank, size;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided < MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "latency: MPI_THREAD_MULTIPLE not provided\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	iters = argc > 1 ? atol(argv[1]) : 1000000;
	target = (rank + 1) % size;

	void *base;
	MPI_Win_allocate(4096, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
	memset(base, 0, 4096);
	MPI_Win_lock_all(0, win);
	MPI_Barrier(MPI_COMM_WORLD);

	uint64_t word = 0, res = 0, one = 1, cmp = 0;
	char block[512];
	double t;

	/* Get of 8 bytes, completed by a flush each time. */
	for (long i = 0; i < iters / 10; i++) { /* warm up */
		MPI_Get(&word, 8, MPI_BYTE, target, 0, 8, MPI_BYTE, win);
		MPI_Win_flush(target, win);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t = now();
	for (long i = 0; i < iters; i++) {
		MPI_Get(&word, 8, MPI_BYTE, target, 0, 8, MPI_BYTE, win);
		MPI_Win_flush(target, win);
	}
	report("Get8", size, now() - t);

	MPI_Barrier(MPI_COMM_WORLD);
	t = now();
	for (long i = 0; i < iters; i++) {
		MPI_Get(block, 512, MPI_BYTE, target, 0, 512, MPI_BYTE, win);
		MPI_Win_flush(target, win);
	}
	report("GetBlock", size, now() - t);

	MPI_Barrier(MPI_COMM_WORLD);
	t = now();
	for (long i = 0; i < iters; i++) {
		MPI_Put(&word, 8, MPI_BYTE, target, 64, 8, MPI_BYTE, win);
		MPI_Win_flush(target, win);
	}
	report("Put8", size, now() - t);

	/* CAS on a word every rank hits, completed by a flush each time. */
	MPI_Barrier(MPI_COMM_WORLD);
	t = now();
	for (long i = 0; i < iters; i++) {
		uint64_t nv = cmp + 1;
		MPI_Compare_and_swap(&nv, &cmp, &res, MPI_UINT64_T, target, 128, win);
		MPI_Win_flush(target, win);
		cmp = res;
	}
	report("CAS", size, now() - t);

	MPI_Barrier(MPI_COMM_WORLD);
	t = now();
	for (long i = 0; i < iters; i++) {
		MPI_Fetch_and_op(&one, &res, MPI_UINT64_T, target, 256, MPI_SUM, win);
		MPI_Win_flush(target, win);
	}
	report("FAA", size, now() - t);

	MPI_Win_unlock_all(win);
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
