package refdb

import (
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// edgeLoad is what LoadEdgeCSV stores on every line besides the values.
type edgeLoad struct {
	dir            gdi.DirectionType
	labels         []uint32
	origin, target uint32 // the labels that find the ends
}

// LoadEdgeCSV creates one edge per line between existing vertices
// (collective, barrier). Lines naming unknown vertices are skipped.
func (db *Database) LoadEdgeCSV(req gdi.EdgeCSV) error {
	var load edgeLoad
	var cols csvColumns
	args := fmt.Sprintf("direction %d, labels %v, property types %v, ends %d %d",
		req.Direction, ids(req.Labels), ids(req.PropertyTypes), req.OriginLabel.ID(), req.TargetLabel.ID())
	size := db.comm.Size()
	return db.load("LoadEdgeCSV", args, req.CSVFile, 2+len(req.PropertyTypes), func() (err error) {
		if err = checkSort(req.Sort, gdi.NoSorting, gdi.OriginTarget, gdi.TargetOrigin); err != nil {
			return err
		}
		if !req.Direction.Valid() {
			return gdi.Errorf(gdi.ErrState, "direction %v", req.Direction)
		}
		load.dir = req.Direction
		if load.labels, err = db.csvLabels(req.Labels); err != nil {
			return err
		}
		if load.origin, err = db.labelNumber(req.OriginLabel); err != nil {
			return err
		}
		if load.target, err = db.labelNumber(req.TargetLabel); err != nil {
			return err
		}
		cols, err = db.csvColumns(req.PropertyTypes)
		return err
	}, func(s *store, lines [][]string) error {
		rows, err := parseRows(lines, 2, cols, req.CSVFile)
		if err != nil {
			return err
		}
		if skipped := s.storeEdges(rows, load, cols, size); skipped > 0 {
			return errSkipped("LoadEdgeCSV", skipped)
		}
		return nil
	})
}

// storeEdges stores an edge per row whose ends exist, and returns how much
// it skipped. The caller holds mu.
func (s *store) storeEdges(rows []csvRow, load edgeLoad, cols csvColumns, ranks int) (skipped int) {
	for i, row := range rows {
		o, ok1 := s.vertexWithID(load.origin, row.ids[0], row.hasID[0])
		t, ok2 := s.vertexWithID(load.target, row.ids[1], row.hasID[1])
		if !ok1 || !ok2 {
			skipped++
			continue
		}
		r := &record{home: i % ranks, labels: slices.Clone(load.labels), dir: load.dir, origin: o, target: t}
		skipped += cols.add(s, edgeKind, r, row.values)
		n := s.newNumberLocked()
		s.install(edgeKind, n, r)
		for _, end := range r.ends() {
			v := s.get(vertexKind, end).clone()
			v.addEdge(n)
			s.install(vertexKind, end, v)
		}
	}
	return skipped
}
