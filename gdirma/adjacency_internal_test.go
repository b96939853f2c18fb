package gdirma

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/gdi"
)

// TestScanLocalAdjacencyRules: ScanLocalAdjacency gives, for every vertex
// of the index, its ID and what IncidentEdges(EdgeAll) gives (loops,
// directed, undirected and heavyweight edges, a stub left by SetOrigin, and
// a hub whose image spans blocks); it leaves out vertices outside the
// index, and refuses to run outside a collective read transaction
// (ErrTransaction) or on an index that is not one (ErrIndex).
func TestScanLocalAdjacencyRules(t *testing.T) {
	err := withLocalDB(Params{BlockSize: 256}, func(db *Database) error {
		in, _ := db.CreateLabel("In")
		out, _ := db.CreateLabel("Out")
		pt, _ := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "w", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
		idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
		if err != nil {
			return err
		}
		if err := idx.AddLabel(in); err != nil {
			return err
		}
		err = InTx(db, func(tx gdi.Transaction) error {
			var vs []gdi.VertexHolder
			for i := range 40 {
				v, _ := tx.CreateVertex([]byte(fmt.Sprint(i)))
				l := in
				if i%7 == 6 {
					l = out
				}
				if err := v.AddLabel(l); err != nil {
					return err
				}
				vs = append(vs, v)
			}
			for i := range 120 {
				d := gdi.DirectionType(1 + i%2)
				e, err := tx.CreateEdge(d, vs[(i*7)%40], vs[(i*13)%40])
				if err != nil {
					return err
				}
				if i%9 == 0 { // heavyweight
					if err := e.AddProperty(pt, gdi.Int64s(int64(i))); err != nil {
						return err
					}
				}
				if i%17 == 0 { // leaves a stub at the old origin
					if err := e.SetOrigin(vs[(i+1)%40]); err != nil {
						return err
					}
				}
			}
			for j := range 90 { // a hub, whose image spans blocks: a scan reads its references apart
				if _, err := tx.CreateEdge(gdi.DirectionType(1+j%2), vs[2], vs[(j*3)%40]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		want, err := adjacencyByVertex(db, idx)
		if err != nil {
			return err
		}
		single, err := db.StartTransaction()
		if err != nil {
			return err
		}
		if err := single.(gdi.AdjacencyScanner).ScanLocalAdjacency(idx, func(*gdi.LocalAdjacency) error { return nil }); gdi.ErrorClass(err) != gdi.ErrTransaction {
			return fmt.Errorf("in a single-process transaction: %v, want ErrTransaction", err)
		}
		single.Abort()
		tx, err := db.StartCollectiveTransaction()
		if err != nil {
			return err
		}
		defer tx.Abort()
		got, noEdgeUIDs := map[gdi.VertexUID]string{}, map[gdi.VertexUID]string{}
		err = tx.(gdi.AdjacencyScanner).ScanLocalAdjacency(idx, func(v *gdi.LocalAdjacency) error {
			got[v.UID] = describeAdjacency(v.ID, v.Edges)
			for i := range v.Edges {
				v.Edges[i].UID = gdi.EdgeUID{} // the keyed scan has none
			}
			noEdgeUIDs[v.UID] = describeAdjacency(v.ID, v.Edges)
			return nil
		})
		if err != nil {
			return err
		}
		if len(got) != len(want) || len(got) != 40-5 {
			return fmt.Errorf("the scan found %d vertices, the index holds %d (want 35)", len(got), len(want))
		}
		for u, w := range want {
			if got[u] != w {
				return fmt.Errorf("vertex %v: the scan gives %s, IncidentEdges %s", u, got[u], w)
			}
		}
		if err := keyedMatches(db, tx, idx, noEdgeUIDs); err != nil {
			return err
		}
		var weights, seen []int64 // the values the heavyweight edges were given; of those with an end in idx
		for i := 0; i < 120; i += 9 {
			weights = append(weights, int64(i))
			if (i*7)%40%7 != 6 || (i*13)%40%7 != 6 {
				seen = append(seen, int64(i))
			}
		}
		if err := edgePropertyMatches(tx, idx, pt, weights, seen); err != nil {
			return err
		}
		if err := tx.(gdi.AdjacencyScanner).ScanLocalAdjacency(gdi.Index(nil), func(*gdi.LocalAdjacency) error { return nil }); gdi.ErrorClass(err) != gdi.ErrIndex {
			return fmt.Errorf("a nil index: %v, want ErrIndex", err)
		}
		stop := errors.New("stop")
		if err := tx.(gdi.AdjacencyScanner).ScanLocalAdjacency(idx, func(*gdi.LocalAdjacency) error { return stop }); err != stop {
			return fmt.Errorf("an error of fn: %v, want it returned", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// adjacencyByVertex is what ScanLocalAdjacency must give, the slow way.
func adjacencyByVertex(db *Database, idx gdi.Index) (map[gdi.VertexUID]string, error) {
	tx, err := db.StartCollectiveTransaction()
	if err != nil {
		return nil, err
	}
	defer tx.Abort()
	uids, err := tx.LocalVerticesOfIndex(idx, nil)
	if err != nil {
		return nil, err
	}
	out := map[gdi.VertexUID]string{}
	for _, u := range uids {
		v, err := tx.AssociateVertex(u)
		if err != nil {
			return nil, err
		}
		ids, err := v.Properties(gdi.PropertyTypeID)
		if err != nil || len(ids) != 1 {
			return nil, fmt.Errorf("vertex %v: IDs %v, %v", u, ids, err)
		}
		es, err := v.(gdi.IncidentEdger).IncidentEdges(gdi.EdgeAll, nil)
		if err != nil {
			return nil, err
		}
		out[u] = describeAdjacency(ids[0].Raw(), es)
	}
	return out, nil
}

// describeAdjacency renders an ID and its edges, in edge order.
func describeAdjacency(id []byte, es []gdi.IncidentEdge) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = fmt.Sprint(e)
	}
	slices.Sort(s)
	return fmt.Sprintf("%s %v", id, s)
}

// keyedMatches checks ScanLocalKeyed against the UIDs of the scan without
// keys (byUID, described by describeAdjacency): the same vertices, in
// ascending key order, keys below KeyLimit naming the blocks their UIDs
// name, the same edges; and ReadLocalKeyed of each key gives them again.
func keyedMatches(db *Database, tx gdi.Transaction, idx gdi.Index, byUID map[gdi.VertexUID]string) error {
	ks := tx.(gdi.KeyedAdjacencyReader)
	limit, err := ks.KeyLimit(0)
	if err != nil {
		return err
	}
	if _, err := ks.KeyLimit(1); gdi.ErrorClass(err) != gdi.ErrArgument {
		return fmt.Errorf("KeyLimit of rank 1 of 1: %v, want ErrArgument", err)
	}
	uidOf := func(home int, key uint64) gdi.VertexUID {
		return gdi.VertexUID(db.st.UID(db.st.BlockAt(home, int(key))))
	}
	edgesOf := func(v *gdi.KeyedAdjacency) (es []gdi.IncidentEdge) {
		for e := range v.Edges {
			es = append(es, gdi.IncidentEdge{Direction: e.Direction, Other: uidOf(e.Home, e.Key), IsOrigin: e.IsOrigin, IsTarget: e.IsTarget})
		}
		return es
	}
	var keys []uint64
	err = ks.ScanLocalKeyed(idx, func(v *gdi.KeyedAdjacency) error {
		if v.Key == 0 || v.Key >= limit || (len(keys) > 0 && v.Key <= keys[len(keys)-1]) {
			return fmt.Errorf("key %d after %v: outside [1, %d) or not ascending", v.Key, keys, limit)
		}
		keys = append(keys, v.Key)
		u := uidOf(0, v.Key)
		want, ok := byUID[u]
		if !ok {
			return fmt.Errorf("key %d names vertex %v, which the scan without keys did not find", v.Key, u)
		}
		if got := describeAdjacency(v.ID, edgesOf(v)); want != got {
			return fmt.Errorf("vertex %v: keyed %s, by UID %s", u, got, want)
		}
		if d, err := degreeProperty(tx, u); err != nil || d != v.Degree {
			return fmt.Errorf("vertex %v: keyed degree %d, PropertyTypeDegree %d (%v)", u, v.Degree, d, err)
		}
		return ks.ReadLocalKeyed(v.Key, func(r *gdi.KeyedAdjacency) error {
			if got := describeAdjacency(v.ID, edgesOf(r)); r.Key != v.Key || r.ID != nil || got != want {
				return fmt.Errorf("vertex %v: ReadLocalKeyed gives key %d, ID %q, %s; the scan %d, nil, %s", u, r.Key, r.ID, got, v.Key, want)
			}
			return nil
		})
	})
	if err == nil && len(keys) != len(byUID) {
		err = fmt.Errorf("the keyed scan found %d vertices, the scan by UID %d", len(keys), len(byUID))
	}
	if err != nil {
		return err
	}
	return keyedReadRules(ks, keys, limit)
}

// keyedReadRules: ReadLocalKeyed stops decoding where the reader stops,
// and refuses keys outside [1, limit) (ErrArgument) and keys of no vertex
// (ErrVertex: the blocks of edge holders, among others).
func keyedReadRules(ks gdi.KeyedAdjacencyReader, keys []uint64, limit uint64) error {
	seen := 0
	err := ks.ReadLocalKeyed(keys[0], func(v *gdi.KeyedAdjacency) error {
		for range v.Edges {
			seen++
			break
		}
		return nil
	})
	if err != nil || seen != 1 {
		return fmt.Errorf("a reader that stops at the first edge: %d edges, %v", seen, err)
	}
	for _, k := range []uint64{0, 1 << 40} {
		if err := ks.ReadLocalKeyed(k, func(*gdi.KeyedAdjacency) error { return nil }); gdi.ErrorClass(err) != gdi.ErrArgument {
			return fmt.Errorf("ReadLocalKeyed(%d): %v, want ErrArgument", k, err)
		}
	}
	noVertex := 0 // blocks of edge holders, continuations, free blocks
	for k := uint64(1); k < limit; k++ {
		if !slices.Contains(keys, k) {
			err := ks.ReadLocalKeyed(k, func(*gdi.KeyedAdjacency) error { return nil })
			switch gdi.ErrorClass(err) {
			case gdi.ErrVertex:
				noVertex++
			case gdi.Success: // a vertex outside the index
			default:
				return fmt.Errorf("ReadLocalKeyed(%d), no vertex of the index: %v, want ErrVertex or a vertex", k, err)
			}
		}
	}
	if noVertex == 0 {
		return fmt.Errorf("ReadLocalKeyed found a vertex in each of the %d blocks: want ErrVertex for edge holders", limit-1)
	}
	return nil
}

// edgePropertyMatches checks ScanLocalEdgeProperty: it hands out, in
// ascending key order, every edge holder with the values its edge was
// given (want, sorted); the edges of the keyed scan of idx name the
// holders of the values seen (sorted); and it refuses an invalid property
// type.
func edgePropertyMatches(tx gdi.Transaction, idx gdi.Index, pt gdi.PropertyType, want, seen []int64) error {
	es := tx.(gdi.KeyedEdgePropertyScanner)
	var keys []uint64
	var scanned []int64
	valueOf := map[uint64]int64{}
	err := es.ScanLocalEdgeProperty(pt, func(key uint64, vals []gdi.Value) error {
		if len(keys) > 0 && key <= keys[len(keys)-1] {
			return fmt.Errorf("edge holder key %d after %d", key, keys[len(keys)-1])
		}
		keys = append(keys, key)
		for _, v := range vals {
			x, err := v.Int64Slice()
			if err != nil || len(x) != 1 {
				return fmt.Errorf("value %v: %v", v, err)
			}
			scanned, valueOf[key] = append(scanned, x[0]), x[0]
		}
		return nil
	})
	if err != nil {
		return err
	}
	if slices.Sort(scanned); !slices.Equal(scanned, want) {
		return fmt.Errorf("ScanLocalEdgeProperty gives values %v, the edges were given %v", scanned, want)
	}
	named := map[int64]bool{}
	err = tx.(gdi.KeyedAdjacencyScanner).ScanLocalKeyed(idx, func(v *gdi.KeyedAdjacency) error {
		for e := range v.Edges {
			if x, ok := valueOf[e.HolderKey]; ok && e.HolderHome == 0 {
				named[x] = true
			}
		}
		return nil
	})
	if got := slices.Sorted(maps.Keys(named)); err != nil || !slices.Equal(got, seen) {
		return fmt.Errorf("the keyed scan's edges name the holders of values %v, want %v (%v)", got, seen, err)
	}
	err = es.ScanLocalEdgeProperty(tx.(*Transaction).db.PtypeHandle(999), func(uint64, []gdi.Value) error { return nil })
	if gdi.ErrorClass(err) != gdi.ErrPropertyType {
		return fmt.Errorf("ScanLocalEdgeProperty of a property type never made: %v, want ErrPropertyType", err)
	}
	return nil
}

// degreeProperty is vertex u's PropertyTypeDegree.
func degreeProperty(tx gdi.Transaction, u gdi.VertexUID) (uint64, error) {
	h, err := tx.AssociateVertex(u)
	if err != nil {
		return 0, err
	}
	vals, err := h.Properties(gdi.PropertyTypeDegree)
	if err != nil || len(vals) != 1 {
		return 0, fmt.Errorf("degree %v: %v", vals, err)
	}
	x, err := vals[0].Uint64Slice()
	if err != nil || len(x) != 1 {
		return 0, fmt.Errorf("degree %v: %v", vals[0], err)
	}
	return x[0], nil
}
