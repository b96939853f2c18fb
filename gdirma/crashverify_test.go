package gdirma_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
)

// The crash test's check of a recovered database (see crash_test.go).

// crashVerify checks the database (every rank checks its own holders,
// rank 0 the rest) and returns the counters. With dir set it also checks
// the acknowledged transactions recorded there.
func crashVerify(c rma.Comm, db gdi.Database, s *crashSchema, dir string) (map[string]int, error) {
	if err := db.(*gdirma.Database).CheckHolders(); err != nil {
		return nil, err
	}
	tx, err := db.StartTransaction()
	if err != nil {
		return nil, err
	}
	defer tx.Abort()
	counts := map[string]int{}
	writers := crashWriters(c.Size())
	for _, w := range writers {
		cnt, ok, err := findVertex(tx, s.c, "counter-"+w)
		if err != nil || !ok {
			return nil, fmt.Errorf("counter-%s: %v %w", w, ok, err)
		}
		vs, err := cnt.Properties(s.k)
		if err != nil || len(vs) != 1 {
			return nil, fmt.Errorf("counter-%s: %v %w", w, vs, err)
		}
		x, err := vs[0].Int64Slice()
		if err != nil {
			return nil, err
		}
		counts[w] = int(x[0])
	}
	if c.Rank() != 0 {
		return counts, c.Barrier()
	}
	async := crashParams(dir).Log == gdirma.LogAsync
	check := func() error {
		want := 0
		for _, w := range writers {
			cw := counts[w]
			if dir != "" {
				acked, err := readAcked(filepath.Join(dir, "acked-"+w))
				if err != nil {
					return err
				}
				switch {
				case acked > cw && !async:
					return fmt.Errorf("writer %s: transaction %d was acknowledged, but the counter says %d: lost", w, acked, cw)
				case cw > acked+1:
					return fmt.Errorf("writer %s: the counter says %d, but only %d was acknowledged, and one more in flight", w, cw, acked)
				}
			}
			// Transactions 1 to cw whole, cw+1 and cw+2 not at all.
			for k := 1; k <= cw+2; k++ {
				var has [3]bool
				var u [3]gdi.VertexUID
				for i := range 3 {
					u[i], has[i], err = tx.TranslateVertexID(s.v, []byte(fmt.Sprintf("%s-%d-%d", w, k, i)))
					if err != nil {
						return err
					}
				}
				wantHas := [3]bool{k <= cw, k <= cw, k <= cw && k > cw-3}
				if has != wantHas {
					return fmt.Errorf("writer %s, counter %d: transaction %d has vertices %v, want %v (partial or lost)", w, cw, k, has, wantHas)
				}
				for i := range 3 {
					if !has[i] || !has[(i+1)%3] {
						continue
					}
					v, err := tx.AssociateVertex(u[i])
					if err != nil {
						return err
					}
					ns, err := v.Neighbors(gdi.EdgeOutgoing, nil)
					if err != nil {
						return err
					}
					if !slices.Contains(ns, u[(i+1)%3]) {
						return fmt.Errorf("writer %s, transaction %d: edge %d→%d missing", w, k, i, (i+1)%3)
					}
				}
			}
			want += 2*cw + min(cw, 3)
		}
		hub, ok, err := findVertex(tx, s.c, "hub")
		if err != nil || !ok {
			return fmt.Errorf("hub: %v %w", ok, err)
		}
		vs, err := hub.Properties(s.last)
		if err != nil || len(vs) != 1 {
			return fmt.Errorf("hub: %v %w", vs, err)
		}
		if last := vs[0].RawString(); last != "" {
			w, ks, _ := strings.Cut(last, "-")
			k, err := strconv.Atoi(ks)
			if cw, ok := counts[w]; err != nil || !ok || k < 1 || k > cw {
				return fmt.Errorf("hub names transaction %q, which is not committed (counters %v)", last, counts)
			}
		}
		// Every vertex: found by its ID under each label and nothing else;
		// every edge has both ends.
		all, err := tx.VerticesOfIndex(s.allIndex, nil)
		if err != nil {
			return err
		}
		nv := 0
		for _, u := range all {
			v, err := tx.AssociateVertex(u)
			if err != nil {
				return err
			}
			ls, err := v.Labels()
			if err != nil {
				return err
			}
			ids, err := v.Properties(gdi.PropertyTypeID)
			if err != nil || len(ids) != 1 || len(ls) != 1 {
				return fmt.Errorf("vertex %v: labels %v, IDs %v, %v", u, ls, ids, err)
			}
			if ls[0] == s.v {
				nv++
			}
			w, ok, err := tx.TranslateVertexID(ls[0], ids[0].Raw())
			if err != nil || !ok || w != u {
				return fmt.Errorf("TranslateVertexID(%q) = %v %v %v, want %v", ids[0].Raw(), w, ok, err, u)
			}
			es, err := v.Edges(gdi.EdgeAll, nil)
			if err != nil {
				return err
			}
			for _, eu := range es {
				e, err := tx.AssociateEdge(eu)
				if err != nil {
					return err
				}
				o, t, err := e.Vertices()
				if err != nil {
					return err
				}
				for _, end := range []gdi.VertexUID{o, t} {
					if _, err := tx.AssociateVertex(end); err != nil {
						return fmt.Errorf("edge %v of %v: end %v: %w", eu, u, end, err)
					}
				}
			}
		}
		if nv != want {
			return fmt.Errorf("%d vertices with label V, want %d", nv, want)
		}
		if _, ok, err := tx.TranslateVertexID(s.v, []byte("no-such-vertex")); err != nil || ok {
			return fmt.Errorf("TranslateVertexID of an unknown ID: %v %v", ok, err)
		}
		return nil
	}
	err = check()
	return counts, errors.Join(err, c.Barrier())
}

// readAcked returns the last number in an acked file (0 if none).
func readAcked(path string) (int, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil // nothing acknowledged
	}
	if err != nil {
		return 0, err
	}
	last := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, err := strconv.Atoi(sc.Text())
		if err != nil {
			return 0, fmt.Errorf("%s: %q", path, sc.Text())
		}
		if k != last+1 {
			return 0, fmt.Errorf("%s: %d after %d", path, k, last)
		}
		last = k
	}
	return last, nil
}
