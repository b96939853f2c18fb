package csvimport

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/wire"
	"github.com/gdi-go/gdi/rma"
)

// Resolving the ends of edges. The vertices are keyed by their ID space
// and ID; a key belongs to the rank its hash names. indexIDs gives each
// rank the numbers of the vertices whose keys are its own; the edges are
// then read in rounds, in each of which every rank asks the owners of
// their ends' keys for the numbers (two Alltoallv), as BulkLoad routes
// edges. No rank holds more than its share of the keys and a round of
// edges.

// key is the key of the vertex with ID id in ID space group.
func key(group, id string) string { return group + "\x00" + id }

// ownerOf returns the rank a key belongs to.
func (im *importer) ownerOf(k string) int { return int(xxhash.Sum64String(k) % uint64(im.c.Size())) }

// missing is the answer for a key no vertex has.
const missing = ^uint64(0)

// indexIDs gives the owner of every vertex's key its number.
func (im *importer) indexIDs() error {
	send := make([][]byte, im.c.Size())
	x := im.first
	for i, f := range im.vfiles {
		for _, row := range im.rows[x-im.first : x-im.first+uint64(im.lines[im.c.Rank()][i])] {
			k := key(f.cols[f.id].group, row.id)
			o := im.ownerOf(k)
			send[o] = wire.AppendString(send[o], k)
			send[o] = binary.LittleEndian.AppendUint64(send[o], x)
			x++
		}
	}
	recv, err := im.c.Alltoallv(send)
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "csvimport: %v", err)
	}
	im.ids = map[string]uint64{}
	for _, buf := range recv {
		for len(buf) > 0 {
			kb, rest, ok := wire.Bytes(buf)
			k := string(kb)
			if !ok || len(rest) < 8 {
				return gdi.Errorf(gdi.ErrIntern, "csvimport: a malformed message of IDs")
			}
			x := binary.LittleEndian.Uint64(rest)
			buf = rest[8:]
			if y, dup := im.ids[k]; dup {
				return gdi.Errorf(gdi.ErrNonUniqueID, "%s and %s: the same ID in one ID space", im.where(min(x, y)), im.where(max(x, y)))
			}
			im.ids[k] = x
		}
	}
	return nil
}

// pendingEdge is an edge read but not yet resolved: where the questions
// for its ends went (see asked), and where it is, for messages.
type pendingEdge struct {
	row        edgeRow
	ends       [2]asked
	file, line int32
}

// asked is a question for an end's number: the rank asked, its index
// among the questions to that rank, and where its key starts in them.
type asked struct{ rank, index, at int32 }

// edgeRound is a round of edges: the rank's pending edges, the questions
// to each rank, and the answers; the buffers are kept from round to round.
type edgeRound struct {
	pending []pendingEdge
	ask     [][]byte
	counts  []int32
	answer  [][]byte
	hash    *xxhash.Digest
}

// edges reads the rank's shares of the edge files and resolves their
// ends, in rounds of up to RoundEdges edges, until every rank is done.
func (im *importer) edges() error {
	mine := 0
	for i := range im.efiles {
		mine += im.lines[im.c.Rank()][len(im.vfiles)+i]
	}
	im.edgeRows = make([]edgeRow, 0, mine)
	rd := &edgeRound{
		pending: make([]pendingEdge, 0, min(mine, im.opt.RoundEdges)),
		ask:     make([][]byte, im.c.Size()),
		counts:  make([]int32, im.c.Size()),
		answer:  make([][]byte, im.c.Size()),
		hash:    xxhash.New(),
	}
	labels := map[string]int32{}
	var failed error
	var fields []string
	for i, f := range im.efiles {
		fi := len(im.vfiles) + i
		firstLine := im.lineNo(im.c.Rank(), fi, 0)
		err := readShare(f.path, f.body, shareOf(f.body, f.size, im.c.Rank(), im.c.Size()), func(k int, line string) error {
			var err error
			if fields, err = appendFields(fields[:0], line, f.delim); err == nil {
				err = im.parseEdge(rd, f, fields, labels)
			}
			if err != nil {
				return lineErr(f.path, firstLine+k, err)
			}
			p := &rd.pending[len(rd.pending)-1]
			p.file, p.line = int32(fi), int32(firstLine+k)
			if len(rd.pending) == im.opt.RoundEdges {
				if _, err := im.round(rd, false, &failed); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil && failed == nil {
			failed = err
			break
		}
	}
	for {
		if failed != nil {
			rd.reset()
		}
		all, err := im.round(rd, true, &failed)
		if err != nil {
			return err
		}
		if all {
			return failed
		}
	}
}

// reset empties the round.
func (rd *edgeRound) reset() {
	rd.pending = rd.pending[:0]
	for r := range rd.ask {
		rd.ask[r], rd.counts[r] = rd.ask[r][:0], 0
	}
}

// parseEdge reads an edge of edge file f, split into fields, into a new
// pending edge of rd, and asks for its ends. labels numbers the rank's
// edge labels.
func (im *importer) parseEdge(rd *edgeRound, f *file, fields []string, labels map[string]int32) error {
	if len(fields) != len(f.cols) {
		return fmt.Errorf("%d fields, the header has %d", len(fields), len(f.cols))
	}
	label := f.label
	var props []propValue
	for j, c := range f.cols {
		var err error
		switch c.role {
		case typeColumn:
			if fields[j] != "" {
				if label, err = gdi.NormalizeName(fields[j]); err != nil {
					return fmt.Errorf("label %q: %v", fields[j], err)
				}
			}
		case property:
			if props, err = im.appendProps(props, c, fields[j]); err != nil {
				return err
			}
		}
	}
	l, ok := labels[label]
	if !ok {
		l = int32(len(im.edgeLabels))
		labels[label] = l
		im.edgeLabels = append(im.edgeLabels, label)
	}
	p := pendingEdge{row: edgeRow{label: l, props: -1}}
	if props != nil {
		p.row.props = int32(len(im.edgeProps))
		im.edgeProps = append(im.edgeProps, props)
	}
	for e, col := range [2]int{f.start, f.end} {
		p.ends[e] = rd.question(im, f.cols[col].group, fields[col])
	}
	rd.pending = append(rd.pending, p)
	return nil
}

// question asks the owner of the key of (group, id) for its number.
func (rd *edgeRound) question(im *importer, group, id string) asked {
	h := rd.hash
	h.Reset()
	_, _ = h.WriteString(group)
	_, _ = h.Write([]byte{0})
	_, _ = h.WriteString(id)
	o := int(h.Sum64() % uint64(im.c.Size()))
	a := asked{int32(o), rd.counts[o], int32(len(rd.ask[o]))}
	b := binary.AppendUvarint(rd.ask[o], uint64(len(group)+1+len(id)))
	b = append(b, group...)
	b = append(b, 0)
	rd.ask[o] = append(b, id...)
	rd.counts[o]++
	return a
}

// round resolves the ends of the rank's pending edges of the round, keeps
// them and empties the round; done tells that the rank has no more. It
// reports whether every rank is done. An end no vertex has fails the
// import (*failed), but the rank takes part in the rounds until all are
// done; the error returned is one of the communicator.
func (im *importer) round(rd *edgeRound, done bool, failed *error) (bool, error) {
	defer rd.reset()
	recv, err := im.c.Alltoallv(rd.ask)
	if err != nil {
		return false, gdi.Errorf(gdi.ErrIntern, "csvimport: %v", err)
	}
	for r, buf := range recv {
		a := rd.answer[r][:0]
		for len(buf) > 0 {
			k, rest, ok := wire.Bytes(buf)
			if !ok {
				return false, gdi.Errorf(gdi.ErrIntern, "csvimport: a malformed message of keys")
			}
			x, found := im.ids[string(k)]
			if !found {
				x = missing
			}
			a = binary.LittleEndian.AppendUint64(a, x)
			buf = rest
		}
		rd.answer[r] = a
	}
	answers, err := im.c.Alltoallv(rd.answer)
	if err != nil {
		return false, gdi.Errorf(gdi.ErrIntern, "csvimport: %v", err)
	}
	for _, p := range rd.pending {
		var ends [2]uint64
		for e, a := range p.ends {
			if 8*int(a.index)+8 > len(answers[a.rank]) {
				return false, gdi.Errorf(gdi.ErrIntern, "csvimport: rank %d answered %d keys", a.rank, len(answers[a.rank])/8)
			}
			ends[e] = binary.LittleEndian.Uint64(answers[a.rank][8*a.index:])
		}
		if e := slices.Index(ends[:], missing); e >= 0 && *failed == nil {
			k, _, _ := wire.Bytes(rd.ask[p.ends[e].rank][p.ends[e].at:])
			*failed = gdi.Errorf(gdi.ErrFileFormat, "%s:%d: no vertex has the %s's ID %q", im.files()[p.file].path, p.line, [2]string{"start", "end"}[e], keyID(string(k)))
		}
		if *failed == nil {
			p.row.origin, p.row.target = ends[0], ends[1]
			im.edgeRows = append(im.edgeRows, p.row)
		}
	}
	flag := []int64{1}
	if done {
		flag[0] = 0
	}
	if err := im.c.AllreduceInt64(flag, rma.OpMax); err != nil {
		return false, gdi.Errorf(gdi.ErrIntern, "csvimport: %v", err)
	}
	return flag[0] == 0, nil
}

// keyID is the ID space and ID of a key, for messages.
func keyID(k string) string {
	group, id, _ := strings.Cut(k, "\x00")
	return group + " " + id
}
