package csvimport

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/gdi-go/gdi/gdi"
)

// count finds how many lines every rank's share of every file has.
func (im *importer) count() error {
	files := im.files()
	mine := make([]byte, 0, 8*len(files))
	for _, f := range files {
		n := 0
		err := readShare(f.path, f.body, shareOf(f.body, f.size, im.c.Rank(), im.c.Size()), func(int, string) error {
			n++
			return nil
		})
		if err != nil {
			return err
		}
		mine = binary.LittleEndian.AppendUint64(mine, uint64(n))
	}
	all, err := im.c.Allgatherv(mine)
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "csvimport: %v", err)
	}
	im.lines = make([][]int, len(all))
	for r, buf := range all {
		if len(buf) != len(mine) {
			return gdi.Errorf(gdi.ErrIntern, "csvimport: rank %d counted %d files, not %d", r, len(buf)/8, len(files))
		}
		for i := range files {
			im.lines[r] = append(im.lines[r], int(binary.LittleEndian.Uint64(buf[8*i:])))
		}
	}
	for r, ls := range im.lines {
		n := uint64(0)
		for _, c := range ls[:len(im.vfiles)] {
			n += uint64(c)
		}
		if r < im.c.Rank() {
			im.first += n
		}
		im.total += n
	}
	return nil
}

// lineNo is the line number in file i (1 is the header) of line k of rank
// r's share of it.
func (im *importer) lineNo(r, i, k int) int {
	n := 2 + k
	for s := range r {
		n += im.lines[s][i]
	}
	return n
}

// vertices reads the vertices of the rank's shares of the vertex files.
func (im *importer) vertices() error {
	for i := range im.vfiles {
		var err error
		if im.rows, err = im.readVertexShare(im.c.Rank(), i, im.rows); err != nil {
			return err
		}
	}
	return nil
}

// readVertexShare appends the vertices of rank r's share of vertex file i
// to rows.
func (im *importer) readVertexShare(r, i int, rows []vertexRow) ([]vertexRow, error) {
	f := im.vfiles[i]
	rows = growRows(rows, im.lines[r][i])
	var fields []string
	err := readShare(f.path, f.body, shareOf(f.body, f.size, r, im.c.Size()), func(k int, line string) error {
		var err error
		if fields, err = appendFields(fields[:0], line, f.delim); err == nil {
			var row vertexRow
			if row, err = im.parseVertex(f, fields); err == nil {
				rows = append(rows, row)
				return nil
			}
		}
		return lineErr(f.path, im.lineNo(r, i, k), err)
	})
	return rows, err
}

func growRows(rows []vertexRow, n int) []vertexRow {
	if cap(rows)-len(rows) < n {
		rows = append(make([]vertexRow, 0, len(rows)+n), rows...)
	}
	return rows
}

// parseVertex makes the vertex of a line of vertex file f, split into
// fields.
func (im *importer) parseVertex(f *file, fields []string) (vertexRow, error) {
	if len(fields) != len(f.cols) {
		return vertexRow{}, fmt.Errorf("%d fields, the header has %d", len(fields), len(f.cols))
	}
	row := vertexRow{id: fields[f.id], labels: []string{f.cols[f.id].group}}
	if row.id == "" {
		return row, fmt.Errorf("no ID")
	}
	for j, c := range f.cols {
		switch c.role {
		case labelColumn:
			for _, l := range strings.Split(fields[j], string(im.opt.ArrayDelimiter)) {
				if l == "" {
					continue
				}
				l, err := gdi.NormalizeName(l)
				if err != nil {
					return row, fmt.Errorf("label %q: %v", fields[j], err)
				}
				if !slices.Contains(row.labels, l) {
					row.labels = append(row.labels, l)
				}
			}
		case property:
			var err error
			if row.props, err = im.appendProps(row.props, c, fields[j]); err != nil {
				return row, err
			}
		}
	}
	return row, nil
}

// appendProps appends the values of field, of property column c.
func (im *importer) appendProps(out []propValue, c column, field string) ([]propValue, error) {
	var buf [1]gdi.Value
	vs, err := parseValues(c.typ, field, im.opt.ArrayDelimiter, buf[:0])
	if err != nil {
		return out, fmt.Errorf("column %s: %w", c.name, err)
	}
	for _, v := range vs {
		out = append(out, propValue{c.prop, v})
	}
	return out, nil
}

// vertex returns vertex x: one of the rank's, or, for BulkLoad on a rank
// that owns vertices another rank read, read again from its share (kept
// for the next).
func (im *importer) vertex(x uint64) (*vertexRow, error) {
	if x >= im.first && x-im.first < uint64(len(im.rows)) {
		return &im.rows[x-im.first], nil
	}
	r, i, k, err := im.locate(x)
	if err != nil {
		return nil, err
	}
	key := [2]int{r, i}
	rows, ok := im.other[key]
	if !ok {
		if rows, err = im.readVertexShare(r, i, nil); err != nil {
			return nil, err
		}
		if im.other == nil {
			im.other = map[[2]int][]vertexRow{}
		}
		im.other[key] = rows
	}
	return &rows[k], nil
}

// locate finds vertex x: line k of rank r's share of vertex file i.
func (im *importer) locate(x uint64) (r, i, k int, err error) {
	left := x
	for r, ls := range im.lines {
		for i, n := range ls[:len(im.vfiles)] {
			if left < uint64(n) {
				return r, i, int(left), nil
			}
			left -= uint64(n)
		}
	}
	return 0, 0, 0, gdi.Errorf(gdi.ErrArgument, "csvimport: vertex %d of %d", x, im.total)
}

// where names the file and line of vertex x, for messages.
func (im *importer) where(x uint64) string {
	r, i, k, err := im.locate(x)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%s:%d", im.vfiles[i].path, im.lineNo(r, i, k))
}
