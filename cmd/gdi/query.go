package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gdi-go/gdi/cypher"
	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

const queryUsage = `usage: gdi query [flags] 'STATEMENT'
       gdi query [flags] -f FILE

Runs openCypher statements (package cypher) on a database of -ranks ranks:
a new, empty one, or the gdirma checkpoint -restore DIR (written by
gdi query -checkpoint, gdi import -checkpoint, gdi olap -checkpoint, …, on
as many ranks). With -f, FILE holds several statements separated by ';'
(a ';' inside a string, a back-quoted name or a comment does not count),
run in order; the first that fails stops the run. -f - reads the
statements from the standard input.

Each result prints as a table, as cypher-shell does, its cells in Cypher
notation, then the number of rows and the time the statement took; with
-json, all results print as one JSON array of {"columns": [...],
"rows": [[...]]}, nodes as {"id", "labels", "properties"} and
relationships as {"id", "type", "start", "end", "properties"}.
-param name=value (repeatable) gives $name the value, a Cypher literal:
-param name="'Ada'" -param n=3 -param l="[1, 2.5, 'x']". An error prints
with its line and column and exits 1. With -checkpoint DIR, the database
is written to DIR after the statements (gdirma only).

flags:
`

// dbOptions are the flags of the database a Cypher command runs on.
type dbOptions struct {
	ranks   int
	backend string
	restore string
	memory  int // MiB per rank, 0 for the backend's default
}

func (o *dbOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&o.ranks, "ranks", 1, "number of ranks (local goroutines, or the MPI processes under mpirun); with -restore, as many as the checkpoint's")
	fs.StringVar(&o.backend, "backend", defaultBackend, "GDI backend: "+strings.Join(driverNames(), ", "))
	fs.StringVar(&o.restore, "restore", "", "gdirma: run on the database of this checkpoint instead of a new empty one")
	fs.IntVar(&o.memory, "memory", 0, "gdirma block memory per rank of a new database in MiB (0: the backend's default)")
}

// params returns the driver and its CreateDatabase parameters.
func (o *dbOptions) params() (gdi.Driver, any, error) {
	driver, err := driverByName(o.backend)
	if err != nil {
		return nil, nil, err
	}
	if o.backend != "gdirma" {
		if o.restore != "" || o.memory != 0 {
			return nil, nil, errors.New("-restore and -memory need the gdirma backend")
		}
		return driver, nil, nil
	}
	switch {
	case o.restore != "":
		if o.memory != 0 {
			return nil, nil, errors.New("-memory is for a new database; a checkpoint (-restore) has its sizes")
		}
		return driver, &gdirma.Params{Restore: o.restore}, nil
	case o.memory != 0:
		p := &gdirma.Params{MemoryPerRank: o.memory << 20}
		return driver, p, checkMemory(p, o.ranks, fmt.Sprintf("-memory %d with -ranks %d", o.memory, o.ranks))
	}
	return driver, nil, nil
}

// openEngine creates the database on this rank and opens the Cypher
// engine on it (collective). The caller frees the database.
func openEngine(comm rma.Comm, driver gdi.Driver, dbParams any) (gdi.Database, *cypher.Engine, error) {
	db, err := driver.CreateDatabase(comm, dbParams)
	if err != nil {
		return nil, nil, err
	}
	eng, err := cypher.Open(comm, db)
	if err != nil {
		return nil, nil, errors.Join(err, db.Free())
	}
	return db, eng, nil
}

// runQuery is the query subcommand.
func runQuery(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	fs.SetOutput(stderr)
	usageOf(fs, queryUsage, stderr)
	var opt dbOptions
	opt.register(fs)
	file := fs.String("f", "", "read the statements from this file (- for the standard input), separated by ';'")
	asJSON := fs.Bool("json", false, "print the results as a JSON array")
	checkpoint := fs.String("checkpoint", "", "gdirma: after the statements, write a checkpoint of the database to this directory")
	var params paramFlag
	fs.Var(&params, "param", "a parameter: name=value, the value a Cypher literal (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkBounds(fs); err != nil {
		return err
	}
	var src, name string
	switch {
	case *file != "" && fs.NArg() > 0:
		return fmt.Errorf("give the statements with -f or as an argument, not both (unexpected arguments %q)", fs.Args())
	case *file == "-": // rank 0 reads it: under mpirun, the others have no input
		name = "stdin"
	case *file != "":
		b, err := os.ReadFile(*file)
		if err != nil {
			return err
		}
		src, name = string(b), *file
	case fs.NArg() == 1:
		src = fs.Arg(0)
	case fs.NArg() == 0:
		fs.Usage()
		return errors.New("want a statement (or -f FILE)")
	default:
		return fmt.Errorf("want one statement, in quotes; unexpected arguments %q", fs.Args()[1:])
	}
	if *checkpoint != "" && opt.backend != "gdirma" {
		return errors.New("-checkpoint needs the gdirma backend")
	}
	driver, dbParams, err := opt.params()
	if err != nil {
		return err
	}
	stdin := *file == "-"
	if !stdin {
		if _, err := statementsOf(src); err != nil {
			return err
		}
	}
	q := &queryRun{name: name, params: params.m, json: *asJSON, checkpoint: *checkpoint, out: stdout}
	err = launch.Run(opt.ranks, func(comm rma.Comm) error {
		src := src
		if stdin {
			var text []byte
			var err error
			if comm.Rank() == 0 {
				text, err = io.ReadAll(os.Stdin)
			}
			if err := rma.Agree(comm, err); err != nil {
				return err
			}
			if src, err = bcastText(comm, string(text)); err != nil {
				return err
			}
		}
		stmts, err := statementsOf(src)
		if err != nil {
			return err
		}
		db, eng, err := openEngine(comm, driver, dbParams)
		if err != nil {
			return err
		}
		return errors.Join(q.run(comm, db, eng, src, stmts), db.Free())
	})
	var se *stmtError
	if errors.As(err, &se) { // every rank failed alike: say it once
		err = se
	}
	return errors.Join(err, launch.Finalize())
}

// statementsOf returns the statements of src, the last one with or
// without its ';'.
func statementsOf(src string) ([]parse.Piece, error) {
	sp := parse.SplitStatements(src)
	stmts := sp.Statements
	if sp.Rest != nil {
		stmts = append(stmts, *sp.Rest)
	}
	if sp.Open {
		return nil, &stmtError{"the statements end inside a string, a back-quoted name or a comment"}
	}
	if len(stmts) == 0 {
		return nil, &stmtError{"no statement to run"}
	}
	return stmts, nil
}

// bcastText sends rank 0's text to every rank (collective; the other
// ranks pass anything).
func bcastText(comm rma.Comm, text string) (string, error) {
	n := binary.LittleEndian.AppendUint64(nil, uint64(len(text)))
	if err := comm.Bcast(n, 0); err != nil {
		return "", err
	}
	buf := make([]byte, binary.LittleEndian.Uint64(n))
	if comm.Rank() == 0 {
		copy(buf, text)
	}
	if err := comm.Bcast(buf, 0); err != nil {
		return "", err
	}
	return string(buf), nil
}

// queryRun is what gdi query runs on every rank.
type queryRun struct {
	name       string
	params     map[string]value.Value
	json       bool
	checkpoint string
	out        io.Writer
}

func (q *queryRun) run(comm rma.Comm, db gdi.Database, eng *cypher.Engine, src string, stmts []parse.Piece) (err error) {
	var results []json.RawMessage
	if q.json && comm.Rank() == 0 {
		defer func() { // what ran, also when a statement failed
			b, jerr := json.MarshalIndent(results, "", "  ")
			if results == nil {
				b = []byte("[]")
			}
			_, werr := fmt.Fprintf(q.out, "%s\n", b)
			err = errors.Join(err, jerr, werr)
		}()
	}
	for _, st := range stmts {
		start := time.Now()
		res, err := eng.Run(context.Background(), st.Text, q.params)
		elapsed := time.Since(start)
		if err != nil {
			return statementError(src, q.name, st, err)
		}
		if comm.Rank() != 0 {
			continue
		}
		if q.json {
			results = append(results, resultJSON(res))
			continue
		}
		if err := writeTable(q.out, res, elapsed); err != nil {
			return err
		}
	}
	if q.checkpoint == "" {
		return nil
	}
	cp, ok := db.(gdi.Checkpointer)
	if !ok {
		return fmt.Errorf("the backend cannot write checkpoints")
	}
	start := time.Now()
	if err := cp.Checkpoint(q.checkpoint); err != nil {
		return err
	}
	if comm.Rank() == 0 && !q.json {
		fmt.Fprintf(q.out, "checkpoint: %s written in %s\n", q.checkpoint, millis(time.Since(start)))
	}
	return nil
}
