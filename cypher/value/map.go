package value

import (
	"iter"
	"slices"
	"sort"
)

// Map is an immutable map from string keys to Values. Its entries are kept
// sorted by key (byte order, which is code-point order), so iteration,
// printing, equality and order need no sorting; the zero Map is empty.
type Map struct{ d *mapData }

type mapData struct {
	keys []string
	vals []Value
}

// NewMap returns the Map value holding the entries of m.
func NewMap(m map[string]Value) Value {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	vals := make([]Value, len(keys))
	for i, k := range keys {
		vals[i] = m[k]
	}
	return MapValue(Map{&mapData{keys, vals}})
}

// MapFromPairs returns the Map value with keys[i] bound to vals[i], as a
// map literal {k1: v1, …} evaluates; of duplicate keys the last one wins.
func MapFromPairs(keys []string, vals []Value) Value {
	m := make(map[string]Value, len(keys))
	for i, k := range keys {
		m[k] = vals[i]
	}
	return NewMap(m)
}

// Len returns the number of entries.
func (m Map) Len() int {
	if m.d == nil {
		return 0
	}
	return len(m.d.keys)
}

// Get returns the value bound to key and whether there is one. A key bound
// to null is present (keys() lists it) but reads as null like a missing one.
func (m Map) Get(key string) (Value, bool) {
	if m.d == nil {
		return Null, false
	}
	i, ok := slices.BinarySearch(m.d.keys, key)
	if !ok {
		return Null, false
	}
	return m.d.vals[i], true
}

// Keys returns the keys in ascending order (a new slice).
func (m Map) Keys() []string {
	if m.d == nil {
		return nil
	}
	return slices.Clone(m.d.keys)
}

// All iterates over the entries in ascending key order.
func (m Map) All() iter.Seq2[string, Value] {
	return func(yield func(string, Value) bool) {
		for i := 0; i < m.Len(); i++ {
			if !yield(m.d.keys[i], m.d.vals[i]) {
				return
			}
		}
	}
}

func (m Map) key(i int) string { return m.d.keys[i] }
func (m Map) val(i int) Value  { return m.d.vals[i] }
