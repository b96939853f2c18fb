package gdirma

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/cespare/xxhash/v2"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/internal/catalog"
	"github.com/gdi-go/gdi/internal/wire"
)

// Routing the lines of a CSV load (csv.go) to the ranks that decide or
// change what they name. Every function here is collective.

// exchange sends send[r] to rank r and returns what each rank sent
// (Alltoallv).
func (db *Database) exchange(send [][]byte) ([][]byte, error) {
	recv, err := db.comm.Alltoallv(send)
	if err != nil {
		return nil, gdi.Errorf(gdi.ErrIntern, "gdirma: CSV load: %v", err)
	}
	return recv, nil
}

var errMessage = gdi.Errorf(gdi.ErrIntern, "gdirma: CSV load: a malformed message")

// firstLines sets first[i] for each line whose ID no earlier line of the
// file has: each ID goes, with its line's number, to the rank its hash
// names, which answers whether that line is the first with it. Lines
// without an ID are first, and so are all lines if unique is false (the
// IDs of vertices without labels need not be unique).
func (db *Database) firstLines(lines []catalog.CSVLine, unique bool, first []bool) error {
	for i := range first {
		first[i] = true
	}
	if !unique {
		return nil
	}
	size := db.comm.Size()
	send := make([][]byte, size)
	type asked struct{ rank, index int }
	at := make([]asked, len(lines))
	counts := make([]int, size)
	for i, p := range lines {
		at[i] = asked{-1, 0}
		if id := p.IDs[0]; id != "" {
			o := int(xxhash.Sum64String(id) % uint64(size))
			send[o] = binary.AppendUvarint(send[o], uint64(p.Line))
			send[o] = wire.AppendString(send[o], id)
			at[i], counts[o] = asked{o, counts[o]}, counts[o]+1
		}
	}
	recv, err := db.exchange(send)
	if err != nil {
		return err
	}
	type ask struct {
		id   string
		line uint64
	}
	asks := make([][]ask, size)
	firstOf := map[string]uint64{}
	for r, buf := range recv {
		for len(buf) > 0 {
			line, rest, ok := wire.Uvarint(buf)
			idb, rest, ok2 := wire.Bytes(rest)
			if !ok || !ok2 {
				return errMessage
			}
			id := string(idb)
			buf = rest
			asks[r] = append(asks[r], ask{id, line})
			if l, ok := firstOf[id]; !ok || line < l {
				firstOf[id] = line
			}
		}
	}
	for r, as := range asks {
		reply := make([]byte, len(as))
		for i, a := range as {
			if firstOf[a.id] == a.line {
				reply[i] = 1
			}
		}
		send[r] = reply
	}
	answers, err := db.exchange(send)
	if err != nil {
		return err
	}
	for i, a := range at {
		if a.rank >= 0 {
			if a.index >= len(answers[a.rank]) {
				return errMessage
			}
			first[i] = answers[a.rank][a.index] == 1
		}
	}
	return nil
}

// propLine is a line of LoadVertexPropertiesCSV: the vertex it changes,
// and the value it adds (zero for an empty field).
type propLine struct {
	line  int
	n     layout.Number
	value gdi.Value
}

// routeProps sends each line to the rank of its vertex and returns the
// lines of the rank's vertices, by vertex and then in file order.
func (db *Database) routeProps(out []propLine) ([]propLine, error) {
	send := make([][]byte, db.comm.Size())
	for _, p := range out {
		r := p.n.Holder().Rank()
		b := binary.AppendUvarint(send[r], uint64(p.line))
		b = binary.LittleEndian.AppendUint64(b, uint64(p.n))
		b = append(b, byte(p.value.Datatype()))
		send[r] = wire.AppendString(b, p.value.RawString())
	}
	recv, err := db.exchange(send)
	if err != nil {
		return nil, err
	}
	var mine []propLine
	for _, buf := range recv {
		for len(buf) > 0 {
			line, rest, ok := wire.Uvarint(buf)
			if !ok || len(rest) < 9 {
				return nil, errMessage
			}
			p := propLine{line: int(line), n: layout.Number(binary.LittleEndian.Uint64(rest))}
			dt := gdi.Datatype(rest[8])
			raw, rest, ok := wire.Bytes(rest[9:])
			if !ok {
				return nil, errMessage
			}
			if dt != 0 {
				if p.value, err = gdi.NewValue(dt, raw); err != nil {
					return nil, errMessage
				}
			}
			buf = rest
			mine = append(mine, p)
		}
	}
	slices.SortFunc(mine, func(a, b propLine) int { return cmp.Or(cmp.Compare(a.n, b.n), cmp.Compare(a.line, b.line)) })
	return mine, nil
}
