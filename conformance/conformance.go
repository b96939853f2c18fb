package conformance

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Backend describes a backend under test.
type Backend struct {
	// Name names the backend in messages.
	Name string
	// Driver creates the databases of the cases.
	Driver gdi.Driver
	// Launch starts ranks, for example local.Run.
	Launch rma.Launcher
	// Params returns the params for Driver.CreateDatabase; a nil func means
	// nil params.
	Params func() any
	// Ranks lists the rank counts to run on; nil means {1, 2, 4}.
	Ranks []int
	// Skip names cases (by Case.Name) the backend does not pass yet, each
	// with the reason, which the subtest reports with t.Skip.
	Skip map[string]string
	// Restore, for a backend whose databases are gdi.Checkpointers,
	// returns the params with which Driver.CreateDatabase creates a
	// database from the checkpoint in dir. The Checkpoint cases are
	// skipped without it.
	Restore func(dir string) any
	// InjectCritical, if set, makes tx meet a transaction-critical error
	// and returns it. A collective read transaction of a quiet database
	// meets none through the interface, so the case of one on a single
	// rank of a collective transaction is skipped without it.
	InjectCritical func(tx gdi.Transaction) error
	// SmallIndexParams, if set, returns params for a database whose
	// explicit indexes hold at most a few hundred entries per rank; the
	// cases of running out of index memory are skipped without it.
	SmallIndexParams func() any
}

// Case is one rule of the GDI contract, checked on every rank. Run is called
// on every rank of a run with that rank's Env; it returns nil if the rank saw
// the rule kept, and otherwise an error that names what went wrong.
type Case struct {
	Name string
	Run  func(e *Env) error
}

// Env is what a case gets on one rank: the rank's Database (created for the
// case, freed after it), the Comm of the run, and helpers.
type Env struct {
	DB   gdi.Database
	Comm rma.Comm

	backend *Backend
	dir     string
	extra   []gdi.Database
	shared  *board

	mu     sync.Mutex
	goErrs []error
	wg     sync.WaitGroup
}

// Rank is the calling rank.
func (e *Env) Rank() int { return e.Comm.Rank() }

// Size is the number of ranks.
func (e *Env) Size() int { return e.Comm.Size() }

// TempDir is a directory for the files of the case. All ranks of a process
// share it.
func (e *Env) TempDir() string { return e.dir }

// NewDatabase creates another database with the backend's driver
// (collective). It is freed after the case.
func (e *Env) NewDatabase() gdi.Database {
	db, err := e.backend.Driver.CreateDatabase(e.Comm, e.backend.params())
	okf(err, "CreateDatabase (second database)")
	e.extra = append(e.extra, db)
	return db
}

// WriteFile writes data to name in TempDir from every rank (each writes the
// same bytes, atomically by rename, so ranks that share the directory do not
// race), waits for all ranks, and returns the path.
func (e *Env) WriteFile(name string, data []byte) string {
	path := filepath.Join(e.dir, name)
	tmp, err := os.CreateTemp(e.dir, name+".tmp*")
	if err != nil {
		e.Fatalf("creating fixture %s: %v", name, err)
	}
	if _, err := tmp.Write(data); err != nil {
		e.Fatalf("writing fixture %s: %v", name, err)
	}
	tmp.Close()
	if err := os.Rename(tmp.Name(), path); err != nil {
		e.Fatalf("renaming fixture %s: %v", name, err)
	}
	e.barrier()
	return path
}

// failure is the panic value of Fatalf; the harness turns it into the
// case's error.
// failure stops a case. critical tells that a transaction-critical error
// caused it: a concurrent transaction of another rank got in the way, and
// Env.update may try again.
type failure struct {
	err      error
	critical bool
}

// Fatalf stops the case on this rank with an error.
func (e *Env) Fatalf(format string, args ...any) {
	panic(failure{err: fmt.Errorf(format, args...)})
}

// Go runs fn in a new goroutine of the rank; a Fatalf inside it fails the
// case. Wait waits for all such goroutines.
func (e *Env) Go(fn func()) {
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		defer func() {
			if p := recover(); p != nil {
				e.mu.Lock()
				e.goErrs = append(e.goErrs, panicError(p))
				e.mu.Unlock()
			}
		}()
		fn()
	}()
}

// Wait waits for the goroutines started by Go, and fails if any failed.
func (e *Env) Wait() {
	e.wg.Wait()
	e.mu.Lock()
	err := errors.Join(e.goErrs...)
	e.goErrs = nil
	e.mu.Unlock()
	if err != nil {
		panic(failure{err: err})
	}
}

func panicError(p any) error {
	if f, ok := p.(failure); ok {
		return f.err
	}
	return fmt.Errorf("panic: %v\n%s", p, debug.Stack())
}

func (b *Backend) params() any {
	if b.Params == nil {
		return nil
	}
	return b.Params()
}

// c builds a case from a function that reports failures with Fatalf (and
// the helpers that call it).
func c(name string, fn func(e *Env)) Case {
	return Case{Name: name, Run: func(e *Env) (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = panicError(p)
			}
		}()
		fn(e)
		e.Wait()
		return nil
	}}
}

// Run runs every case on every rank count as subtests named
// "ranks=N/<case name>". A rank count the launcher cannot start (rma.ErrRanks)
// is skipped.
func Run(t *testing.T, b Backend) {
	t.Helper()
	ranks := b.Ranks
	if len(ranks) == 0 {
		ranks = []int{1, 2, 4}
	}
	for _, n := range ranks {
		t.Run(fmt.Sprintf("ranks=%d", n), func(t *testing.T) {
			for _, tc := range Cases {
				t.Run(tc.Name, func(t *testing.T) {
					if why, ok := b.Skip[tc.Name]; ok {
						t.Skipf("%s: skipped: %s", b.Name, why)
					}
					dir := t.TempDir()
					shared := &board{}
					err := b.Launch(n, func(comm rma.Comm) error {
						return runCase(&b, tc, comm, dir, shared)
					})
					if errors.Is(err, rma.ErrRanks) {
						t.Skipf("launcher cannot start %d ranks: %v", n, err)
					}
					if err != nil && errors.Is(err, ErrSkip) {
						t.Skip(err)
					}
					if err != nil {
						t.Fatalf("%s: %v", b.Name, err)
					}
				})
			}
		})
	}
}

// runCase runs one case on one rank: it creates the database, runs the
// case and frees the database (and any second database the case made).
// When the case fails, the databases are not freed: Free is collective and
// the other ranks may be elsewhere; the launcher aborts them.
func runCase(b *Backend, tc Case, comm rma.Comm, dir string, shared *board) error {
	shared.join()
	if err := comm.Barrier(); err != nil {
		return err
	}
	db, err := b.Driver.CreateDatabase(comm, b.params())
	if err := checkCoded(err); err != nil {
		return fmt.Errorf("CreateDatabase: %w", err)
	}
	if err != nil {
		return fmt.Errorf("CreateDatabase: %w", err)
	}
	e := &Env{DB: db, Comm: comm, backend: b, dir: dir, shared: shared}
	if err := tc.Run(e); err != nil {
		return err
	}
	for i := len(e.extra) - 1; i >= 0; i-- {
		if err := e.extra[i].Free(); err != nil {
			return fmt.Errorf("Free (second database): %w", err)
		}
	}
	if err := db.Free(); err != nil {
		return fmt.Errorf("Database.Free: %w", err)
	}
	return nil
}

// Cases is the suite, in the order Run runs it: a named table of rules,
// each named "Area/rule", exported so that a backend can list them.
var Cases = concat(
	metadataCases,
	vertexCases,
	propertyCases,
	edgeCases,
	incidentCases,
	prefetchCases,
	constraintCases,
	indexCases,
	transactionCases,
	csvCases,
	rewriterCases,
	datatypeCases,
	checkpointCases,
)

func concat(lists ...[]Case) []Case {
	var all []Case
	for _, l := range lists {
		all = append(all, l...)
	}
	return all
}
