package gdirma_test

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
	"github.com/gdi-go/gdi/rma/mpi"
)

// The crash test: a load of transactions with the redo log on, killed
// with SIGKILL at a random moment, then restored and checked. It runs in
// the cells of a matrix: the log synced or async (GDI_CRASH_LOG), and the
// ranks either Open MPI processes (make test-crash: TestCrash run by hand
// as a driver, GDI_CRASH_RUNS set, starts mpirun jobs of this test binary,
// built with -tags mpi, and kills one process, chosen at random) or local
// ranks in one child process (TestCrashLocal starts this test binary as
// the child and kills it). Either way the jobs are TestCrash with
// GDI_CRASH_PHASE load or check; anywhere else TestCrash is skipped.
//
// The load: every rank runs GDI_CRASH_GOROUTINES writers (3 by default),
// named r.g. Transaction k of writer w (k = 1, 2, ...) sets the property k
// of the vertex counter-w to k, creates the vertices w-k-0, w-k-1, w-k-2
// with edges 0→1, 1→2, 2→0, deletes w-(k-3)-2 (and its edges), and sets
// the property last of the vertex hub (shared by all writers, so commits
// conflict and the log's order matters) to "w-k". After each acknowledged
// commit the writer appends k to acked-w, synced. Every crashEpoch the
// writers pause and the ranks take a checkpoint to the log directory, and
// the log's small bound makes the database take automatic checkpoints
// while they commit, so that kills land in both kinds of checkpoint.
//
// The check: every writer's counter c names its last transaction that
// survived; transactions 1 to c are there whole, and none after them at
// all. With a synced log c is at least the last acknowledged k (and at
// most one more: a commit in flight); with an async log at most one more
// than it (a lost tail is allowed).

const crashEpoch = 300 * time.Millisecond

const crashParamsMem = 4 << 20

func crashParams(dir string) gdirma.Params {
	mode, _ := gdirma.ParseLogMode(cmp.Or(os.Getenv("GDI_CRASH_LOG"), "sync"))
	// A small bound on the log: automatic checkpoints run while the
	// writers commit, so kills land in them too.
	return gdirma.Params{BlockSize: 256, MemoryPerRank: crashParamsMem, Log: mode, LogDir: dir, LogCheckpointSize: 64 << 10}
}

// crashGoroutines is the number of writers per rank.
func crashGoroutines() int {
	g, err := strconv.Atoi(os.Getenv("GDI_CRASH_GOROUTINES"))
	if err != nil || g < 1 {
		return 3
	}
	return g
}

// crashWriters names the writers of every rank, rank by rank.
func crashWriters(ranks int) []string {
	var out []string
	for r := range ranks {
		for g := range crashGoroutines() {
			out = append(out, fmt.Sprintf("%d.%d", r, g))
		}
	}
	return out
}

func TestCrash(t *testing.T) {
	phase, dir := os.Getenv("GDI_CRASH_PHASE"), os.Getenv("GDI_CRASH_DIR")
	job := mpi.InMPIRun() || os.Getenv("GDI_CRASH_LOCAL") != ""
	switch {
	case job && phase == "load":
		err := launch.Run(crashRanks(), func(c rma.Comm) error { return crashLoad(c, dir) })
		if err != nil {
			t.Fatal(err)
		}
	case job && phase == "check":
		err := launch.Run(crashRanks(), func(c rma.Comm) error { return crashCheck(c, dir) })
		if err != nil {
			t.Fatal(err)
		}
		if err := launch.Finalize(); err != nil {
			t.Fatal(err)
		}
	case !mpi.InMPIRun() && os.Getenv("GDI_CRASH_RUNS") != "":
		crashDriveMPI(t)
	default:
		t.Skip("the crash test runs under make test-crash")
	}
}

func crashRanks() int {
	n, err := strconv.Atoi(cmp.Or(os.Getenv("OMPI_COMM_WORLD_SIZE"), os.Getenv("GDI_CRASH_LOCAL")))
	if err != nil {
		return 2
	}
	return n
}

// crashSchema is the metadata of the crash test.
type crashSchema struct {
	v, c     gdi.Label
	k, last  gdi.PropertyType
	allIndex gdi.Index
}

func crashRetry(db gdi.Database, fn func(tx gdi.Transaction) error) error {
	for attempt := 0; ; attempt++ {
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		err = fn(tx)
		if err == nil {
			err = tx.Commit()
		} else {
			tx.Abort()
		}
		c := gdi.ErrorClass(err)
		if err == nil || attempt > 10000 || (c != gdi.ErrTransactionCommitFail && c != gdi.ErrTransactionCritical) {
			return err
		}
		time.Sleep(time.Duration(rand.IntN(200)+50) * time.Microsecond)
	}
}

func findVertex(tx gdi.Transaction, l gdi.Label, id string) (gdi.VertexHolder, bool, error) {
	u, ok, err := tx.TranslateVertexID(l, []byte(id))
	if err != nil || !ok {
		return nil, false, err
	}
	v, err := tx.AssociateVertex(u)
	return v, err == nil, err
}

func crashLoad(c rma.Comm, dir string) error {
	me := c.Rank()
	db, err := gdirma.Driver{}.CreateDatabase(c, crashParams(dir))
	if err != nil {
		return err
	}
	var s crashSchema
	var errs []error
	s.v, err = db.CreateLabel("V")
	errs = append(errs, err)
	s.c, err = db.CreateLabel("C")
	errs = append(errs, err)
	s.k, err = db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "k", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
	errs = append(errs, err)
	s.last, err = db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "last", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.MaxSize, Count: 64})
	errs = append(errs, err)
	s.allIndex, err = db.CreateIndex(gdi.HashTableIndex, 0)
	errs = append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	// Every vertex: the index is changed after the label was logged.
	if err := s.allIndex.AddLabelsAndPropertyTypes([]gdi.Label{gdi.LabelNone, s.v, s.c}, nil); err != nil {
		return err
	}
	writers := crashWriters(c.Size())
	mine := writers[me*crashGoroutines() : (me+1)*crashGoroutines()]
	if err := crashRetry(db, func(tx gdi.Transaction) error {
		if me == 0 {
			h, err := tx.CreateVertex([]byte("hub"))
			if err != nil {
				return err
			}
			if err := errors.Join(h.AddLabel(s.c), h.AddProperty(s.last, gdi.Chars(""))); err != nil {
				return err
			}
		}
		for _, w := range mine {
			v, err := tx.CreateVertex([]byte("counter-" + w))
			if err != nil {
				return err
			}
			if err := errors.Join(v.AddLabel(s.c), v.AddProperty(s.k, gdi.Int64s(0))); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("pid-%d", me)), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	if me == 0 {
		if err := os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644); err != nil {
			return err
		}
	}
	next := make([]int, len(mine)) // the next transaction of each writer
	for i := range next {
		next[i] = 1
	}
	deadline := time.Now().Add(2 * time.Minute) // the driver kills us long before
	for time.Now().Before(deadline) {
		if err := crashEpochOf(db, &s, dir, mine, next); err != nil {
			return fmt.Errorf("rank %d: %w", me, err)
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if err := db.(*gdirma.Database).Checkpoint(dir); err != nil {
			return fmt.Errorf("rank %d: checkpoint: %w", me, err)
		}
	}
	return errors.New("not killed")
}

// crashEpochOf runs the writers mine, each from transaction next[i], for
// crashEpoch, recording every acknowledged transaction in acked-<writer>.
func crashEpochOf(db gdi.Database, s *crashSchema, dir string, mine []string, next []int) error {
	var wg sync.WaitGroup
	errs := make([]error, len(mine))
	end := time.Now().Add(crashEpoch)
	for i, w := range mine {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acked, err := os.OpenFile(filepath.Join(dir, "acked-"+w), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
			if err != nil {
				errs[i] = err
				return
			}
			defer acked.Close()
			for ; time.Now().Before(end); next[i]++ {
				if err := crashTx(db, s, w, next[i]); err != nil {
					errs[i] = fmt.Errorf("writer %s, transaction %d: %w", w, next[i], err)
					return
				}
				if _, err := fmt.Fprintf(acked, "%d\n", next[i]); err != nil {
					errs[i] = err
					return
				}
				if err := acked.Sync(); err != nil {
					errs[i] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// crashTx runs transaction k of rank me, retrying until it commits.
func crashTx(db gdi.Database, s *crashSchema, w string, k int) error {
	return crashRetry(db, func(tx gdi.Transaction) error {
		cnt, ok, err := findVertex(tx, s.c, "counter-"+w)
		if err != nil || !ok {
			return fmt.Errorf("counter: %v %w", ok, err)
		}
		vs, err := cnt.Properties(s.k)
		if err != nil || len(vs) != 1 {
			return fmt.Errorf("counter: %v %w", vs, err)
		}
		if x, err := vs[0].Int64Slice(); err != nil || x[0] != int64(k-1) {
			return fmt.Errorf("counter is %v (%v), want %d", x, err, k-1)
		}
		if err := cnt.UpdateProperty(s.k, gdi.Int64s(int64(k))); err != nil {
			return err
		}
		var v [3]gdi.VertexHolder
		for i := range v {
			if v[i], err = tx.CreateVertex([]byte(fmt.Sprintf("%s-%d-%d", w, k, i))); err != nil {
				return err
			}
			if err := v[i].AddLabel(s.v); err != nil {
				return err
			}
		}
		for i := range v {
			if _, err := tx.CreateEdge(gdi.Directed, v[i], v[(i+1)%3]); err != nil {
				return err
			}
		}
		if k > 3 {
			old, ok, err := findVertex(tx, s.v, fmt.Sprintf("%s-%d-2", w, k-3))
			if err != nil || !ok {
				return fmt.Errorf("vertex %s-%d-2: %v %w", w, k-3, ok, err)
			}
			if err := old.Free(); err != nil {
				return err
			}
		}
		hub, ok, err := findVertex(tx, s.c, "hub")
		if err != nil || !ok {
			return fmt.Errorf("hub: %v %w", ok, err)
		}
		return hub.UpdateProperty(s.last, gdi.Chars(fmt.Sprintf("%s-%d", w, k)))
	})
}

// crashCheck restores the database and checks it (see TestCrash), then
// runs a few more transactions on it and checks again.
func crashCheck(c rma.Comm, dir string) error {
	p := crashParams(dir)
	p.Restore = dir
	db, err := gdirma.Driver{}.CreateDatabase(c, p)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer db.Free()
	var s crashSchema
	var errs []error
	s.v, err = db.LabelFromName("V")
	errs = append(errs, err)
	s.c, err = db.LabelFromName("C")
	errs = append(errs, err)
	s.k, err = db.PropertyTypeFromName("k")
	errs = append(errs, err)
	s.last, err = db.PropertyTypeFromName("last")
	errs = append(errs, err)
	idxs, err := db.Indexes()
	errs = append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if len(idxs) != 1 {
		return fmt.Errorf("%d indexes, want 1", len(idxs))
	}
	s.allIndex = idxs[0]
	counts, err := crashVerify(c, db, &s, dir)
	if err != nil {
		return err
	}
	fmt.Printf("crash check: rank %d: counters %v verified\n", c.Rank(), counts)
	// The restored database goes on: its free lists, DHT and counters work.
	writers := crashWriters(c.Size())
	g := crashGoroutines()
	for _, w := range writers[c.Rank()*g : (c.Rank()+1)*g] {
		for k := counts[w] + 1; k <= counts[w]+5; k++ {
			if err := crashTx(db, &s, w, k); err != nil {
				return fmt.Errorf("after the restore: writer %s, transaction %d: %w", w, k, err)
			}
		}
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	if _, err := crashVerify(c, db, &s, ""); err != nil {
		return fmt.Errorf("after more transactions: %w", err)
	}
	return nil
}

// TestCrashLocal runs the crash test's cells of local ranks: a child
// process (this test binary) runs the load on GDI_CRASH_NP local ranks (2)
// and is killed; a second child restores and checks. It runs each log mode
// GDI_CRASH_LOCAL_RUNS times (1 by default; make stress runs 20).
func TestCrashLocal(t *testing.T) {
	if mpi.InMPIRun() || os.Getenv("GDI_CRASH_PHASE") != "" {
		t.Skip("the driver of the local crash test runs outside mpirun")
	}
	runs := 1
	if s := os.Getenv("GDI_CRASH_LOCAL_RUNS"); s != "" {
		var err error
		if runs, err = strconv.Atoi(s); err != nil {
			t.Fatalf("GDI_CRASH_LOCAL_RUNS=%q", s)
		}
	}
	np := crashNP(t)
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"sync", "async"} {
		t.Run(mode, func(t *testing.T) {
			crashDrive(t, runs, np, func(phase, dir string) *exec.Cmd {
				cmd := exec.Command(bin, "-test.run", "^TestCrash$", "-test.timeout", "10m")
				cmd.Env = append(os.Environ(), "GDI_CRASH_PHASE="+phase, "GDI_CRASH_DIR="+dir,
					"GDI_CRASH_LOCAL="+strconv.Itoa(np), "GDI_CRASH_LOG="+mode)
				return cmd
			})
		})
	}
}

// crashDriveMPI runs GDI_CRASH_RUNS rounds of load, kill and check as
// mpirun jobs of GDI_CRASH_NP processes, with the log mode of
// GDI_CRASH_LOG.
func crashDriveMPI(t *testing.T) {
	runs, err := strconv.Atoi(os.Getenv("GDI_CRASH_RUNS"))
	if err != nil || runs < 1 {
		t.Fatalf("GDI_CRASH_RUNS=%q", os.Getenv("GDI_CRASH_RUNS"))
	}
	mpirun := strings.Fields(os.Getenv("GDI_CRASH_MPIRUN"))
	if len(mpirun) == 0 {
		mpirun = []string{"mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none", "--mca", "osc", "sm", "--mca", "orte_allowed_exit_without_sync", "1"}
	}
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	np := crashNP(t)
	crashDrive(t, runs, np, func(phase, dir string) *exec.Cmd {
		args := append(slices.Clone(mpirun[1:]), "-n", strconv.Itoa(np),
			"-x", "GDI_CRASH_PHASE="+phase, "-x", "GDI_CRASH_DIR="+dir,
			"-x", "GDI_CRASH_LOG="+cmp.Or(os.Getenv("GDI_CRASH_LOG"), "sync"),
			bin, "-test.run", "^TestCrash$", "-test.timeout", "10m")
		return exec.Command(mpirun[0], args...)
	})
}

// crashNP is the number of ranks of the crash test, GDI_CRASH_NP (2).
func crashNP(t *testing.T) int {
	s := os.Getenv("GDI_CRASH_NP")
	if s == "" {
		return 2
	}
	np, err := strconv.Atoi(s)
	if err != nil || np < 1 {
		t.Fatalf("GDI_CRASH_NP=%q", s)
	}
	return np
}

// crashDrive runs runs rounds of load, kill and check, with jobs of np
// ranks made by job: it starts the load, waits until it is ready, kills
// the process of a random rank at a random moment, and runs the check.
func crashDrive(t *testing.T, runs, np int, job func(phase, dir string) *exec.Cmd) {
	for run := 1; run <= runs; run++ {
		dir := filepath.Join(t.TempDir(), fmt.Sprintf("run-%d", run))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		load := job("load", dir)
		load.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		var out bytes.Buffer
		load.Stdout, load.Stderr = &out, &out
		if err := load.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- load.Wait() }()
		ready := filepath.Join(dir, "ready")
		deadline := time.Now().Add(2 * time.Minute)
		for {
			if _, err := os.Stat(ready); err == nil {
				break
			}
			select {
			case err := <-exited:
				t.Fatalf("run %d: the load ended before it was ready (%v):\n%s", run, err, out.String())
			case <-time.After(20 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				syscall.Kill(-load.Process.Pid, syscall.SIGKILL)
				t.Fatalf("run %d: the load is not ready after 2 minutes:\n%s", run, out.String())
			}
		}
		time.Sleep(time.Duration(50+rand.IntN(1500)) * time.Millisecond)
		victim := rand.IntN(np)
		pid, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("pid-%d", victim)))
		if err != nil {
			t.Fatal(err)
		}
		p, err := strconv.Atoi(string(pid))
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Kill(p, syscall.SIGKILL); err != nil {
			t.Fatalf("run %d: kill rank %d (pid %d): %v\n%s", run, victim, p, err, out.String())
		}
		select {
		case <-exited:
		case <-time.After(time.Minute):
			syscall.Kill(-load.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		acked := map[string]int{}
		for _, w := range crashWriters(np) {
			a, err := readAcked(filepath.Join(dir, "acked-"+w))
			if err != nil {
				t.Fatal(err)
			}
			acked[w] = a
		}
		gen, _ := gdirma.CurrentGeneration(dir)
		cout, err := job("check", dir).CombinedOutput()
		if err != nil {
			t.Fatalf("run %d (rank %d killed, acked %v): the check failed: %v\n%s\nload output:\n%s", run, victim, acked, err, cout, out.String())
		}
		t.Logf("run %d: rank %d killed after acknowledging %v transactions, at checkpoint generation %d; recovered and checked", run, victim, acked, gen)
	}
}
