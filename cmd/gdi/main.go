// Command gdi is the command-line tool of the GDI Go project.
//
//	gdi demo [-ranks N] [-keys K]               exercise rma, bgdl and the DHT
//	gdi gen -scale S [-format edgelist|csv] ...  generate a Kronecker LPG graph
//	gdi bench oltp -workload W -scale S ...      run a LinkBench-style mix
//	gdi bench olap -algo A -scale S ...          time bfs, khop, pr, wcc, cdlp, lcc, sssp, bi or gnn
//	gdi olap -algo A -graph PATH/NAME ...        run a Graphalytics algorithm
//	gdi import [-ranks N] DIR                   load a directory of neo4j-admin-import CSV files
//	gdi check DIR                               verify a checkpoint and its redo logs
//	gdi query [-restore DIR] 'STATEMENT'        run openCypher statements (package cypher)
//	gdi shell [-restore DIR]                    an interactive openCypher prompt
//	gdi version                                 print the version and revision
//
// Each subcommand lists its flags with -h.
// Ranks are goroutines (rma/local) unless the binary was built with -tags mpi
// and started by mpirun.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

type command struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) error
}

var commands = []command{
	{"demo", "exercise the foundation layer (rma, bgdl, dht) on several ranks", runDemo},
	{"gen", "generate a Graph500 Kronecker graph with labels and properties", runGen},
	{"bench", "bench oltp: run a LinkBench-style mix on a generated graph; bench olap: time an analytics algorithm on one", runBench},
	{"import", "load a directory of CSV files with neo4j-admin import headers into a gdirma database", runImport},
	{"query", "run openCypher statements on a new database or a gdirma checkpoint; print tables or JSON", runQuery},
	{"shell", "an interactive openCypher prompt on a new database or a gdirma checkpoint", runShell},
	{"check", "verify a GDI-RMA checkpoint and its redo logs offline (gdi check DIR)", runCheck},
	{"olap", "run a graph algorithm on a Graphalytics data set (bfs, khop, pr, wcc, cdlp, lcc, sssp)", runOlap},
	{"version", "print the module version and the revision it was built from", runVersion},
}

func main() {
	limitMemory()
	shareCPUs()
	floorHeap()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		usage(stderr)
		return 2
	case args[0] == "-h" || args[0] == "-help" || args[0] == "--help":
		usage(stdout)
		return 0
	case args[0] == "help" && len(args) > 1: // gdi help CMD ...
		args = append(args[1:], "-h")
	case args[0] == "help":
		usage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			err := c.run(args[1:], stdout, stderr)
			if errors.Is(err, flag.ErrHelp) {
				return 0 // the usage was asked for
			}
			if err != nil {
				fmt.Fprintf(stderr, "gdi %s: %v\n", c.name, err)
				return 1
			}
			return 0
		}
	}
	fmt.Fprintf(stderr, "gdi: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: gdi <command> [flags]\n\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\ngdi help <command> (or gdi <command> -h) describes a command and its flags.")
}
