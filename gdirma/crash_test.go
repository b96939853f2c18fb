package gdirma_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
	"github.com/gdi-go/gdi/rma/mpi"
)

// The crash test (make test-crash): TestCrash, run by hand as a driver
// (GDI_CRASH_RUNS set, not under mpirun), starts an Open MPI job of this
// test binary (built with -tags mpi) that runs an OLTP load with a synced
// redo log, kills one of its processes with SIGKILL at a random moment,
// and runs a second job that restores the database and checks it. Under
// mpirun TestCrash is one of the two jobs (GDI_CRASH_PHASE load or
// check); anywhere else it is skipped.
//
// The load: transaction k of rank r (k = 1, 2, ...) sets the property k
// of the vertex counter-r to k, creates the vertices r-k-0, r-k-1, r-k-2
// with edges 0→1, 1→2, 2→0, deletes r-(k-3)-2 (and its edges), and sets
// the property last of the vertex hub (shared by all ranks, so commits of
// different ranks conflict and the log's order matters) to "r-k". After
// each acknowledged commit the rank appends k to acked-r, synced.

const crashParamsMem = 4 << 20

func crashParams(dir string) gdirma.Params {
	return gdirma.Params{BlockSize: 256, MemoryPerRank: crashParamsMem, Log: gdirma.LogSync, LogDir: dir}
}

func TestCrash(t *testing.T) {
	phase, dir := os.Getenv("GDI_CRASH_PHASE"), os.Getenv("GDI_CRASH_DIR")
	switch {
	case mpi.InMPIRun() && phase == "load":
		err := launch.Run(crashRanks(), func(c rma.Comm) error { return crashLoad(c, dir) })
		if err != nil {
			t.Fatal(err)
		}
	case mpi.InMPIRun() && phase == "check":
		err := launch.Run(crashRanks(), func(c rma.Comm) error { return crashCheck(c, dir) })
		if err != nil {
			t.Fatal(err)
		}
		if err := launch.Finalize(); err != nil {
			t.Fatal(err)
		}
	case !mpi.InMPIRun() && os.Getenv("GDI_CRASH_RUNS") != "":
		crashDrive(t)
	default:
		t.Skip("the crash test runs under make test-crash")
	}
}

func crashRanks() int {
	n, err := strconv.Atoi(os.Getenv("OMPI_COMM_WORLD_SIZE"))
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
		v, err := tx.CreateVertex([]byte(fmt.Sprintf("counter-%d", me)))
		if err != nil {
			return err
		}
		return errors.Join(v.AddLabel(s.c), v.AddProperty(s.k, gdi.Int64s(0)))
	}); err != nil {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("pid-%d", me)), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return err
	}
	acked, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("acked-%d", me)), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
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
	deadline := time.Now().Add(2 * time.Minute) // the driver kills us long before
	for k := 1; time.Now().Before(deadline); k++ {
		if err := crashTx(db, &s, me, k); err != nil {
			return fmt.Errorf("rank %d, transaction %d: %w", me, k, err)
		}
		if _, err := fmt.Fprintf(acked, "%d\n", k); err != nil {
			return err
		}
		if err := acked.Sync(); err != nil {
			return err
		}
	}
	return errors.New("not killed")
}

// crashTx runs transaction k of rank me, retrying until it commits.
func crashTx(db gdi.Database, s *crashSchema, me, k int) error {
	return crashRetry(db, func(tx gdi.Transaction) error {
		cnt, ok, err := findVertex(tx, s.c, fmt.Sprintf("counter-%d", me))
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
			if v[i], err = tx.CreateVertex([]byte(fmt.Sprintf("%d-%d-%d", me, k, i))); err != nil {
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
			old, ok, err := findVertex(tx, s.v, fmt.Sprintf("%d-%d-2", me, k-3))
			if err != nil || !ok {
				return fmt.Errorf("vertex %d-%d-2: %v %w", me, k-3, ok, err)
			}
			if err := old.Free(); err != nil {
				return err
			}
		}
		hub, ok, err := findVertex(tx, s.c, "hub")
		if err != nil || !ok {
			return fmt.Errorf("hub: %v %w", ok, err)
		}
		return hub.UpdateProperty(s.last, gdi.Chars(fmt.Sprintf("%d-%d", me, k)))
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
	me := c.Rank()
	for k := counts[me] + 1; k <= counts[me]+5; k++ {
		if err := crashTx(db, &s, me, k); err != nil {
			return fmt.Errorf("after the restore: rank %d, transaction %d: %w", me, k, err)
		}
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	for r := range counts {
		counts[r] += 5
	}
	if _, err := crashVerify(c, db, &s, ""); err != nil {
		return fmt.Errorf("after more transactions: %w", err)
	}
	return nil
}

// crashVerify checks the database (every rank checks its own holders,
// rank 0 the rest) and returns the counters. With dir set it also checks
// the acknowledged transactions recorded there.
func crashVerify(c rma.Comm, db gdi.Database, s *crashSchema, dir string) ([]int, error) {
	if err := db.(*gdirma.Database).CheckHolders(); err != nil {
		return nil, err
	}
	tx, err := db.StartTransaction()
	if err != nil {
		return nil, err
	}
	defer tx.Abort()
	counts := make([]int, c.Size())
	for r := range counts {
		cnt, ok, err := findVertex(tx, s.c, fmt.Sprintf("counter-%d", r))
		if err != nil || !ok {
			return nil, fmt.Errorf("counter-%d: %v %w", r, ok, err)
		}
		vs, err := cnt.Properties(s.k)
		if err != nil || len(vs) != 1 {
			return nil, fmt.Errorf("counter-%d: %v %w", r, vs, err)
		}
		x, err := vs[0].Int64Slice()
		if err != nil {
			return nil, err
		}
		counts[r] = int(x[0])
	}
	if c.Rank() != 0 {
		return counts, c.Barrier()
	}
	check := func() error {
		want := 0
		for r, cr := range counts {
			if dir != "" {
				acked, err := readAcked(filepath.Join(dir, fmt.Sprintf("acked-%d", r)))
				if err != nil {
					return err
				}
				if acked > cr {
					return fmt.Errorf("rank %d: transaction %d was acknowledged, but the counter says %d: lost", r, acked, cr)
				}
			}
			// Transactions 1 to cr whole, cr+1 and cr+2 not at all.
			for k := 1; k <= cr+2; k++ {
				var has [3]bool
				var u [3]gdi.VertexUID
				for i := range 3 {
					u[i], has[i], err = tx.TranslateVertexID(s.v, []byte(fmt.Sprintf("%d-%d-%d", r, k, i)))
					if err != nil {
						return err
					}
				}
				wantHas := [3]bool{k <= cr, k <= cr, k <= cr && k > cr-3}
				if has != wantHas {
					return fmt.Errorf("rank %d, counter %d: transaction %d has vertices %v, want %v (partial or lost)", r, cr, k, has, wantHas)
				}
				for i := range 3 {
					if !has[i] || !has[(i+1)%3] {
						continue
					}
					v, err := tx.AssociateVertex(u[i])
					if err != nil {
						return err
					}
					ns, err := v.Neighbors(gdi.EdgeOutgoing, nil)
					if err != nil {
						return err
					}
					if !slices.Contains(ns, u[(i+1)%3]) {
						return fmt.Errorf("rank %d, transaction %d: edge %d→%d missing", r, k, i, (i+1)%3)
					}
				}
			}
			want += 2*cr + min(cr, 3)
		}
		hub, ok, err := findVertex(tx, s.c, "hub")
		if err != nil || !ok {
			return fmt.Errorf("hub: %v %w", ok, err)
		}
		vs, err := hub.Properties(s.last)
		if err != nil || len(vs) != 1 {
			return fmt.Errorf("hub: %v %w", vs, err)
		}
		if last := vs[0].RawString(); last != "" {
			var r, k int
			if _, err := fmt.Sscanf(last, "%d-%d", &r, &k); err != nil || r >= len(counts) || k < 1 || k > counts[r] {
				return fmt.Errorf("hub names transaction %q, which is not committed (counters %v)", last, counts)
			}
		}
		// Every vertex: found by its ID under each label and nothing else;
		// every edge has both ends.
		all, err := tx.VerticesOfIndex(s.allIndex, nil)
		if err != nil {
			return err
		}
		nv := 0
		for _, u := range all {
			v, err := tx.AssociateVertex(u)
			if err != nil {
				return err
			}
			ls, err := v.Labels()
			if err != nil {
				return err
			}
			ids, err := v.Properties(gdi.PropertyTypeID)
			if err != nil || len(ids) != 1 || len(ls) != 1 {
				return fmt.Errorf("vertex %v: labels %v, IDs %v, %v", u, ls, ids, err)
			}
			if ls[0] == s.v {
				nv++
			}
			w, ok, err := tx.TranslateVertexID(ls[0], ids[0].Raw())
			if err != nil || !ok || w != u {
				return fmt.Errorf("TranslateVertexID(%q) = %v %v %v, want %v", ids[0].Raw(), w, ok, err, u)
			}
			es, err := v.Edges(gdi.EdgeAll, nil)
			if err != nil {
				return err
			}
			for _, eu := range es {
				e, err := tx.AssociateEdge(eu)
				if err != nil {
					return err
				}
				o, t, err := e.Vertices()
				if err != nil {
					return err
				}
				for _, end := range []gdi.VertexUID{o, t} {
					if _, err := tx.AssociateVertex(end); err != nil {
						return fmt.Errorf("edge %v of %v: end %v: %w", eu, u, end, err)
					}
				}
			}
		}
		if nv != want {
			return fmt.Errorf("%d vertices with label V, want %d", nv, want)
		}
		if _, ok, err := tx.TranslateVertexID(s.v, []byte("no-such-vertex")); err != nil || ok {
			return fmt.Errorf("TranslateVertexID of an unknown ID: %v %v", ok, err)
		}
		return nil
	}
	err = check()
	return counts, errors.Join(err, c.Barrier())
}

// readAcked returns the last number in an acked file (0 if none).
func readAcked(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	last := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, err := strconv.Atoi(sc.Text())
		if err != nil {
			return 0, fmt.Errorf("%s: %q", path, sc.Text())
		}
		if k != last+1 {
			return 0, fmt.Errorf("%s: %d after %d", path, k, last)
		}
		last = k
	}
	return last, nil
}

// crashDrive runs GDI_CRASH_RUNS rounds of load, kill and check.
func crashDrive(t *testing.T) {
	runs, err := strconv.Atoi(os.Getenv("GDI_CRASH_RUNS"))
	if err != nil || runs < 1 {
		t.Fatalf("GDI_CRASH_RUNS=%q", os.Getenv("GDI_CRASH_RUNS"))
	}
	np := 2
	if s := os.Getenv("GDI_CRASH_NP"); s != "" {
		if np, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	mpirun := strings.Fields(os.Getenv("GDI_CRASH_MPIRUN"))
	if len(mpirun) == 0 {
		mpirun = []string{"mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none", "--mca", "osc", "sm", "--mca", "orte_allowed_exit_without_sync", "1"}
	}
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for run := 1; run <= runs; run++ {
		dir := filepath.Join(t.TempDir(), fmt.Sprintf("run-%d", run))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		job := func(phase string) *exec.Cmd {
			args := append(slices.Clone(mpirun[1:]), "-n", strconv.Itoa(np),
				"-x", "GDI_CRASH_PHASE="+phase, "-x", "GDI_CRASH_DIR="+dir,
				bin, "-test.run", "^TestCrash$", "-test.timeout", "10m")
			cmd := exec.Command(mpirun[0], args...)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			return cmd
		}
		load := job("load")
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
		var acked []int
		for r := range np {
			a, err := readAcked(filepath.Join(dir, fmt.Sprintf("acked-%d", r)))
			if err != nil {
				t.Fatal(err)
			}
			acked = append(acked, a)
		}
		check := job("check")
		cout, err := check.CombinedOutput()
		if err != nil {
			t.Fatalf("run %d (rank %d killed, acked %v): the check failed: %v\n%s\nload output:\n%s", run, victim, acked, err, cout, out.String())
		}
		t.Logf("run %d: rank %d killed after acknowledging %v transactions; recovered and checked", run, victim, acked)
	}
}
