package olap

import (
	"fmt"
	"slices"
)

// scanOrder gathers what a storage scan hands out, vertex by vertex in
// the backend's order, and puts it in the order of application-level ID
// afterwards. The edges (of type E) are kept in pieces as they come, pieces
// that never move, and are placed once, by their vertex's degree.
type scanOrder[E any] struct {
	ids    []uint64 // by scan index
	degree []int32  // by scan index
	pieces [][]E
	cur    []E
}

// vertex records the next vertex of the scan, with ID id and edges edges
// to follow (edge), and returns its scan index.
func (s *scanOrder[E]) vertex(id []byte, edges int) (int32, error) {
	x, err := ParseID(id)
	if err != nil {
		return 0, err
	}
	if len(s.cur)+edges > cap(s.cur) {
		if len(s.cur) > 0 {
			s.pieces = append(s.pieces, s.cur)
		}
		s.cur = make([]E, 0, max(scanChunk, edges))
	}
	s.ids, s.degree = append(s.ids, x), append(s.degree, int32(edges))
	return int32(len(s.ids) - 1), nil
}

// edge records an edge of the last vertex.
func (s *scanOrder[E]) edge(e E) { s.cur = append(s.cur, e) }

// place sorts the vertices by ID and calls put for every edge: i is the
// ID-order index of its vertex, j its place among all edges in that
// order. It returns, by ID-order index, the scan index of each vertex.
func (s *scanOrder[E]) place(put func(i int32, j int, e E)) (scanned []int32, err error) {
	n := len(s.ids)
	scanned = make([]int32, n)
	for k := range scanned {
		scanned[k] = int32(k)
	}
	slices.SortFunc(scanned, func(a, b int32) int { return cmpU64(s.ids[a], s.ids[b]) })
	placed := make([]int32, n) // by scan index: its ID-order index
	at := make([]int, n+1)     // by ID-order index: where its edges go
	for i, k := range scanned {
		if i > 0 && s.ids[k] == s.ids[scanned[i-1]] {
			return nil, fmt.Errorf("olap: application-level ID %d used twice", s.ids[k])
		}
		placed[k] = int32(i)
		at[i+1] = at[i] + int(s.degree[k])
	}
	k, left := 0, 0 // the scan index of the vertex whose edges come next, and how many
	for _, piece := range append(s.pieces, s.cur) {
		for _, e := range piece {
			for left == 0 {
				left = int(s.degree[k])
				k++
			}
			i := placed[k-1]
			put(i, at[i], e)
			at[i]++
			left--
		}
	}
	return scanned, nil
}

// edgeCount is the number of edges recorded.
func (s *scanOrder[E]) edgeCount() int {
	n := len(s.cur)
	for _, p := range s.pieces {
		n += len(p)
	}
	return n
}
