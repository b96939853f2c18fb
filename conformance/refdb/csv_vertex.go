package refdb

import (
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// LoadVertexCSV creates one vertex per line (collective, barrier). A line
// whose ID another vertex has under one of the labels is skipped.
func (db *Database) LoadVertexCSV(req gdi.VertexCSV) error {
	var labels []uint32
	var cols csvColumns
	args := fmt.Sprintf("labels %v, property types %v", ids(req.Labels), ids(req.PropertyTypes))
	size := db.comm.Size()
	return db.load("LoadVertexCSV", args, req.CSVFile, 1+len(req.PropertyTypes), func() (err error) {
		if err = checkSort(req.Sort, gdi.NoSorting, gdi.AscSorting, gdi.DescSorting); err != nil {
			return err
		}
		if labels, err = db.csvLabels(req.Labels); err != nil {
			return err
		}
		cols, err = db.csvColumns(req.PropertyTypes)
		return err
	}, func(s *store, lines [][]string) error {
		rows, err := parseRows(lines, 1, cols, req.CSVFile)
		if err != nil {
			return err
		}
		if skipped := s.storeVertices(rows, labels, cols, size); skipped > 0 {
			return errSkipped("LoadVertexCSV", skipped)
		}
		return nil
	})
}

// storeVertices stores a vertex per row and returns how much it skipped.
// The caller holds mu.
func (s *store) storeVertices(rows []csvRow, labels []uint32, cols csvColumns, ranks int) (skipped int) {
	for i, row := range rows {
		r := &record{home: i % ranks, labels: slices.Clone(labels)}
		if row.hasID[0] {
			if s.idTaken(vertexKind, labels, row.ids[0]) {
				skipped++
				continue
			}
			r.props = []property{{gdi.PropertyTypeID.ID(), gdi.Bytes([]byte(row.ids[0]))}}
		}
		skipped += cols.add(s, vertexKind, r, row.values)
		s.install(vertexKind, s.newNumberLocked(), r)
	}
	return skipped
}

// LoadVertexPropertiesCSV adds one property per line to the vertex with
// the line's ID and the request's label (collective, barrier). Lines of
// unknown vertices are skipped.
func (db *Database) LoadVertexPropertiesCSV(req gdi.VertexPropertiesCSV) error {
	var label uint32
	var cols csvColumns
	args := fmt.Sprintf("label %d, property type %d", req.Label.ID(), req.PropertyType.ID())
	return db.load("LoadVertexPropertiesCSV", args, req.CSVFile, 2, func() (err error) {
		if err = checkSort(req.Sort, gdi.NoSorting, gdi.AscSorting, gdi.DescSorting, gdi.Grouped); err != nil {
			return err
		}
		if label, err = db.labelNumber(req.Label); err != nil {
			return err
		}
		cols, err = db.csvColumns([]gdi.PropertyType{req.PropertyType})
		return err
	}, func(s *store, lines [][]string) error {
		rows, err := parseRows(lines, 1, cols, req.CSVFile)
		if err != nil {
			return err
		}
		if skipped := s.storeProperties(rows, label, cols); skipped > 0 {
			return errSkipped("LoadVertexPropertiesCSV", skipped)
		}
		return nil
	})
}

// storeProperties adds the value of each row to its vertex and returns
// how much it skipped. The caller holds mu.
func (s *store) storeProperties(rows []csvRow, label uint32, cols csvColumns) (skipped int) {
	for _, row := range rows {
		n, ok := s.vertexWithID(label, row.ids[0], row.hasID[0])
		if !ok {
			skipped++
			continue
		}
		r := s.get(vertexKind, n).clone()
		skipped += cols.add(s, vertexKind, r, row.values)
		s.install(vertexKind, n, r)
	}
	return skipped
}

// vertexWithID returns the committed vertex with label l (noLabel: no
// labels) and ID id; with several (possible without labels), the first.
// The caller holds mu.
func (s *store) vertexWithID(l uint32, id string, hasID bool) (uint64, bool) {
	if !hasID {
		return 0, false
	}
	ns := s.idMatches(idKey{vertexKind, l, id})
	if len(ns) == 0 {
		return 0, false
	}
	return ns[0], true
}
