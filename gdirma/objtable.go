package gdirma

import (
	"iter"

	"github.com/gdi-go/gdi/gdirma/internal/layout"
)

// objTable maps object numbers to a transaction's copies of one kind. Most
// transactions touch a handful of objects, so the first few live in an
// array inside the transaction, found by a linear scan with no hashing and
// no allocation; a map takes over when they no longer fit.
type objTable struct {
	few [objFew]objEntry
	n   int                      // entries of few in use, while m is nil
	m   map[layout.Number]*txObj // all entries, once few overflowed
}

type objEntry struct {
	num layout.Number
	o   *txObj
}

const objFew = 4

// get returns the copy of object n, or nil.
func (t *objTable) get(n layout.Number) *txObj {
	if t.m != nil {
		return t.m[n]
	}
	for i := range t.n {
		if t.few[i].num == n {
			return t.few[i].o
		}
	}
	return nil
}

// put makes o the copy of object n.
func (t *objTable) put(n layout.Number, o *txObj) {
	if t.m != nil {
		t.m[n] = o
		return
	}
	for i := range t.n {
		if t.few[i].num == n {
			t.few[i].o = o
			return
		}
	}
	if t.n < objFew {
		t.few[t.n] = objEntry{n, o}
		t.n++
		return
	}
	t.m = make(map[layout.Number]*txObj, 2*objFew)
	for _, e := range t.few[:t.n] {
		t.m[e.num] = e.o
	}
	t.m[n] = o
}

// reserve makes room for k more copies at once, so that a transaction
// about to touch many objects (the neighbours of a vertex it deletes) does
// not grow the map step by step.
func (t *objTable) reserve(k int) {
	if t.m != nil || t.n+k <= objFew {
		return
	}
	t.m = make(map[layout.Number]*txObj, t.n+k)
	for _, e := range t.few[:t.n] {
		t.m[e.num] = e.o
	}
}

// len returns the number of copies.
func (t *objTable) len() int {
	if t.m != nil {
		return len(t.m)
	}
	return t.n
}

// all yields every copy once, in no particular order. Like a map's, it
// tolerates puts while it runs (a copy put then may or may not be
// yielded).
func (t *objTable) all() iter.Seq2[layout.Number, *txObj] {
	return func(yield func(layout.Number, *txObj) bool) {
		if t.m != nil {
			for n, o := range t.m {
				if !yield(n, o) {
					return
				}
			}
			return
		}
		few := t.few[:t.n]
		for _, e := range few {
			if !yield(e.num, e.o) {
				return
			}
		}
	}
}
