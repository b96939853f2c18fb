package generator

import (
	"errors"
	"fmt"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// InsertOptions tune Insert.
type InsertOptions struct {
	// Batch is the number of vertices or edges per transaction; 0 means
	// 256.
	Batch int
	// Retries is how often a batch of edges whose transaction fails (two
	// ranks touched the same vertex) is retried, edge by edge after the
	// first failure, with a growing pause; 0 means 100.
	Retries int
	// Progress, if not nil, is called after each committed batch with the
	// number of vertices or edges in it.
	Progress func(n uint64)
}

// Insert creates the graph in db through ordinary GDI transactions, for
// databases without a bulk loader: each rank creates an equal share of
// the vertices (application-level ID AppID(x), its label and properties),
// then, after a barrier, its RankSlice of the edges, each with its label.
// It is collective; m are the handles of Scheme().CreateMetadata. Like the
// CSV path, it leaves out properties whose value is an empty string, so
// that both give the same database.
func (g *Graph) Insert(c rma.Comm, db gdi.Database, m *Metadata, opt InsertOptions) error {
	batch := uint64(opt.Batch)
	if batch == 0 {
		batch = 256
	}
	retries := opt.Retries
	if retries == 0 {
		retries = 100
	}
	progress := func(n uint64) {
		if opt.Progress != nil {
			opt.Progress(n)
		}
	}
	lo, hi := Split(g.n, c.Rank(), c.Size())
	var err error
	for a := lo; a < hi && err == nil; a += batch {
		b := min(a+batch, hi)
		if err = g.insertVertices(db, m, a, b); err == nil {
			progress(b - a)
		}
	}
	// All vertices must exist before any edge: agree, then go on.
	failed := []int64{0}
	if err != nil {
		failed[0] = 1
	}
	if e := c.AllreduceInt64(failed, rma.OpMax); e != nil || failed[0] != 0 {
		return errors.Join(err, e, errors.New("generator: Insert: vertices failed on some rank"))
	}
	lo, hi = g.RankSlice(c.Rank(), c.Size())
	for a := lo; a < hi && err == nil; a += batch {
		b := min(a+batch, hi)
		if g.insertEdges(db, m, a, b) != nil {
			// Conflicts with other ranks: one edge per transaction.
			for i := a; i < b && err == nil; i++ {
				for try := 0; ; try++ {
					if err = g.insertEdges(db, m, i, i+1); err == nil || try == retries {
						break
					}
					time.Sleep(time.Duration(try+1) * 50 * time.Microsecond)
				}
			}
		}
		if err == nil {
			progress(b - a)
		}
	}
	return errors.Join(err, c.Barrier())
}

// commit commits tx if do succeeded, and aborts it otherwise.
func commit(tx gdi.Transaction, err error) error {
	if gdi.Failed(err) {
		return errors.Join(err, tx.Abort())
	}
	return tx.Commit()
}

func (g *Graph) insertVertices(db gdi.Database, m *Metadata, lo, hi uint64) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	return commit(tx, func() error {
		for x := lo; x < hi; x++ {
			v, err := tx.CreateVertex(AppID(x))
			if err != nil {
				return err
			}
			if err := v.AddLabel(m.VertexLabels[g.VertexLabel(x)]); err != nil {
				return err
			}
			for _, p := range g.VertexProperties(x) {
				if p.Value.Datatype() == gdi.Char && p.Value.Len() == 0 {
					continue
				}
				if err := v.AddProperty(m.PropertyTypes[p.Type], p.Value); gdi.Failed(err) {
					return err
				}
			}
		}
		return nil
	}())
}

func (g *Graph) insertEdges(db gdi.Database, m *Metadata, lo, hi uint64) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	dir := gdi.Undirected
	if g.cfg.Directed {
		dir = gdi.Directed
	}
	holders := map[uint64]gdi.VertexHolder{}
	vertex := func(x uint64) (gdi.VertexHolder, error) {
		if h, ok := holders[x]; ok {
			return h, nil
		}
		uid, found, err := tx.TranslateVertexID(m.VertexLabels[g.VertexLabel(x)], AppID(x))
		if err == nil && !found {
			err = fmt.Errorf("generator: Insert: vertex %d not found", x)
		}
		if err != nil {
			return nil, err
		}
		h, err := tx.AssociateVertex(uid)
		holders[x] = h
		return h, err
	}
	return commit(tx, func() error {
		for i := lo; i < hi; i++ {
			u, v := g.Edge(i)
			hu, err := vertex(u)
			if err != nil {
				return err
			}
			hv, err := vertex(v)
			if err != nil {
				return err
			}
			e, err := tx.CreateEdge(dir, hu, hv)
			if err != nil {
				return err
			}
			if err := e.AddLabel(m.EdgeLabels[g.EdgeLabel(u, v)]); err != nil {
				return err
			}
		}
		return nil
	}())
}
