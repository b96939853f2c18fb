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
