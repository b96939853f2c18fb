package gdirma

import (
	"errors"

	"github.com/gdi-go/gdi/gdi"
)

// IndexEntries returns the number of entries the tree of index idx holds
// on every rank, for tests that check that commits leave none behind.
func IndexEntries(db *Database, idx gdi.Index) (int, error) {
	d := db.treeOf(idx)
	if d == nil {
		return 0, errors.New("the index has no tree")
	}
	total := 0
	for rank := range db.st.size {
		n, err := db.st.forest.Len(d.tree, rank)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// InTx runs fn in a transaction of db and commits it, or aborts it if fn
// fails.
func InTx(db gdi.Database, fn func(tx gdi.Transaction) error) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, tx.Abort())
	}
	return tx.Commit()
}

// SetDropHook makes f see every commit of sparse drops (sparsedrop.go),
// with whether they were written in place, until the returned function
// is called.
func SetDropHook(f func(inPlace bool)) (restore func()) {
	old := testHookDrops
	testHookDrops = f
	return func() { testHookDrops = old }
}

// SetHeadPatchHook makes f see every holder whose labels and properties
// a commit writes over in place, until the returned function is called.
func SetHeadPatchHook(f func(n uint64)) (restore func()) {
	old := testHookHeadPatch
	testHookHeadPatch = f
	return func() { testHookHeadPatch = old }
}

// SetRereadHook makes f see every plan of sparse drops that reads the
// rest of a primary block for the count, until the returned function is
// called.
func SetRereadHook(f func()) (restore func()) {
	old := testHookReread
	testHookReread = f
	return func() { testHookReread = old }
}
