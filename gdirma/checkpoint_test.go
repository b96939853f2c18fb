package gdirma_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

// sharedDir returns rank 0's base on every rank: under mpirun each process
// has a temporary directory of its own, and a checkpoint needs one that all
// ranks reach.
func sharedDir(c rma.Comm, base string) (string, error) {
	n := binary.LittleEndian.AppendUint64(nil, uint64(len(base)))
	if err := c.Bcast(n, 0); err != nil {
		return "", err
	}
	b := []byte(base)
	if c.Rank() != 0 {
		b = make([]byte, binary.LittleEndian.Uint64(n))
	}
	if err := c.Bcast(b, 0); err != nil {
		return "", err
	}
	return string(b), nil
}

var ckptParams = gdirma.Params{BlockSize: 128, MemoryPerRank: 1 << 19, DHTBuckets: 64, DHTEntries: 512, IndexMemoryPerRank: 1 << 18}

// ckptSchema is the metadata of the checkpoint tests, made collectively.
type ckptSchema struct {
	person, city, knows, likes gdi.Label
	name, age, score, tags     gdi.PropertyType
	blob, flag                 gdi.PropertyType
}

func makeSchema(db gdi.Database) (*ckptSchema, error) {
	var s ckptSchema
	var errs []error
	label := func(n string) gdi.Label {
		l, err := db.CreateLabel(n)
		errs = append(errs, err)
		return l
	}
	ptype := func(n string, e gdi.EntityType, d gdi.Datatype, sz gdi.SizeType, count int) gdi.PropertyType {
		p, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: n, Entity: e, Datatype: d, Size: sz, Count: count})
		errs = append(errs, err)
		return p
	}
	s.person, s.city, s.knows, s.likes = label("Person"), label("City"), label("knows"), label("likes")
	gone := label("gone") // freed later: numbers are not reused
	s.name = ptype("name", gdi.SingleEntity, gdi.Char, gdi.NoSizeLimit, 0)
	s.age = ptype("age", gdi.SingleEntity, gdi.Int64, gdi.FixedSize, 1)
	s.score = ptype("score", gdi.SingleEntity, gdi.Double, gdi.MaxSize, 4)
	s.tags = ptype("tags", gdi.MultipleEntity, gdi.Char, gdi.NoSizeLimit, 0)
	s.blob = ptype("blob", gdi.SingleEntity, gdi.Byte, gdi.NoSizeLimit, 0)
	s.flag = ptype("flag", gdi.SingleEntity, gdi.Bool, gdi.FixedSize, 1)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := db.(gdi.MetadataRewriter).FreeLabel(gone); err != nil {
		return nil, err
	}
	// Explicit indexes: one of every vertex and edge (all labels and
	// none), one of people by age, one of tags (with no tree: removed).
	all, err := db.CreateIndex(gdi.HashTableIndex, 0)
	if err != nil {
		return nil, err
	}
	byAge, err := db.CreateIndex(gdi.BTreeIndex, 0)
	if err != nil {
		return nil, err
	}
	dropped, err := db.CreateIndex(gdi.BTreeIndex, 0)
	if err != nil {
		return nil, err
	}
	return &s, errors.Join(
		all.AddLabelsAndPropertyTypes([]gdi.Label{gdi.LabelNone, s.person, s.city, s.knows, s.likes}, nil),
		byAge.AddLabel(s.person), byAge.AddPropertyType(s.age),
		dropped.AddPropertyType(s.tags), dropped.Free())
}

// schemaOf finds the schema of a restored database by name.
func schemaOf(db gdi.Database) (*ckptSchema, error) {
	var s ckptSchema
	var errs []error
	label := func(n string) gdi.Label {
		l, err := db.LabelFromName(n)
		if err == nil && l == gdi.LabelNull {
			err = fmt.Errorf("label %s lost", n)
		}
		errs = append(errs, err)
		return l
	}
	ptype := func(n string) gdi.PropertyType {
		p, err := db.PropertyTypeFromName(n)
		if err == nil && p == gdi.PropertyTypeNull {
			err = fmt.Errorf("property type %s lost", n)
		}
		errs = append(errs, err)
		return p
	}
	s.person, s.city, s.knows, s.likes = label("Person"), label("City"), label("knows"), label("likes")
	s.name, s.age, s.score, s.tags, s.blob, s.flag = ptype("name"), ptype("age"), ptype("score"), ptype("tags"), ptype("blob"), ptype("flag")
	return &s, errors.Join(errs...)
}

// buildCkptGraph fills db on every rank: vertices with and without
// labels, properties of several datatypes, lightweight and heavyweight
// edges between ranks, and deleted vertices (holes in the free lists).
func buildCkptGraph(c rma.Comm, db gdi.Database, s *ckptSchema, n int) error {
	me := c.Rank()
	id := func(r, i int) []byte { return []byte(fmt.Sprintf("r%d-v%d", r, i)) }
	err := retry(db, func(tx gdi.Transaction) error {
		for i := range n {
			v, err := tx.CreateVertex(id(me, i))
			if err != nil {
				return err
			}
			var errs []error
			switch i % 4 {
			case 0, 1:
				errs = append(errs, v.AddLabel(s.person), v.AddProperty(s.age, gdi.Int64s(int64(20+(i*7+me)%50))),
					v.AddProperty(s.name, gdi.Chars(strings.Repeat("n", i%40)+string(id(me, i)))))
				if i%8 == 1 {
					errs = append(errs, v.AddProperty(s.tags, gdi.Chars("red")), v.AddProperty(s.tags, gdi.Chars("blue")))
				}
			case 2:
				errs = append(errs, v.AddLabel(s.city), v.AddProperty(s.score, gdi.Doubles(1.5, float64(i))),
					v.AddProperty(s.blob, gdi.Bytes([]byte{0, byte(i), 0xff})))
			default: // no label
				errs = append(errs, v.AddProperty(s.flag, gdi.Bools(i%2 == 0)))
			}
			if err := errors.Join(errs...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	// Edges from each of my vertices to vertices of the next rank.
	next := (me + 1) % c.Size()
	find := func(tx gdi.Transaction, r, i int) (gdi.VertexHolder, error) {
		l := s.person
		if i%4 == 2 {
			l = s.city
		}
		u, ok, err := tx.TranslateVertexID(l, id(r, i))
		if err != nil || !ok {
			return nil, fmt.Errorf("vertex %s: %v %w", id(r, i), ok, err) // %w: a busy lock is retried
		}
		return tx.AssociateVertex(u)
	}
	for i := 0; i < n; i++ {
		if i%4 == 3 {
			continue
		}
		err := retry(db, func(tx gdi.Transaction) error {
			a, err := find(tx, me, i)
			if err != nil {
				return err
			}
			j := (i*5 + 2) % n
			if j%4 == 3 {
				j--
			}
			b, err := find(tx, next, j)
			if err != nil {
				return err
			}
			dir := gdi.Directed
			if i%3 == 0 {
				dir = gdi.Undirected
			}
			e, err := tx.CreateEdge(dir, a, b)
			if err != nil {
				return err
			}
			switch i % 5 {
			case 0: // lightweight, no label
			case 1, 2: // lightweight, one label
				return e.AddLabel(s.knows)
			case 3: // heavyweight: two labels
				return errors.Join(e.AddLabel(s.knows), e.AddLabel(s.likes))
			default: // heavyweight: properties
				return errors.Join(e.AddProperty(s.score, gdi.Doubles(float64(i)/4)), e.AddProperty(s.tags, gdi.Chars("edge")))
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("edge %d: %w", i, err)
		}
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	// Delete every 7th vertex with a label: holes in the free lists.
	for i := 0; i < n; i += 7 {
		if i%4 == 3 {
			continue
		}
		if err := retry(db, func(tx gdi.Transaction) error {
			v, err := find(tx, me, i)
			if err != nil {
				return err
			}
			return v.Free()
		}); err != nil {
			return fmt.Errorf("delete %d: %w", i, err)
		}
	}
	return c.Barrier()
}

// TestCheckpointRestore builds a graph, checkpoints it, restores it into a
// new database on the same number of ranks, compares every answer, and
// goes on working on both databases alike.
func TestCheckpointRestore(t *testing.T) {
	n := ranktest.Iterations(40, 200)
	for _, ranks := range ranktest.Ranks {
		t.Run(fmt.Sprintf("ranks=%d", ranks), func(t *testing.T) {
			base := t.TempDir()
			ranktest.Run(t, ranks, func(c rma.Comm) error {
				dir, err := sharedDir(c, filepath.Join(base, "ckpt"))
				if err != nil {
					return err
				}
				db, err := gdirma.Driver{}.CreateDatabase(c, ckptParams)
				if err != nil {
					return err
				}
				s, err := makeSchema(db)
				if err != nil {
					return err
				}
				if err := buildCkptGraph(c, db, s, n); err != nil {
					return err
				}
				before, err := dumpCkpt(db)
				if err != nil {
					return err
				}
				if err := db.(*gdirma.Database).Checkpoint(dir); err != nil {
					return fmt.Errorf("Checkpoint: %w", err)
				}
				after, err := dumpCkpt(db)
				if err != nil || after != before {
					return fmt.Errorf("Checkpoint changed the database (%v)", err)
				}
				free, err := gdirma.FreeBlocks(db.(*gdirma.Database))
				if err != nil {
					return err
				}
				want, err := moreWork(c, db, s, 5)
				if err != nil {
					return fmt.Errorf("original: %w", err)
				}
				if err := db.Free(); err != nil {
					return err
				}

				p := gdirma.Params{Restore: dir} // the checkpoint's parameters
				if c.Rank()%2 == 1 {
					p = ckptParams // or the same, given
					p.Restore = dir
				}
				rdb, err := gdirma.Driver{}.CreateDatabase(c, p)
				if !errors.Is(err, gdi.ErrNotSame) && c.Size() > 1 {
					return fmt.Errorf("restore with different Params on different ranks: %v, want ErrNotSame", err)
				}
				if err == nil {
					rdb.Free()
				}
				rdb, err = gdirma.Driver{}.CreateDatabase(c, gdirma.Params{Restore: dir})
				if err != nil {
					return fmt.Errorf("restore: %w", err)
				}
				defer rdb.Free()
				restored, err := dumpCkpt(rdb)
				if err != nil {
					return fmt.Errorf("restored: %w", err)
				}
				// Blocks a rank held for its acquires (bgdl's reserve) are
				// not lost.
				if n, err := gdirma.FreeBlocks(rdb.(*gdirma.Database)); err != nil || n != free {
					return fmt.Errorf("rank %d: %d free blocks after the restore, %d at the checkpoint (%v)", c.Rank(), n, free, err)
				}
				if restored != before {
					return fmt.Errorf("rank %d: the restored database differs:\n%s", c.Rank(), diffLines(before, restored))
				}
				rs, err := schemaOf(rdb)
				if err != nil {
					return err
				}
				got, err := moreWork(c, rdb, rs, 5)
				if err != nil {
					return fmt.Errorf("restored: %w", err)
				}
				if got != want {
					return fmt.Errorf("rank %d: the same work on the original and the restored database differs:\n%s", c.Rank(), diffLines(want, got))
				}
				// New metadata gets the numbers the original would have.
				if _, err := rdb.CreateLabel("gone"); err != nil {
					return err
				}
				l, err := rdb.CreateLabel("newer")
				if err != nil {
					return err
				}
				if want := s.likes + 3; l&0xffffffff != want&0xffffffff {
					return fmt.Errorf("label after restore has number %d, want %d", l&0xffffffff, want&0xffffffff)
				}
				// And the restored database checkpoints again.
				if err := rdb.(*gdirma.Database).Checkpoint(dir + "2"); err != nil {
					return err
				}
				return nil
			})
		})
	}
}

// diffLines shows the first lines where a and b differ.
func diffLines(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for i := 0; i < max(len(x), len(y)) && len(out) < 10; i++ {
		var l, r string
		if i < len(x) {
			l = x[i]
		}
		if i < len(y) {
			r = y[i]
		}
		if l != r {
			out = append(out, fmt.Sprintf("line %d:\n  want %s\n  got  %s", i, l, r))
		}
	}
	return strings.Join(out, "\n")
}

// TestCheckpointErrors spoils a checkpoint in several ways: every rank
// must get the error, naming the file, and no database.
func TestCheckpointErrors(t *testing.T) {
	base := t.TempDir()
	type spoil struct {
		name   string
		ranks  int
		params gdirma.Params
		fn     func(dir string) error // on rank 0
		class  gdi.Code
		file   string // the error names it
	}
	// path is the file name of the checkpoint in dir: the manifest, or a
	// rank file of the current generation.
	path := func(dir, name string) (string, error) {
		if name == "manifest.json" {
			return filepath.Join(dir, name), nil
		}
		return gdirma.CheckpointFile(dir, name)
	}
	flip := func(name string, at func(size int64) int64) func(string) error {
		return func(dir string) error {
			p, err := path(dir, name)
			if err != nil {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			i := at(int64(len(b)))
			b[i] ^= 0x10
			return os.WriteFile(p, b, 0o644)
		}
	}
	truncate := func(name string) func(string) error {
		return func(dir string) error {
			p, err := path(dir, name)
			if err != nil {
				return err
			}
			fi, err := os.Stat(p)
			if err != nil {
				return err
			}
			return os.Truncate(p, fi.Size()-100)
		}
	}
	remove := func(name string) func(string) error {
		return func(dir string) error {
			p, err := path(dir, name)
			if err != nil {
				return err
			}
			return os.Remove(p)
		}
	}
	replace := func(name, old, new string) func(string) error {
		return func(dir string) error {
			p := filepath.Join(dir, name)
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if !strings.Contains(string(b), old) {
				return fmt.Errorf("%s has no %q", name, old)
			}
			return os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
		}
	}
	// reseal edits the manifest behind its checksum.
	reseal := func(old, new string) func(string) error {
		return func(dir string) error {
			return gdirma.ResealManifest(dir, func(js string) string { return strings.Replace(js, old, new, 1) })
		}
	}
	spoils := []spoil{
		{"corrupt-data", 2, gdirma.Params{}, flip("rank-1.ckpt", func(n int64) int64 { return n / 3 }), gdi.ErrFileFormat, "rank-1.ckpt"},
		{"corrupt-header", 2, gdirma.Params{}, flip("rank-0.ckpt", func(int64) int64 { return 10 }), gdi.ErrFileFormat, "rank-0.ckpt"},
		{"corrupt-last-crc", 2, gdirma.Params{}, flip("rank-1.ckpt", func(n int64) int64 { return n - 1 }), gdi.ErrFileFormat, "rank-1.ckpt"},
		{"truncated", 2, gdirma.Params{}, truncate("rank-0.ckpt"), gdi.ErrFileFormat, "rank-0.ckpt"},
		{"missing-rank-file", 2, gdirma.Params{}, remove("rank-1.ckpt"), gdi.ErrNoSuchFile, "rank-1.ckpt"},
		{"missing-manifest", 2, gdirma.Params{}, remove("manifest.json"), gdi.ErrNoSuchFile, "manifest.json"},
		{"bad-manifest", 2, gdirma.Params{}, replace("manifest.json", `"Ranks"`, `"Ranks`), gdi.ErrFileFormat, "manifest.json"},
		{"manifest-edited", 2, gdirma.Params{}, replace("manifest.json", `"LogSeq": 0`, `"LogSeq": 5`), gdi.ErrFileFormat, "manifest.json"},
		{"manifest-checksum", 2, gdirma.Params{}, replace("manifest.json", `"SHA256": "`, `"SHA256": "0`), gdi.ErrFileFormat, "manifest.json"},
		{"wrong-checksum", 2, gdirma.Params{}, reseal(`"SHA256": "`, `"SHA256": "0`), gdi.ErrFileFormat, "rank-0.ckpt"},
		{"bad-catalog", 2, gdirma.Params{}, reseal(`"Name": "age"`, `"Name": "name"`), gdi.ErrFileFormat, "manifest.json"},
		{"fewer-ranks", 1, gdirma.Params{}, nil, gdi.ErrArgument, "manifest.json"},
		{"more-ranks", 4, gdirma.Params{}, nil, gdi.ErrArgument, "manifest.json"},
		{"other-params", 2, gdirma.Params{BlockSize: 256}, nil, gdi.ErrArgument, "manifest.json"},
	}
	// One checkpoint on two ranks, copied for each spoil.
	ranktest.Run(t, 2, func(c rma.Comm) error {
		dir, err := sharedDir(c, filepath.Join(base, "good"))
		if err != nil {
			return err
		}
		db, err := gdirma.Driver{}.CreateDatabase(c, ckptParams)
		if err != nil {
			return err
		}
		defer db.Free()
		s, err := makeSchema(db)
		if err != nil {
			return err
		}
		if err := buildCkptGraph(c, db, s, 12); err != nil {
			return err
		}
		// Not while a transaction is open.
		var tx gdi.Transaction
		if c.Rank() == 1 {
			if tx, err = db.StartTransaction(); err != nil {
				return err
			}
		}
		if err := db.(*gdirma.Database).Checkpoint(dir); gdi.ErrorClass(err) != gdi.ErrConsistency {
			return fmt.Errorf("Checkpoint with an open transaction: %v, want ErrConsistency", err)
		}
		if tx != nil {
			tx.Abort()
		}
		if err := db.(*gdirma.Database).Checkpoint(dir); err != nil {
			return err
		}
		return nil
	})
	good := filepath.Join(base, "good")
	for _, sp := range spoils {
		t.Run(sp.name, func(t *testing.T) {
			ranktest.Run(t, sp.ranks, func(c rma.Comm) error {
				dir, err := sharedDir(c, filepath.Join(base, sp.name))
				if err != nil {
					return err
				}
				var local error
				if c.Rank() == 0 {
					local = gdirma.CopyTree(good, dir)
					if local == nil && sp.fn != nil {
						local = sp.fn(dir)
					}
				}
				if err := c.Barrier(); err != nil || local != nil {
					return errors.Join(err, local)
				}
				p := sp.params
				p.Restore = dir
				db, err := gdirma.Driver{}.CreateDatabase(c, p)
				if err == nil {
					db.Free()
					return fmt.Errorf("restore succeeded")
				}
				if gdi.ErrorClass(err) != sp.class || !strings.Contains(err.Error(), sp.file) {
					return fmt.Errorf("restore: %v, want %v naming %s", err, sp.class, sp.file)
				}
				// The ranks are in step and the process is fine.
				db, err = gdirma.Driver{}.CreateDatabase(c, ckptParams)
				if err != nil {
					return err
				}
				return db.Free()
			})
		})
	}
}
