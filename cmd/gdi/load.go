package main

import (
	"io"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
)

// loadGraph creates the metadata of g in db and loads g into it on every
// rank: with the backend's collective gdi.BulkLoader, or through transactions
// (generator.Insert) on other backends, with a progress bar on rank 0. It
// is collective and returns the handles and the time the load took.
func loadGraph(c rma.Comm, db gdi.Database, g *generator.Graph, stderr io.Writer) (*generator.Metadata, time.Duration, error) {
	m, err := g.Scheme().CreateMetadata(db)
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	if bulk, ok := db.(gdi.BulkLoader); ok {
		if c.Rank() == 0 {
			io.WriteString(stderr, "load: bulk loading\n")
		}
		err = bulk.BulkLoad(g.BulkSource(m))
	} else {
		var bar *progressBar
		if c.Rank() == 0 {
			bar = newProgressBar(stderr, "load", g.NumVertices()+g.NumEdges(), 0, "vertices and edges")
		}
		// Rank 0 draws the bar, scaling its own share up to the whole graph.
		err = g.Insert(c, db, m, generator.InsertOptions{Progress: func(n uint64) { bar.add(n * uint64(c.Size())) }})
		if err == nil && bar != nil {
			bar.done = bar.total
			bar.finish(time.Since(start))
		}
	}
	if err != nil {
		return nil, 0, err
	}
	if err := c.Barrier(); err != nil {
		return nil, 0, err
	}
	return m, time.Since(start), nil
}
