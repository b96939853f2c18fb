package gdirma

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

var errInjected = errors.New("injected failure")

// applyFixture is a database with labels A and B, a property type blob,
// an index of label A, and the vertex x with label A.
type applyFixture struct {
	db   *Database
	a, b gdi.Label
	blob gdi.PropertyType
	idx  gdi.Index
}

func newApplyFixture(c rma.Comm, mode LogMode, dir string) (*applyFixture, error) {
	p := Params{BlockSize: 128, MemoryPerRank: 1 << 18, Log: mode}
	if mode != LogOff {
		p.LogDir = dir
	}
	gdb, err := Driver{}.CreateDatabase(c, p)
	if err != nil {
		return nil, err
	}
	f := &applyFixture{db: gdb.(*Database)}
	var errs [5]error
	f.a, errs[0] = gdb.CreateLabel("A")
	f.b, errs[1] = gdb.CreateLabel("B")
	f.blob, errs[2] = gdb.CreatePropertyType(gdi.PropertyTypeInfo{Name: "blob", Entity: gdi.SingleEntity, Datatype: gdi.Byte, Size: gdi.NoSizeLimit})
	f.idx, errs[3] = gdb.CreateIndex(gdi.HashTableIndex, 0)
	if errs[3] == nil {
		errs[4] = f.idx.AddLabel(f.a)
	}
	if err := errors.Join(errs[:]...); err != nil {
		gdb.Free()
		return nil, err
	}
	return f, InTx(gdb, func(tx gdi.Transaction) error {
		x, err := tx.CreateVertex([]byte("x"))
		if err != nil {
			return err
		}
		return x.AddLabel(f.a)
	})
}

// change is the commit that takes every step of apply: x moves from label
// A to B (a key of the implicit index dropped and one added, an index
// entry dropped), and the vertex y with label A and a property longer
// than a block is created (blocks taken, an index entry added).
func (f *applyFixture) change() error {
	return InTx(f.db, func(tx gdi.Transaction) error {
		u, ok, err := tx.TranslateVertexID(f.a, []byte("x"))
		if err != nil || !ok {
			return fmt.Errorf("x: %v %w", ok, err)
		}
		x, err := tx.AssociateVertex(u)
		if err == nil {
			err = errors.Join(x.RemoveLabel(f.a), x.AddLabel(f.b))
		}
		if err != nil {
			return err
		}
		y, err := tx.CreateVertex([]byte("y"))
		if err != nil {
			return err
		}
		return errors.Join(y.AddLabel(f.a), y.AddProperty(f.blob, gdi.Bytes([]byte(strings.Repeat("b", 300)))))
	})
}

// state describes what change alters: the IDs found under each label,
// the entries of the index's tree, the free blocks; and checks the
// holders.
func (f *applyFixture) state() (string, error) {
	var out []string
	err := InTx(f.db, func(tx gdi.Transaction) error {
		for _, l := range []gdi.Label{f.a, f.b} {
			for _, id := range []string{"x", "y"} {
				_, ok, err := tx.TranslateVertexID(l, []byte(id))
				if err != nil {
					return err
				}
				out = append(out, fmt.Sprintf("%v/%s=%v", l, id, ok))
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	d := f.db.treeOf(f.idx)
	if d == nil {
		return "", errors.New("the index has no tree")
	}
	err = f.db.st.forest.Scan(d.tree, f.db.rank, nil, nil, func(key []byte, val uint64) bool {
		out = append(out, fmt.Sprintf("entry %x→%#x", key, val))
		return true
	})
	if err != nil {
		return "", err
	}
	free, err := f.db.st.Pool().FreeBlocks(f.db.rank)
	if err != nil {
		return "", err
	}
	out = append(out, fmt.Sprintf("free blocks %d", free))
	return strings.Join(out, " "), f.db.CheckHolders()
}

// TestApplyRollsBack fails apply at each of its steps in turn, with the
// log off and on: the commit must fail with ErrTransactionCommitFail and
// leave the implicit index, the explicit index, the blocks and the
// holders as they were; then the same commit without the failure takes
// every step and succeeds.
func TestApplyRollsBack(t *testing.T) {
	for _, mode := range []LogMode{LogOff, LogSync} {
		for step := range numApplySteps {
			t.Run(fmt.Sprintf("log=%s/step=%d", cmp.Or(mode, "off"), step), func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "log")
				err := local.Run(1, func(c rma.Comm) error {
					f, err := newApplyFixture(c, mode, dir)
					if err != nil {
						return err
					}
					defer f.db.Free()
					before, err := f.state()
					if err != nil {
						return err
					}
					reached := map[applyStep]bool{}
					testHookApply = func(s applyStep) error {
						reached[s] = true
						if s == step {
							return errInjected
						}
						return nil
					}
					defer func() { testHookApply = nil }()
					if err := f.change(); gdi.ErrorClass(err) != gdi.ErrTransactionCommitFail || !strings.Contains(fmt.Sprint(err), errInjected.Error()) {
						return fmt.Errorf("commit failing at step %d: %v, want ErrTransactionCommitFail from the injected failure", step, err)
					}
					after, err := f.state()
					if err != nil {
						return err
					}
					if after != before {
						return fmt.Errorf("a commit failing at step %d changed the database:\nbefore %s\nafter  %s", step, before, after)
					}
					clear(reached)
					testHookApply = func(s applyStep) error { reached[s] = true; return nil }
					if err := f.change(); err != nil {
						return fmt.Errorf("the commit without failure: %w", err)
					}
					if len(reached) != int(numApplySteps) {
						return fmt.Errorf("the commit reached the steps %v, want all %d", reached, numApplySteps)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
