package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/gdi-go/gdi/csvimport"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

const importUsage = `usage: gdi import [flags] DIR

Loads the CSV files of DIR (and below) into a new gdirma database on
-ranks ranks, every rank reading its share of every file: files with the
headers of neo4j-admin import (:ID(Space), :START_ID(Space),
:END_ID(Space), :LABEL, :TYPE, name:type, type[] arrays), as
gdi gen -format csv and LDBC SNB's generator write them. The schema comes
from the headers (see package csvimport). A malformed file loads nothing;
the error names the file and line. With -checkpoint, the loaded database
is written to a directory that gdi check and gdirma.Params.Restore open.

flags:
`

// runImport is the import subcommand.
func runImport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ranks := fs.Int("ranks", 2, "number of ranks (the MPI processes under mpirun)")
	blockSize := fs.Int("blocksize", 0, "gdirma block size in bytes (0: the default)")
	memory := fs.Int("memory", 0, "gdirma block memory per rank in MiB (0: estimated from the files)")
	delim := fs.String("delimiter", "", "field delimiter (default: ',', or '|' for a file whose header has one and no comma)")
	arrayDelim := fs.String("array-delimiter", ";", "delimiter of array elements and of labels")
	undirected := fs.Bool("undirected", false, "make the edges undirected")
	checkpoint := fs.String("checkpoint", "", "write a checkpoint of the loaded database to this directory")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	prof := fs.String("profile", "", "write a cpu or mem profile of the run to the current directory")
	fs.Usage = func() { fmt.Fprint(stderr, importUsage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("want one directory")
	}
	if err := checkBounds(fs); err != nil {
		return err
	}
	opt := csvimport.Options{Direction: gdi.Directed}
	if *undirected {
		opt.Direction = gdi.Undirected
	}
	for _, d := range []struct {
		flag string
		into *byte
	}{{*delim, &opt.Delimiter}, {*arrayDelim, &opt.ArrayDelimiter}} {
		if len(d.flag) > 1 {
			return fmt.Errorf("a delimiter is one byte, not %q", d.flag)
		}
		if d.flag != "" {
			*d.into = d.flag[0]
		}
	}
	if !*quiet {
		opt.Progress = stderr
	}
	stop, err := startProfile(*prof, stderr)
	if err != nil {
		return err
	}
	defer stop()
	dir := fs.Arg(0)
	size, err := csvimport.Measure(dir, opt)
	if err != nil {
		return err
	}
	s := sizing{size.Vertices, size.Edges, *ranks, *blockSize, *memory << 20, size.RichEdges}
	if err := checkMemory(params("gdirma", s), *ranks, fmt.Sprintf("%d vertices and %d edges with -ranks %d", size.Vertices, size.Edges, *ranks)); err != nil {
		return err
	}
	err = launch.Run(*ranks, func(c rma.Comm) error { return importOn(c, dir, opt, s, *checkpoint, stdout) })
	return errors.Join(err, launch.Finalize())
}

// importOn is the import on one rank.
func importOn(c rma.Comm, dir string, opt csvimport.Options, s sizing, checkpoint string, stdout io.Writer) error {
	db, err := gdirma.Driver{}.CreateDatabase(c, params("gdirma", s))
	if err != nil {
		return err
	}
	st, err := csvimport.Import(c, db, dir, opt)
	if err == nil && c.Rank() == 0 {
		total := st.Parse + st.Load
		fmt.Fprintf(stdout, "imported %d vertices and %d edges from %d files on %d ranks in %v (reading %v, loading %v)\n",
			st.Vertices, st.Edges, st.Files, c.Size(), total.Round(time.Millisecond), st.Parse.Round(time.Millisecond), st.Load.Round(time.Millisecond))
		fmt.Fprintf(stdout, "rate: %.2f M edges/s, %.2f M vertices+edges/s\n",
			float64(st.Edges)/total.Seconds()/1e6, float64(st.Vertices+st.Edges)/total.Seconds()/1e6)
	}
	if err == nil && checkpoint != "" {
		start := time.Now()
		if err = db.(*gdirma.Database).Checkpoint(checkpoint); err == nil && c.Rank() == 0 {
			fmt.Fprintf(stdout, "checkpoint: %s written in %v\n", checkpoint, time.Since(start).Round(time.Millisecond))
		}
	}
	return errors.Join(err, db.Free())
}
