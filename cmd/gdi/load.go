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
// is collective and returns the handles and the time the load took. A
// database restored from a checkpoint (restored) has g already: its
// handles are found by name, and the last vertex of g must be there.
func loadGraph(c rma.Comm, db gdi.Database, g *generator.Graph, restored bool, stderr io.Writer) (*generator.Metadata, time.Duration, error) {
	if restored {
		m, err := g.Scheme().FindMetadata(db)
		if err != nil {
			return nil, 0, err
		}
		return m, 0, hasVertex(db, m, g, g.NumVertices()-1)
	}
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

// hasVertex returns ErrArgument unless db has vertex x of g.
func hasVertex(db gdi.Database, m *generator.Metadata, g *generator.Graph, x uint64) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	defer tx.Abort()
	_, found, err := tx.TranslateVertexID(m.VertexLabels[g.VertexLabel(x)], generator.AppID(x))
	if err == nil && !found {
		err = gdi.Errorf(gdi.ErrArgument, "the restored database lacks vertex %d of the graph of these -scale, -edgefactor and -seed", x)
	}
	return err
}
