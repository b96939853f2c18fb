package main

import (
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/workload/olap"
)

// searchesStorage tells whether gdi bench olap runs a single bfs or bi
// straight on the storage of db (olap.BFSOnStorage, olap.BIOnStorage): on
// a backend whose transactions are gdi.KeyedAdjacencyReaders and
// gdi.KeyedEdgePropertyScanners, unless -storage=false, -noscan or -roots
// ask otherwise.
func searchesStorage(db gdi.Database, opts olapRankOptions) bool {
	if !opts.storage || opts.roots > 0 || opts.noScan {
		return false
	}
	tx, err := db.StartTransaction()
	if err != nil {
		return false
	}
	defer tx.Abort()
	_, ok1 := tx.(gdi.KeyedAdjacencyReader)
	_, ok2 := tx.(gdi.KeyedEdgePropertyScanner)
	return ok1 && ok2
}

// benchOnStorage times a BFS straight on the storage: the query is the
// collective read transaction, from its start to its commit, and the
// search in it. With a baseline it extracts the graph in the same
// transaction before the commit, untimed, to check the levels and the
// tree (olap.Validate). Rank 0 fills fig. It is collective.
func benchOnStorage(c rma.Comm, db gdi.Database, idx gdi.Index, p olap.Params, want *olapBaseline, fig *olapFigures) error {
	queryStart := time.Now()
	tx, err := db.StartCollectiveTransaction()
	if err != nil {
		return err
	}
	defer tx.Abort()
	rounds, onRound := roundTimer(c)
	start := time.Now()
	res, err := olap.BFSOnStorage(tx.(gdi.KeyedAdjacencyReader), c, idx, p.Source, olap.Unreached, onRound)
	if err != nil {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	run, query := time.Since(start), time.Since(queryStart)
	if want.levels != nil {
		og, err := olap.Extract(tx, c, olap.ExtractOptions{Index: idx})
		if err != nil {
			return err
		}
		if err := olap.Validate(og, res); err != nil {
			return err
		}
		if err := rma.Agree(c, checkBFS(og, res, want.levels)); err != nil {
			return err
		}
	}
	commitStart := time.Now()
	if err := tx.Commit(); err != nil {
		return err
	}
	if c.Rank() == 0 {
		fig.Query, fig.Run, fig.Rounds = query+time.Since(commitStart), run, *rounds
	}
	return nil
}
