package csvimport

import (
	"encoding/binary"
	"fmt"

	"github.com/cespare/xxhash/v2"
	"github.com/gdi-go/gdi/gdi"
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
			send[o] = binary.AppendUvarint(send[o], uint64(len(k)))
			send[o] = append(send[o], k...)
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
			k, rest, ok := readKey(buf)
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

// readKey reads a key (its length, then its bytes) off buf.
func readKey(buf []byte) (k string, rest []byte, ok bool) {
	n, m := binary.Uvarint(buf)
	if m <= 0 || uint64(len(buf)-m) < n {
		return "", nil, false
	}
	return string(buf[m : m+int(n)]), buf[m+int(n):], true
}

// pendingEdge is an edge read but not yet resolved: the keys of its ends,
// and where it is, for messages.
type pendingEdge struct {
	start, end string
	row        edgeRow
	file, line int
}

// edges reads the rank's shares of the edge files and resolves their
// ends, in rounds of up to RoundEdges edges, until every rank is done.
func (im *importer) edges() error {
	var pending []pendingEdge
	var failed error
	var fields []string
	for i, f := range im.efiles {
		fi := len(im.vfiles) + i
		err := readShare(f.path, f.body, shareOf(f.body, f.size, im.c.Rank(), im.c.Size()), func(k int, line string) error {
			p, err := im.parseEdge(f, line, &fields)
			if err != nil {
				return lineErr(f.path, im.lineNo(im.c.Rank(), fi, k), err)
			}
			p.file, p.line = fi, im.lineNo(im.c.Rank(), fi, k)
			if pending = append(pending, p); len(pending) == im.opt.RoundEdges {
				if _, err := im.round(pending, false, &failed); err != nil {
					return err
				}
				pending = pending[:0]
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
			pending = pending[:0]
		}
		all, err := im.round(pending, true, &failed)
		if err != nil {
			return err
		}
		pending = pending[:0]
		if all {
			return failed
		}
	}
}

// parseEdge reads a line of edge file f.
func (im *importer) parseEdge(f *file, line string, fields *[]string) (pendingEdge, error) {
	var err error
	if *fields, err = appendFields((*fields)[:0], line, f.delim); err != nil {
		return pendingEdge{}, err
	}
	fs := *fields
	if len(fs) != len(f.cols) {
		return pendingEdge{}, fmt.Errorf("%d fields, the header has %d", len(fs), len(f.cols))
	}
	p := pendingEdge{
		start: key(f.cols[f.start].group, fs[f.start]),
		end:   key(f.cols[f.end].group, fs[f.end]),
		row:   edgeRow{label: f.label},
	}
	for j, c := range f.cols {
		switch c.role {
		case typeColumn:
			if fs[j] != "" {
				p.row.label = fs[j]
			}
		case property:
			if p.row.props, err = im.appendProps(p.row.props, c, fs[j]); err != nil {
				return p, err
			}
		}
	}
	return p, nil
}

// round resolves the ends of pending, the rank's edges of the round, and
// keeps them; done tells that the rank has no more. It reports whether
// every rank is done. An end no vertex has fails the import (*failed),
// but the rank takes part in the rounds until all are done; the error
// returned is one of the communicator.
func (im *importer) round(pending []pendingEdge, done bool, failed *error) (bool, error) {
	n := im.c.Size()
	send := make([][]byte, n)
	// at[2j] and at[2j+1]: the rank asked for the ends of edge j, and
	// the index of the question there.
	type asked struct{ rank, index int }
	at := make([]asked, 0, 2*len(pending))
	counts := make([]int, n)
	for _, p := range pending {
		for _, k := range [2]string{p.start, p.end} {
			o := im.ownerOf(k)
			send[o] = binary.AppendUvarint(send[o], uint64(len(k)))
			send[o] = append(send[o], k...)
			at = append(at, asked{o, counts[o]})
			counts[o]++
		}
	}
	recv, err := im.c.Alltoallv(send)
	if err != nil {
		return false, gdi.Errorf(gdi.ErrIntern, "csvimport: %v", err)
	}
	for r, buf := range recv {
		answer := make([]byte, 0, 8*len(buf)/4)
		for len(buf) > 0 {
			k, rest, ok := readKey(buf)
			if !ok {
				return false, gdi.Errorf(gdi.ErrIntern, "csvimport: a malformed message of keys")
			}
			x, found := im.ids[k]
			if !found {
				x = missing
			}
			answer = binary.LittleEndian.AppendUint64(answer, x)
			buf = rest
		}
		send[r] = answer
	}
	answers, err := im.c.Alltoallv(send)
	if err != nil {
		return false, gdi.Errorf(gdi.ErrIntern, "csvimport: %v", err)
	}
	for j, p := range pending {
		var ends [2]uint64
		for e := range ends {
			a := at[2*j+e]
			if 8*a.index+8 > len(answers[a.rank]) {
				return false, gdi.Errorf(gdi.ErrIntern, "csvimport: rank %d answered %d keys", a.rank, len(answers[a.rank])/8)
			}
			ends[e] = binary.LittleEndian.Uint64(answers[a.rank][8*a.index:])
		}
		if (ends[0] == missing || ends[1] == missing) && *failed == nil {
			which, k := "start", p.start
			if ends[0] != missing {
				which, k = "end", p.end
			}
			*failed = gdi.Errorf(gdi.ErrFileFormat, "%s:%d: no vertex has the %s's ID %q", im.files()[p.file].path, p.line, which, keyID(k))
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
	for i := range len(k) {
		if k[i] == 0 {
			return k[:i] + " " + k[i+1:]
		}
	}
	return k
}
