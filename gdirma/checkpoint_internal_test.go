package gdirma

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

// storeImage is every piece of state of a rank's database: the contents
// of all windows of the rank and the local mirrors.
type storeImage struct {
	windows map[string][]byte
	tag     uint16
	params  Params
	gens    []uint64
	live    []bool
	trees   map[uint32]treeDef
	catalog any
}

func imageOf(db *Database) (*storeImage, error) {
	st := db.st
	im := &storeImage{windows: map[string][]byte{}, tag: st.Tag(), params: db.params, trees: map[uint32]treeDef{}, catalog: db.State()}
	im.params.Restore = ""
	for _, s := range st.sections() {
		var b bytes.Buffer
		if err := rma.SaveWindow(s.W, st.Rank(), &b); err != nil {
			return nil, err
		}
		im.windows[s.Name] = b.Bytes()
	}
	im.gens, im.live = st.forest.Mirror()
	for n, d := range st.idx.defs {
		im.trees[n] = *d
	}
	return im, nil
}

// TestCheckpointExact restores a database and compares every window of
// every rank byte by byte, and every mirror, with the original.
func TestCheckpointExact(t *testing.T) {
	base := t.TempDir()
	ranktest.Run(t, 3, func(c rma.Comm) error {
		bb := binary.LittleEndian.AppendUint64(nil, uint64(len(base)))
		if err := c.Bcast(bb, 0); err != nil {
			return err
		}
		b := []byte(base)
		if c.Rank() != 0 {
			b = make([]byte, binary.LittleEndian.Uint64(bb))
		}
		if err := c.Bcast(b, 0); err != nil {
			return err
		}
		dir := filepath.Join(string(b), "exact")
		p := Params{BlockSize: 64, MemoryPerRank: 1 << 16, DHTBuckets: 16, DHTEntries: 256, IndexMemoryPerRank: 1 << 14}
		gdb, err := Driver{}.CreateDatabase(c, p)
		if err != nil {
			return err
		}
		db := gdb.(*Database)
		l, err := db.CreateLabel("L")
		if err != nil {
			return err
		}
		x, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "x", Entity: gdi.SingleEntity, Datatype: gdi.Int32, Size: gdi.FixedSize, Count: 1})
		if err != nil {
			return err
		}
		idx, err := db.CreateIndex(gdi.BTreeIndex, 0)
		if err != nil {
			return err
		}
		if err := idx.AddPropertyType(x); err != nil {
			return err
		}
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		var prev gdi.VertexHolder
		for i := range 60 { // enough entries to split index nodes
			v, err := tx.CreateVertex([]byte(fmt.Sprintf("%d-%d", c.Rank(), i)))
			if err != nil {
				return err
			}
			if i%2 == 0 {
				if err := v.AddLabel(l); err != nil {
					return err
				}
			}
			if err := v.AddProperty(x, gdi.Int32s(int32(i))); err != nil {
				return err
			}
			if prev != nil {
				if _, err := tx.CreateEdge(gdi.Directed, prev, v); err != nil {
					return err
				}
			}
			prev = v
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if err := db.Checkpoint(dir); err != nil {
			return err
		}
		want, err := imageOf(db)
		if err != nil {
			return err
		}
		if err := db.Free(); err != nil {
			return err
		}
		rdb, err := Driver{}.CreateDatabase(c, Params{Restore: dir})
		if err != nil {
			return err
		}
		defer rdb.Free()
		got, err := imageOf(rdb.(*Database))
		if err != nil {
			return err
		}
		for name, w := range want.windows {
			if !bytes.Equal(got.windows[name], w) {
				return fmt.Errorf("rank %d: window %s differs after restore", c.Rank(), name)
			}
		}
		want.windows, got.windows = nil, nil
		if !reflect.DeepEqual(got, want) {
			return fmt.Errorf("rank %d: restored mirrors differ:\n got %+v\nwant %+v", c.Rank(), got, want)
		}
		return nil
	})
}

// TestCheckpointOlderFormat writes checkpoints that say they are of
// older versions: the oldest one a restore reads comes back with its
// edges and IDs, derived from its blocks, and the one before it is
// refused with ErrFileFormat.
func TestCheckpointOlderFormat(t *testing.T) {
	defer func(f int) { writtenCheckpointFormat = f }(writtenCheckpointFormat)
	for _, c := range []struct {
		format int
		ok     bool
	}{{oldestCheckpointFormat, true}, {oldestCheckpointFormat - 1, false}, {checkpointFormat + 1, false}} {
		dir := filepath.Join(t.TempDir(), "ck")
		writtenCheckpointFormat = c.format
		var uids []gdi.VertexUID
		err := withLocalDB(Params{BlockSize: 64, MemoryPerRank: 1 << 16}, func(db *Database) error {
			l, err := db.CreateLabel("L")
			if err != nil {
				return err
			}
			err = InTx(db, func(tx gdi.Transaction) error {
				var prev gdi.VertexHolder
				for i := range 5 {
					v, err := tx.CreateVertex([]byte(fmt.Sprint("v", i)))
					if err == nil {
						err = v.AddLabel(l)
					}
					if err != nil {
						return err
					}
					u, _ := v.UID()
					uids = append(uids, u)
					if prev != nil {
						if _, err := tx.CreateEdge(gdi.Directed, prev, v); err != nil {
							return err
						}
					}
					prev = v
				}
				return nil
			})
			if err != nil {
				return err
			}
			if c.format < derivedBeforeFormat {
				// Windows of an older layout are of no use: here the
				// implicit index is left empty, which a restore must
				// not load.
				if err := db.st.IDs().Clear(); err != nil {
					return err
				}
			}
			return db.Checkpoint(dir)
		})
		if err != nil {
			t.Fatalf("format %d: %v", c.format, err)
		}
		writtenCheckpointFormat = checkpointFormat
		err = withLocalDB(Params{Restore: dir}, func(db *Database) error {
			l, err := db.LabelFromName("L")
			if err != nil {
				return err
			}
			return InTx(db, func(tx gdi.Transaction) error {
				for i, u := range uids {
					v, err := tx.AssociateVertex(u)
					if err != nil {
						return err
					}
					es, err := v.Edges(gdi.EdgeAll, nil)
					if want := min(i, 1) + min(len(uids)-1-i, 1); err != nil || len(es) != want {
						return fmt.Errorf("vertex %d has %d edges (%v), want %d", i, len(es), err, want)
					}
					// The implicit index, which a restore of a format
					// before derivedBeforeFormat derives.
					if got, ok, err := tx.TranslateVertexID(l, []byte(fmt.Sprint("v", i))); err != nil || !ok || got != u {
						return fmt.Errorf("ID v%d translates to %v, %v (%v), want %v", i, got, ok, err, u)
					}
				}
				return nil
			})
		})
		switch {
		case c.ok && err != nil:
			t.Errorf("format %d: restore: %v", c.format, err)
		case !c.ok && gdi.ErrorClass(err) != gdi.ErrFileFormat:
			t.Errorf("format %d: restore gave %v, want ErrFileFormat", c.format, err)
		}
	}
}
