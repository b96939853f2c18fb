package main

import (
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/workload/olap"
)

// gnnFeatures is the length of the feature vectors of gdi bench olap -algo
// gnn, and gnnMLP the perceptron of its layer: fixed, so that runs compare.
const gnnFeatures = 8

var gnnMLP = func() olap.MLP {
	m := olap.MLP{B1: make([]float64, 16), B2: make([]float64, gnnFeatures)}
	for i := range 16 {
		row := make([]float64, gnnFeatures)
		for j := range row {
			row[j] = float64((i+j)%5-2) / 8
		}
		m.W1 = append(m.W1, row)
	}
	for i := range gnnFeatures {
		row := make([]float64, 16)
		for j := range row {
			row[j] = float64((i*j)%7-3) / 16
		}
		m.W2 = append(m.W2, row)
	}
	return m
}()

// benchGNN times one GNN layer (olap.GNNLayer: extraction and the local
// features in a collective read transaction, a halo exchange, then the
// write-back) on the vertices of idx, once every vertex has a feature
// vector; rank 0 fills fig. The layer as a whole is the query.
func benchGNN(c rma.Comm, db gdi.Database, idx gdi.Index, load time.Duration, fig *olapFigures) error {
	feat, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "feature", Entity: gdi.SingleEntity, Datatype: gdi.Double, Size: gdi.FixedSize, Count: gnnFeatures})
	if err != nil {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	err = olap.SetFeatures(db, c, idx, feat, func(id []byte) []float64 {
		f := make([]float64, gnnFeatures)
		for i := range f {
			f[i] = float64(len(id)+i) / 16
		}
		return f
	})
	if err != nil {
		return err
	}
	start := time.Now()
	if err := olap.GNNLayer(db, c, idx, feat, gnnMLP); err != nil {
		return err
	}
	if c.Rank() == 0 {
		took := time.Since(start)
		fig.Load, fig.Query, fig.Run = load, took, took
	}
	return nil
}
