GO ?= go

.PHONY: all build test vet fmt-check bench stress fuzz test-crash tck

all: build

build:
	$(GO) build ./...

vet:
	$(GO) vet ./...
	$(GO) vet -tags gdirmabugs ./gdirma

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# The test command of README.md: static checks, then every test under the
# race detector (which also switches on internal/invariants).
test: vet fmt-check
	$(GO) test -race -short ./...
	$(GO) test -short ./rma/local # rma/local's plain word stores (not in -race builds)
	$(GO) test -short -run 'ReadsNotTorn' ./gdirma ./gdirma/internal/store # torn copies: -race builds complete puts whole
	$(GO) test -short -run 'TestReadAllocations|TestWriteAllocations|TestBulkLoadMatchesInsert' ./gdirma # allocation counts (pools drop entries under -race); bulk loads on plain word stores
	$(GO) test -short -run 'TestVertexPropertiesAllocations' ./generator # allocation counts (other under -race)
	$(GO) test -short -run 'TestPointReadAllocations' ./cypher # the engine's allocations per point read (likewise)
	$(GO) test -short -run 'TestCallsPerOperation' ./workload/oltp # one-sided calls per operation (the invariants of -race read more)
	$(GO) test -short -run 'TestChainMemo' ./gdirma # what the memo of chains saves, in calls (likewise)
	$(GO) test -short -tags gdirmabugs -run 'TestMetamorphicCatchesPlantedBugs' ./gdirma # the differential test sees deliberate bugs
	@if command -v $(MPIRUN) >/dev/null 2>&1 && pkg-config --exists ompi 2>/dev/null; then \
		$(MAKE) --no-print-directory test-crash CRASH_RUNS=1; \
	else echo "test: no Open MPI, the crash test is skipped"; fi

# The openCypher TCK on the Cypher engine (cypher), once per backend:
# refdb, and gdirma on 1 and 2 ranks. It prints "N passed, M failed, K
# skipped" and the figures per feature folder for each; GDI_TCK_FEATURES
# names another directory of .feature files, and GDI_TCK_DETAILS=1 lists
# every failure and skip with its reason.
tck:
	$(GO) test -count 1 -run '^TestTCK$$' -v ./cypher

# Benchmarks of the hot paths, with allocation counts.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Every fuzz target for FUZZTIME each (go test runs their seeds already).
FUZZTIME ?= 1m
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz: $$pkg $$f for $(FUZZTIME)"; \
			$(GO) test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; \
	done

# Long randomized runs: the stress tests without -short, several times.
stress:
	$(GO) test -race -count 3 -timeout 60m -run 'Stress|Linearizab|Metamorphic|PowerLoss|FullDisk' ./...
	GDI_CRASH_LOCAL_RUNS=$(CRASH_RUNS) $(GO) test -count 1 -timeout 60m -run '^TestCrashLocal$$' -v ./gdirma
	$(MAKE) --no-print-directory test-crash

# ---------------------------------------------------------------------------
# The MPI backend (rma/mpi, build tag mpi) under Open MPI's mpirun.
# See rma/mpi/README.md for what each mpirun flag is for.

MPIRUN ?= mpirun
MPICC ?= mpicc
# osc sm: the default one-sided component of Debian's Open MPI 4.1.4 crashes
# in MPI_Compare_and_swap; sm (one machine) works. --bind-to none: core
# binding would leave Go one CPU (GOMAXPROCS=1). orte_allowed_exit_without_sync:
# test binaries that never call mpi.Finalize (other packages' tests) still
# count as having exited cleanly.
MPIRUN_BASE_FLAGS ?= --allow-run-as-root --oversubscribe --bind-to none \
	--mca orte_allowed_exit_without_sync 1
MPIRUN_FLAGS ?= $(MPIRUN_BASE_FLAGS) --mca osc sm
# Every rank a node of its own (GDI_MPI_SHM=0): other ranks' windows through
# MPI, which osc sm cannot serve; UCX's own choice of transport.
MPIRUN_SHM0_FLAGS ?= $(MPIRUN_BASE_FLAGS) --mca osc ucx
# A network path on one machine: UCX over TCP, every other rank through MPI.
MPIRUN_NET_FLAGS ?= $(MPIRUN_BASE_FLAGS) --mca osc ucx --mca btl tcp,self -x UCX_TLS=tcp,self
# The node layout of a cluster on one machine: GDI_MPI_NODE_SIZE=2 cuts the
# processes into pretend nodes of 2; osc sm shares memory within a node and
# osc ucx (UCX's own choice of transport) reaches the other node.
MPIRUN_NODE_FLAGS ?= $(MPIRUN_BASE_FLAGS) --mca osc ucx,sm -x GDI_MPI_NODE_SIZE=2
# Process counts of make test-mpi.
MPI_NP ?= 2 4
# Packages whose tests run under mpirun, each as DIR or DIR@REGEXP to run
# only the tests matching REGEXP. Directories that do not exist yet, or
# whose packages have no tests, are skipped.
MPI_TEST_PKGS ?= ./rma/mpi ./bgdl@^TestStress ./dht@^TestStress ./index@^TestStress \
	./gdirma@^Test[CSBPOLIW] ./cypher@^TestDistributed$$
MPI_TEST_FLAGS ?= -test.short -test.timeout 20m
# Packages run again with GDI_MPI_SHM=0 (under MPIRUN_SHM0_FLAGS): MPI's
# one-sided calls to the other ranks instead of shared-memory windows,
# which rma/mpi uses when all ranks share a node.
MPI_RMA_TEST_PKGS ?= ./rma/mpi ./dht@^TestStress ./gdirma@^TestConformance
# Wall-clock limit of one mpirun, so that a hung job cannot stall CI.
MPI_TIMEOUT ?= 1500
# Iterations per benchmark: fixed (-test.benchtime=Nx), as every process
# must run the same b.N. MPI_BENCH_COUNT runs of each, the best one kept.
MPI_BENCH_N ?= 1000000
MPI_BENCH_COUNT ?= 5

.PHONY: test-mpi bench-mpi

# The crash test (gdirma/crash_test.go): CRASH_RUNS times for each log
# mode of CRASH_LOGS, an Open MPI job of CRASH_NP processes, each with
# several goroutines committing, runs transactions and checkpoints with a
# redo log, one process chosen at random is killed with SIGKILL at a
# random moment, and a second job restores the database from the
# checkpoint and the logs and checks that every acknowledged transaction
# is there (synced log) or a prefix of them (async), none partially, and
# the invariants. TestCrashLocal (in go test) does the same with local
# ranks in a child process; make stress runs it CRASH_RUNS times a mode.
CRASH_RUNS ?= 20
CRASH_NP ?= 2
CRASH_LOGS ?= sync async
test-crash:
	@set -eu; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) test -c -tags mpi -o "$$tmp/gdirma.test" ./gdirma; \
	for log in $(CRASH_LOGS); do \
		echo "test-crash: $(CRASH_RUNS) runs, $(CRASH_NP) processes, log $$log"; \
		GDI_CRASH_RUNS=$(CRASH_RUNS) GDI_CRASH_NP=$(CRASH_NP) GDI_CRASH_LOG=$$log \
		GDI_CRASH_MPIRUN="$(MPIRUN) $(MPIRUN_FLAGS)" TMPDIR="$$tmp" \
			timeout -k 30 $(MPI_TIMEOUT) "$$tmp/gdirma.test" -test.run '^TestCrash$$' -test.v -test.timeout 20m; \
	done

test-mpi:
	@set -u; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	pass=0; fail=0; failed=""; \
	for spec in $(MPI_TEST_PKGS) $(addprefix shm=0:,$(MPI_RMA_TEST_PKGS)); do \
		shm=1; case "$$spec" in shm=0:*) shm=0; spec=$${spec#shm=0:};; esac; \
		pkg=$${spec%%@*}; run=.; \
		case "$$spec" in *@*) run=$${spec#*@};; esac; \
		if [ ! -d "$$pkg" ]; then echo "test-mpi: $$pkg: no such package yet, skipped"; continue; fi; \
		bin="$$tmp/$$(echo "$$pkg" | tr -c 'A-Za-z0-9\n' _).test"; \
		$(GO) test -c -tags mpi -o "$$bin" "$$pkg" || { fail=$$((fail+1)); failed="$$failed $$pkg(build)"; continue; }; \
		if [ ! -f "$$bin" ]; then echo "test-mpi: $$pkg: no test files, skipped"; continue; fi; \
		for np in $(MPI_NP); do \
			echo "test-mpi: GDI_MPI_SHM=$$shm $(MPIRUN) -n $$np $$pkg -test.run '$$run'"; \
			flags="$(MPIRUN_FLAGS)"; [ "$$shm" = 1 ] || flags="$(MPIRUN_SHM0_FLAGS)"; \
			if (cd "$$pkg" && GDI_MPI_SHM=$$shm timeout -k 30 $(MPI_TIMEOUT) $(MPIRUN) $$flags -x GDI_MPI_SHM -n $$np \
				"$$bin" -test.run "$$run" $(MPI_TEST_FLAGS)); then \
				pass=$$((pass+1)); \
			else \
				fail=$$((fail+1)); failed="$$failed $$pkg(-n $$np, shm $$shm)"; \
			fi; \
		done; \
	done; \
	echo "test-mpi: the rma suite and a short OLTP run over a network path ($(MPIRUN_NET_FLAGS))"; \
	$(GO) test -c -tags mpi -o "$$tmp/net_rma.test" ./rma/mpi && $(GO) build -tags mpi -o "$$tmp/gdi" ./cmd/gdi; \
	if (cd rma/mpi && GDI_MPI_SHM=0 timeout -k 30 $(MPI_TIMEOUT) $(MPIRUN) $(MPIRUN_NET_FLAGS) -x GDI_MPI_SHM -n 2 "$$tmp/net_rma.test" $(MPI_TEST_FLAGS)) && \
		GDI_MPI_SHM=0 timeout -k 30 $(MPI_TIMEOUT) $(MPIRUN) $(MPIRUN_NET_FLAGS) -x GDI_MPI_SHM -n 2 "$$tmp/gdi" bench oltp -scale 10 -count 500 -ranks 2; then \
		pass=$$((pass+1)); else fail=$$((fail+1)); failed="$$failed network-path"; fi; \
	echo "test-mpi: the rma suite and a short OLTP run with GDI_MPI_SHM=0 and no --mca osc: Open MPI chooses, osc rdma excluded"; \
	if (cd rma/mpi && GDI_MPI_SHM=0 timeout -k 30 $(MPI_TIMEOUT) $(MPIRUN) $(MPIRUN_BASE_FLAGS) -x GDI_MPI_SHM -n 2 "$$tmp/net_rma.test" $(MPI_TEST_FLAGS)) && \
		GDI_MPI_SHM=0 timeout -k 30 $(MPI_TIMEOUT) $(MPIRUN) $(MPIRUN_BASE_FLAGS) -x GDI_MPI_SHM -n 2 "$$tmp/gdi" bench oltp -scale 10 -count 500 -ranks 2; then \
		pass=$$((pass+1)); else fail=$$((fail+1)); failed="$$failed osc-default"; fi; \
	echo "test-mpi: 4 processes as 2 pretend nodes of 2 ($(MPIRUN_NODE_FLAGS)): the rma suite, gdirma's conformance suite, a short OLTP run"; \
	$(GO) test -c -tags mpi -o "$$tmp/node_gdirma.test" ./gdirma; \
	if (cd rma/mpi && timeout -k 30 $(MPI_TIMEOUT) $(MPIRUN) $(MPIRUN_NODE_FLAGS) -n 4 "$$tmp/net_rma.test" $(MPI_TEST_FLAGS)) && \
		(cd gdirma && timeout -k 30 $(MPI_TIMEOUT) $(MPIRUN) $(MPIRUN_NODE_FLAGS) -n 4 "$$tmp/node_gdirma.test" -test.run '^TestConformance' $(MPI_TEST_FLAGS)) && \
		timeout -k 30 $(MPI_TIMEOUT) $(MPIRUN) $(MPIRUN_NODE_FLAGS) -n 4 "$$tmp/gdi" bench oltp -scale 10 -count 500 -ranks 4; then \
		pass=$$((pass+1)); else fail=$$((fail+1)); failed="$$failed pretend-nodes"; fi; \
	for btl in tcp vader; do \
		echo "test-mpi: the rma suite under --mca osc pt2pt --mca btl $$btl,self, GDI_MPI_SHM=0"; \
		if (cd rma/mpi && GDI_MPI_SHM=0 timeout -k 30 $(MPI_TIMEOUT) $(MPIRUN) $(MPIRUN_BASE_FLAGS) --mca osc pt2pt --mca btl $$btl,self \
			-x GDI_MPI_SHM -n 2 "$$tmp/net_rma.test" $(MPI_TEST_FLAGS)); then \
			pass=$$((pass+1)); else fail=$$((fail+1)); failed="$$failed pt2pt-$$btl"; fi; \
	done; \
	for case in pt2pt:0:multiple rdma:0:serialized ucx:1:serialized; do \
		osc=$${case%%:*}; shm=$${case#*:}; thr=$${shm#*:}; shm=$${shm%:*}; \
		echo "test-mpi: --mca osc $$osc with GDI_MPI_SHM=$$shm GDI_MPI_THREAD=$$thr must be refused at once, naming a setting that works"; \
		out=$$(cd rma/mpi && GDI_MPI_SHM=$$shm GDI_MPI_THREAD=$$thr timeout -k 10 120 $(MPIRUN) $(MPIRUN_BASE_FLAGS) --mca osc $$osc \
			-x GDI_MPI_SHM -x GDI_MPI_THREAD -n 2 "$$tmp/net_rma.test" $(MPI_TEST_FLAGS) 2>&1); rc=$$?; \
		if [ $$rc -ne 0 ] && echo "$$out" | grep -q 'cannot serve rma/mpi.*--mca osc ucx'; then pass=$$((pass+1)); \
		else echo "$$out" | tail -20; fail=$$((fail+1)); failed="$$failed osc-$$osc-refusal"; fi; \
	done; \
	[ -z "$$failed" ] || echo "test-mpi: failed:$$failed"; \
	echo "test-mpi: $$pass passed, $$fail failed"; \
	[ "$$fail" -eq 0 ]

# Go over MPI against C over MPI: the rma/mpi benchmarks (with
# GDI_MPI_SHM=0, so that Go makes MPI's one-sided calls too) and
# rma/mpi/testdata/latency.c, both with 2 processes, then the ratios.
bench-mpi:
	@set -eu; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(MPICC) -O2 -o "$$tmp/latency" rma/mpi/testdata/latency.c; \
	$(GO) test -c -tags mpi -o "$$tmp/mpi.test" ./rma/mpi; \
	for i in $$(seq $(MPI_BENCH_COUNT)); do \
		GDI_MPI_SHM=0 $(MPIRUN) $(MPIRUN_SHM0_FLAGS) -x GDI_MPI_SHM -n 2 --output-filename "$$tmp/go$$i" "$$tmp/mpi.test" \
			-test.run '^$$' -test.bench 'BenchmarkWindow|BenchmarkCgo' -test.benchtime $(MPI_BENCH_N)x -test.benchmem >/dev/null; \
		cat "$$tmp"/go$$i/*/rank.0/stdout >>"$$tmp/go.txt"; \
		$(MPIRUN) $(MPIRUN_SHM0_FLAGS) -n 2 "$$tmp/latency" $(MPI_BENCH_N) >>"$$tmp/c.txt"; \
	done; \
	echo "== Go over MPI (rank 0, best of $(MPI_BENCH_COUNT))"; \
	awk -f rma/mpi/testdata/best.awk "$$tmp/go.txt"; \
	echo "== C over MPI (best of $(MPI_BENCH_COUNT))"; \
	awk -f rma/mpi/testdata/best.awk "$$tmp/c.txt"; \
	echo "== ratio Go/C"; \
	awk -f rma/mpi/testdata/ratio.awk "$$tmp/go.txt" "$$tmp/c.txt"
