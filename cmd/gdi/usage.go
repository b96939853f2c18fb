package main

import (
	"flag"
	"fmt"
	"io"
	"runtime/debug"
)

// Usage texts of the subcommands that had only their flags, and the
// conventions every subcommand follows: -h prints the prose usage and the
// flags and exits 0; an argument that is no flag is an error.

const demoUsage = `usage: gdi demo [flags]

Exercises the foundation layer on -ranks ranks: a pool of blocks (bgdl)
and the distributed hash table (dht) take -keys application IDs, look
them all up, and count the blocks in use. It prints what it did and
fails if a lookup finds a wrong value.

flags:
`

const benchUsage = `usage: gdi bench oltp|olap [flags]

  gdi bench oltp   generate a Kronecker graph into a database on every rank
                   and run a LinkBench-style mix (rm, ri, wi, lb) on it
  gdi bench olap   generate a graph and time an analytics algorithm on it

gdi bench oltp -h and gdi bench olap -h list their flags.
`

const benchOLTPUsage = `usage: gdi bench oltp [flags]

Generates a Graph500 Kronecker graph (2^scale vertices) with the labels and
properties of the GDI-RMA evaluation into a database on -ranks ranks, then
runs the OLTP mix -workload (rm, ri, wi or lb, as in the GDI paper) from
-goroutines goroutines per rank, for -count operations or -duration, and
prints the throughput and the latency of each operation type (-json for
a report). With -restore DIR it runs on a checkpoint of the same graph
instead of loading it.

flags:
`

const benchOLAPUsage = `usage: gdi bench olap [flags]

Generates a Graph500 Kronecker graph into a database on -ranks ranks and
times the algorithm -algo on it inside a collective read transaction:
the extraction of the graph, and the algorithm's rounds. With -baseline
csr it also runs the algorithm on a plain CSR outside the database and
checks the answers.

flags:
`

// usageOf sets the usage of fs: text, then the flags.
func usageOf(fs *flag.FlagSet, text string, w io.Writer) {
	fs.Usage = func() {
		fmt.Fprint(w, text)
		fs.PrintDefaults()
	}
}

// noArgs returns an error naming the arguments of fs that are no flags.
func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (flags go before them; see -h)", fs.Args())
	}
	return nil
}

// runVersion is the version subcommand: the module's version and the
// revision it was built from, as the Go toolchain recorded them.
func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	usageOf(fs, "usage: gdi version\n\nPrints the version of the gdi module and the VCS revision it was built from.\n", stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkParsed(fs); err != nil {
		return err
	}
	fmt.Fprintln(stdout, versionLine())
	return nil
}

// versionLine describes the build: module version, revision, whether the
// tree was modified, and the Go version.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "gdi (no build information)"
	}
	version, revision, modified := info.Main.Version, "no VCS revision recorded", ""
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = " (modified)"
			}
		}
	}
	return fmt.Sprintf("gdi %s, %s%s, %s", version, revision, modified, info.GoVersion)
}
