package gdirma

import (
	"errors"

	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
)

// The implicit index. The DHT maps the keys of every object with an
// application-level ID to its number: (label, ID) for each of its labels,
// or (LabelNone, ID) for one without labels; edges' keys have a namespace
// of their own (edgeKeys). A labelled key is unique: a commit that adds
// one that is taken fails with ErrNonUniqueID. Objects without labels may
// share an ID (the spec warns, WarnNonUniqueID), so their key names one of
// them, or severalObjects; only a lookup of such a key scans the objects
// of its kind. A lookup therefore reads one DHT entry and the holder it
// names, whatever the size of the graph.
//
// The commit that adds or drops keys does so while it holds the write
// locks of their objects (apply's step 1), so the index follows the
// committed holders.

// edgeKeys marks the labels of edges' keys.
const edgeKeys = 1 << 31

// severalObjects is the value of a key without label that more objects
// than one have, or had: lookups of it scan.
const severalObjects = ^uint64(0)

// dhtLabel is the DHT label of key label l of an object of kind k.
func dhtLabel(k kind, l uint32) uint32 {
	if k == edgeKind {
		return l | edgeKeys
	}
	return l
}

// keysOf returns the keys of r (see idKeys), in buf if they fit.
func keysOf(r *record, buf []idKey) []idKey {
	if r == nil {
		return nil
	}
	id, ok := r.appID()
	if !ok {
		return nil
	}
	ks := buf[:0]
	for _, l := range r.labels() {
		ks = append(ks, idKey{l, id})
	}
	if len(ks) == 0 {
		ks = append(ks, idKey{uint32(gdi.LabelNone), id})
	}
	return ks
}

// addKey enters key of object n of kind k. A labelled key that another
// object has is ErrNonUniqueID. A key without label that another object
// has becomes severalObjects; the loop makes sure that the key is present
// when it returns, whatever deletes of it run at the same time.
func (st *graph) addKey(k kind, key idKey, n layout.Number) error {
	ids, label, dk := st.IDs(), dhtLabel(k, key.label), dhtKey(key.id)
	err := ids.Insert(label, dk, uint64(n))
	if key.label != uint32(gdi.LabelNone) {
		if errors.Is(err, dht.ErrExists) {
			return gdi.Errorf(gdi.ErrNonUniqueID, "another %v has label %s and ID %q", k, st.labelName(key.label), key.id)
		}
		return internal(err)
	}
	for errors.Is(err, dht.ErrExists) {
		var v uint64
		var found bool
		v, found, err = ids.Lookup(label, dk)
		if err == nil && found && v != severalObjects {
			_, _, err = ids.Swap(label, dk, v, severalObjects)
		}
		if err == nil && found {
			// A delete may have taken the entry the swap changed.
			v, found, err = ids.Lookup(label, dk)
		}
		if err != nil {
			return internal(err)
		}
		if found && v == severalObjects {
			return nil
		}
		err = ids.Insert(label, dk, uint64(n))
	}
	return internal(err)
}

// dropKey removes key of object n of kind k, if the index names n under
// it (a key several objects had stays severalObjects).
func (st *graph) dropKey(k kind, key idKey, n layout.Number) (bool, error) {
	deleted, err := st.IDs().DeleteIf(dhtLabel(k, key.label), dhtKey(key.id), uint64(n))
	return deleted, internal(err)
}

// committedIDMatches returns the committed objects of kind k found under
// key: the object the index names, if its holder bears the key out, or
// those a scan finds where the key is one of several objects without
// labels (or its object is being written).
func (st *graph) committedIDMatches(k kind, key idKey) (map[layout.Number]struct{}, error) {
	out := map[layout.Number]struct{}{}
	v, found, err := st.IDs().Lookup(dhtLabel(k, key.label), dhtKey(key.id))
	if err != nil || !found {
		return out, internal(err)
	}
	if v != severalObjects {
		n := layout.Number(v)
		r, err := st.loadObject(k, n)
		if err != nil {
			return nil, err
		}
		if r != nil && r.matchesID(key) {
			out[n] = struct{}{}
			return out, nil
		}
		if key.label != uint32(gdi.LabelNone) {
			return out, nil // a unique key: no other object has it
		}
	}
	err = st.scan(k, func(n layout.Number, r *record) error {
		if r.matchesID(key) {
			out[n] = struct{}{}
		}
		return nil
	})
	return out, err
}

// loadObject returns the committed object n of kind k, or nil.
func (st *graph) loadObject(k kind, n layout.Number) (*record, error) {
	if k == edgeKind {
		return st.loadEdge(n)
	}
	return st.load(vertexKind, n)
}

// rebuildImplicitIndex enters the keys of this rank's vertices and of the
// edges whose origins are this rank's (recovery; the index is empty).
func (db *Database) rebuildImplicitIndex() error {
	st := db.st
	return st.scanRank(db.rank, vertexKind, func(v layout.Number, r *record) error {
		var buf [2]idKey
		for _, key := range keysOf(r, buf[:]) {
			if err := st.addKey(vertexKind, key, v); err != nil {
				return gdi.Errorf(gdi.ErrIntern, "gdirma: recovery: vertex %v, label %s, ID %q: %v", v.Holder(), db.labelText(key.label), key.id, err)
			}
		}
		return st.originEdges(v, r, func(e layout.Number, er *record, _ int) error {
			for _, key := range keysOf(er, buf[:]) {
				if err := st.addKey(edgeKind, key, e); err != nil {
					return gdi.Errorf(gdi.ErrIntern, "gdirma: recovery: edge %d, label %s, ID %q: %v", e, db.labelText(key.label), key.id, err)
				}
			}
			return nil
		})
	})
}
