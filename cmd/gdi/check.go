package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

const checkUsage = `usage: gdi check DIR

Verifies the GDI-RMA checkpoint in DIR and the redo logs beside it,
offline: the manifest's seal and contents, the size and SHA-256 of every
rank file, the header, sequence and checksums of every log record. Then
it restores the database on as many local ranks as the checkpoint has
(the MPI processes under mpirun), replaying the logs, and checks every
holder and the implicit index against the holders. It prints what it
found and exits with status 1 at the first damage, naming the file.
Nothing in DIR is written.
`

// runCheck is the check subcommand.
func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, checkUsage) }
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("want one directory")
	}
	dir := fs.Arg(0)
	rep, err := gdirma.InspectCheckpoint(dir)
	if rep != nil {
		printCheckpointReport(stdout, rep)
	}
	if err != nil {
		return err
	}
	return launch.Run(rep.Ranks, func(c rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{Restore: dir, LogDir: dir})
		if err != nil {
			return fmt.Errorf("restore: %w", err)
		}
		defer db.Free()
		gdb := db.(*gdirma.Database)
		if err := errors.Join(gdb.CheckHolders(), gdb.CheckImplicitIndex()); err != nil {
			return fmt.Errorf("rank %d: %w", c.Rank(), err)
		}
		if c.Rank() == 0 {
			ls, _ := db.Labels()
			fmt.Fprintf(stdout, "restored with the logs replayed: %d labels; holders and implicit index of every rank consistent\n", len(ls))
		}
		return nil
	})
}

func printCheckpointReport(w io.Writer, rep *gdirma.CheckpointReport) {
	fmt.Fprintf(w, "checkpoint: generation %d, format %d, %d ranks, log sequence %d\n", rep.Generation, rep.Format, rep.Ranks, rep.LogSeq)
	for _, f := range rep.Files {
		fmt.Fprintf(w, "  %s: size and SHA-256 as the manifest says\n", f)
	}
	for _, l := range rep.Logs {
		switch {
		case !l.Exists:
			fmt.Fprintf(w, "  %s: none\n", l.Path)
		default:
			torn := "no torn tail"
			if l.Torn >= 0 {
				torn = fmt.Sprintf("a torn tail cut at offset %d", l.Torn)
			}
			fmt.Fprintf(w, "  %s: %d records after the checkpoint (%d of metadata), %s\n", l.Path, l.Records, l.Catalog, torn)
		}
	}
}
