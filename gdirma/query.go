package gdirma

import (
	"maps"
	"slices"
	"strings"

	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// Queries over many objects: the implicit index (TranslateVertexID and the
// uniqueness of IDs) and the explicit indexes. Each evaluates a predicate
// over the committed store overlaid with the transaction's copies, and
// records which committed objects matched, for validation at commit.

// overlay combines the committed matches of a query with the
// transaction's copies, for which match decides. The result is sorted.
// A copy the transaction did not change is the committed holder of the
// version it read: if the query does not find it now, it changed since
// and the commit fails validation anyway, so only changed copies and
// committed matches are asked.
func (tx *Transaction) overlay(k kind, committed map[layout.Number]struct{}, match func(n layout.Number, r *record) bool) []layout.Number {
	var out []layout.Number
	for n := range committed {
		if o := tx.objs[k].get(n); o == nil {
			out = append(out, n)
		} else if !o.dirty && !o.deleted && match(n, o.rec) {
			out = append(out, n)
		}
	}
	for n, o := range tx.objs[k].all() {
		if o.dirty && !o.deleted && match(n, o.rec) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// beforeScan notes the number of commits before the first scan of the
// transaction: if it is unchanged at commit, no scan needs revalidation
// (DHT lookups, which are cheap to repeat, are always made again).
func (tx *Transaction) beforeScan() error {
	if tx.epochSet {
		return nil
	}
	v, err := tx.db.st.Commits()
	if err != nil {
		return err
	}
	tx.epoch, tx.epochSet = v, true
	return nil
}

// record remembers a scan for validation.
func (tx *Transaction) record(eval func(st *graph) (map[layout.Number]struct{}, error), seen map[layout.Number]struct{}) {
	tx.addScan(scan{eval: eval, seen: seen})
}

// lookupID returns the objects of kind k found under key, as the
// transaction sees them. The result is valid until the next lookupID.
//
// The lookup is remembered for validation at commit, except a hit in the
// DHT, which the version of the copy it took settles, and, with enforced
// set, a miss in the DHT: the uniqueness checks that set it need not be
// revalidated, as the commit inserts the key into the DHT, which refuses
// a key taken meanwhile.
func (tx *Transaction) lookupID(k kind, key idKey, enforced bool) ([]layout.Number, error) {
	// key.id may be borrowed (TranslateVertexID): it is copied before
	// anything keeps it.
	hit, committed, err := tx.dhtLookup(k, key)
	if hit != 0 {
		// The copy just taken has the ID: nothing else can have it. The
		// version check of the copy settles the lookup at commit, so the
		// lookup is not kept, nor is the ID.
		// A changed copy in this transaction with the same key could
		// only have taken it before the vertex found committed it: the
		// commit fails on the implicit index then, so it is not looked for.
		tx.hitBuf[0] = hit
		return tx.hitBuf[:1], nil
	}
	if enforced && err == nil && committed != nil && len(committed) == 0 {
		// Nothing keeps the key: it need not be copied.
		borrowed := key
		return tx.overlay(k, committed, func(_ layout.Number, r *record) bool { return r.matchesID(borrowed) }), nil
	}
	kept := idKey{key.label, strings.Clone(key.id)} // so key itself never escapes
	eval := func(st *graph) (map[layout.Number]struct{}, error) { return st.committedIDMatches(k, kept) }
	if committed == nil && err == nil {
		committed, err = eval(tx.db.st)
	}
	if err != nil {
		if gdi.ErrorClass(err) == gdi.ErrTransactionCritical {
			return nil, tx.fail("%v", err)
		}
		return nil, err
	}
	tx.addScan(scan{eval: eval, seen: committed, isID: true})
	return tx.overlay(k, committed, func(_ layout.Number, r *record) bool { return r.matchesID(kept) }), nil
}

// addScan remembers a query for validation at commit. Collective read
// transactions run on a quiet database and need none.
func (tx *Transaction) addScan(s scan) {
	if tx.typ != gdi.SingleProcessTransaction {
		return
	}
	if tx.scans == nil {
		tx.scans = tx.scanBuf[:0]
	}
	tx.scans = append(tx.scans, s)
}

// noneCommitted is the empty set of committed objects. Sets of them are
// only read (overlay, scan.seen), so all empty ones can be this one.
var noneCommitted = map[layout.Number]struct{}{}

// dhtLookup is the fast path of lookupID for vertices with a label: the
// DHT names the vertex, and the transaction's copy of it, taken now if it
// has none, tells whether it has the ID. hit is that vertex if it does.
// committed is nil if the fast path does not apply (the key needs a scan,
// or the transaction holds a copy already, which may differ from the
// committed holder).
//
// The DHT is first asked for a guess (dht.Table.Guess, one round trip),
// which the copy checks as it checks any answer: only a guess the copy
// does not bear out costs the whole lookup.
func (tx *Transaction) dhtLookup(k kind, key idKey) (hit layout.Number, committed map[layout.Number]struct{}, err error) {
	if k != vertexKind || key.label == uint32(gdi.LabelNone) {
		return 0, nil, nil
	}
	ids, dk, scratch := tx.db.st.IDs(), dhtKey(key.id), tx.scratchSpace().dht[:]
	v, answer, err := ids.Guess(key.label, dk, scratch)
	switch {
	case err != nil:
		return 0, nil, internal(err)
	case answer == dht.Absent:
		return 0, noneCommitted, nil
	case answer == dht.Likely:
		if testHookGuess != nil {
			v = testHookGuess(v)
		}
		hit, committed, err = tx.dhtHit(k, key, layout.Number(v))
		if err != nil || hit != 0 || committed == nil {
			return hit, committed, err
		}
	}
	v, found, err := ids.LookupBuf(key.label, dk, scratch)
	if err != nil {
		return 0, nil, internal(err)
	}
	if !found {
		return 0, noneCommitted, nil
	}
	return tx.dhtHit(k, key, layout.Number(v))
}

// testHookGuess, if set, replaces the value of every Likely guess of the
// DHT, as a torn read of the bucket slot could.
var testHookGuess func(v uint64) uint64

// dhtHit ends dhtLookup once the DHT named vertex n.
func (tx *Transaction) dhtHit(k kind, key idKey, n layout.Number) (hit layout.Number, committed map[layout.Number]struct{}, err error) {
	if tx.objs[k].get(n) != nil {
		return 0, nil, nil
	}
	o, err := tx.get(k, n)
	if err != nil {
		return 0, nil, err
	}
	if o == nil || !o.rec.matchesID(key) {
		return 0, map[layout.Number]struct{}{}, nil
	}
	return n, nil, nil
}

// idClash returns ErrNonUniqueID if another object of kind k than n has
// one of the given labels and the application-level ID id.
func (tx *Transaction) idClash(k kind, n layout.Number, labels []uint32, id string) error {
	for _, l := range labels {
		ms, err := tx.lookupID(k, idKey{l, id}, true)
		if err != nil {
			return err
		}
		for _, m := range ms {
			if m != n {
				return gdi.Errorf(gdi.ErrNonUniqueID, "another %v has label %s and ID %q", k, tx.db.labelText(l), id)
			}
		}
	}
	return nil
}

// TranslateVertexID finds the vertex with label l and application-level ID
// id.
func (tx *Transaction) TranslateVertexID(l gdi.Label, id []byte) (gdi.VertexUID, bool, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.valid(); err != nil {
		return 0, false, err
	}
	ln, err := tx.db.LabelNum(l, true)
	if err != nil {
		return 0, false, err
	}
	found, err := tx.lookupID(vertexKind, idKey{ln, string(id)}, false)
	if err != nil {
		return 0, false, err
	}
	switch len(found) {
	case 0:
		return 0, false, nil
	case 1:
		return tx.vertexUID(found[0]), true, nil
	}
	if ln != uint32(gdi.LabelNone) {
		return 0, false, tx.fail("label %s and ID %q name %d vertices", tx.db.labelText(ln), id, len(found))
	}
	return tx.vertexUID(found[0]), true, gdi.Errorf(gdi.WarnNonUniqueID, "%d vertices without labels have ID %q", len(found), id)
}

// objView shows a record to gdi.DNF and gdi.IndexCovers with this rank's
// handles.
type objView struct {
	db      *Database
	r       *record
	degrees func() (deg, in, out uint64) // nil for edges
	// lbuf, if set, is reused for the result of Labels, which is then
	// valid only until the next call.
	lbuf *[]gdi.Label
}

func (v objView) Labels() []gdi.Label {
	if v.lbuf != nil {
		out := (*v.lbuf)[:0]
		for _, n := range v.r.labels() {
			out = append(out, v.db.LabelHandle(n))
		}
		*v.lbuf = out
		return out
	}
	out := make([]gdi.Label, len(v.r.labels()))
	for i, n := range v.r.labels() {
		out[i] = v.db.LabelHandle(n)
	}
	return out
}

func (v objView) PropertyTypes() []gdi.PropertyType {
	var out []gdi.PropertyType
	for _, n := range v.r.ptypes() {
		out = append(out, v.db.PtypeHandle(n))
	}
	return out
}

func (v objView) Values(p gdi.PropertyType) []gdi.Value {
	if p.IsReadOnly() {
		if v.degrees == nil {
			return nil
		}
		deg, in, out := v.degrees()
		return []gdi.Value{degreeValue(p, deg, in, out)}
	}
	if p.Tag() != 0 && p.Tag() != v.db.Tag() {
		return nil
	}
	return v.r.values(p.ID())
}

func degreeValue(p gdi.PropertyType, deg, in, out uint64) gdi.Value {
	switch p {
	case gdi.PropertyTypeInDegree:
		return gdi.Uint64s(in)
	case gdi.PropertyTypeOutDegree:
		return gdi.Uint64s(out)
	}
	return gdi.Uint64s(deg)
}

// addDegree counts edge e of vertex n: a loop counts twice in the degree.
func addDegree(deg, in, out uint64, n layout.Number, dir gdi.DirectionType, origin, target layout.Number) (uint64, uint64, uint64) {
	if origin == n {
		deg++
	}
	if target == n {
		deg++
	}
	if dir == gdi.Directed {
		if origin == n {
			out++
		}
		if target == n {
			in++
		}
	}
	return deg, in, out
}

// txDegrees computes the degrees of vertex n as the transaction sees it.
func (tx *Transaction) txDegrees(n layout.Number, r *record) (deg, in, out uint64, err error) {
	if !tx.edgesMayDiffer() && r.hdr {
		// The degrees of the image, which a partial record has too.
		deg, in, out = r.degrees(n)
		return deg, in, out, nil
	}
	if err := tx.full(n, r); err != nil {
		return 0, 0, 0, err
	}
	if !tx.edgesMayDiffer() {
		deg, in, out = r.degrees(n)
		return deg, in, out, nil
	}
	for _, ee := range r.refList() {
		e, x := ee.n, ee.ref
		if x.Stub() {
			continue
		}
		if o := tx.objs[edgeKind].get(e); o != nil && !o.deleted {
			deg, in, out = addDegree(deg, in, out, n, o.rec.dir, o.rec.origin, o.rec.target)
		} else {
			deg, in, out = addDegree(deg, in, out, n, x.Dir, x.Origin, x.Target)
		}
	}
	return deg, in, out, nil
}

// edgesMayDiffer tells whether an edge the transaction holds may differ
// from its committed record, so that degrees are counted from the edges:
// not if it holds none, nor in a collective read transaction, which
// writes nothing however many edges it reads.
func (tx *Transaction) edgesMayDiffer() bool {
	return tx.typ != gdi.CollectiveReadTransaction && tx.objs[edgeKind].len() > 0
}

func sortedKeys[V any](m map[layout.Number]V) []layout.Number {
	return slices.Sorted(maps.Keys(m))
}

// predicate is what an index query asks of an object.
type predicate struct {
	db        *Database
	labels    []gdi.Label
	ptypes    []gdi.PropertyType
	dnf       gdi.DNF
	hasFilter bool
	home      int // -1: any rank
}

func (p predicate) holds(v objView) bool {
	if p.home >= 0 && int(v.r.home) != p.home {
		return false
	}
	if !gdi.IndexCovers(p.labels, p.ptypes, v.Labels(), v.PropertyTypes()) {
		return false
	}
	if !p.hasFilter {
		return true
	}
	ok, err := p.dnf.Eval(v)
	return err == nil && ok
}

// query runs an index query for objects of kind k.
func (tx *Transaction) query(k kind, idx gdi.Index, c gdi.Constraint, local bool) ([]layout.Number, error) {
	if err := tx.valid(); err != nil {
		return nil, err
	}
	db := tx.db
	pred := predicate{db: db, home: -1}
	if local {
		pred.home = db.rank
	}
	var err error
	if pred.labels, pred.ptypes, err = db.IndexSets(idx); err != nil {
		return nil, err
	}
	if pred.dnf, pred.hasFilter, err = db.Filter(c); err != nil {
		return nil, err
	}
	eval := func(st *graph) (map[layout.Number]struct{}, error) {
		out := map[layout.Number]struct{}{}
		var degErr error
		if d := db.treeOf(idx); d != nil {
			found, err := db.candidates(d, db.plan(d, k, pred.dnf, pred.hasFilter), local)
			if err != nil {
				return nil, err
			}
			for n := range found {
				v := objView{db: db}
				if k == vertexKind {
					r, _, err := st.loadImage(vertexKind, n, store.Prefix)
					if err != nil {
						return nil, err
					}
					if r == nil {
						continue // deleted since the scan of the entries
					}
					v.r, v.degrees = r, func() (uint64, uint64, uint64) { return r.degrees(n) }
				} else if v.r, err = st.loadEdge(n); err != nil {
					return nil, err
				}
				if v.r != nil && pred.holds(v) {
					out[n] = struct{}{}
				}
			}
			return out, nil
		}
		err := st.scan(k, func(n layout.Number, r *record) error {
			v := objView{db: db, r: r}
			if k == vertexKind {
				v.degrees = func() (uint64, uint64, uint64) {
					return r.degrees(n)
				}
			}
			if pred.holds(v) {
				out[n] = struct{}{}
			}
			return degErr
		})
		return out, err
	}
	if err := tx.beforeScan(); err != nil {
		return nil, err
	}
	committed, err := eval(db.st)
	if err != nil {
		if gdi.ErrorClass(err) == gdi.ErrTransactionCritical {
			return nil, tx.fail("%v", err)
		}
		return nil, err
	}
	tx.record(eval, maps.Clone(committed))
	var degErr error
	found := tx.overlay(k, committed, func(n layout.Number, r *record) bool {
		v := objView{db: db, r: r}
		if k == vertexKind {
			v.degrees = func() (uint64, uint64, uint64) {
				d, i, o, err := tx.txDegrees(n, r)
				if err != nil {
					degErr = err
				}
				return d, i, o
			}
		}
		return pred.holds(v)
	})
	return found, degErr
}

// VerticesOfIndex returns the vertices in idx that satisfy c.
func (tx *Transaction) VerticesOfIndex(idx gdi.Index, c gdi.Constraint) ([]gdi.VertexUID, error) {
	return tx.vertexQuery(idx, c, false)
}

// LocalVerticesOfIndex returns the vertices in idx that satisfy c and have
// the calling rank as home.
func (tx *Transaction) LocalVerticesOfIndex(idx gdi.Index, c gdi.Constraint) ([]gdi.VertexUID, error) {
	return tx.vertexQuery(idx, c, true)
}

func (tx *Transaction) vertexQuery(idx gdi.Index, c gdi.Constraint, local bool) ([]gdi.VertexUID, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	ns, err := tx.query(vertexKind, idx, c, local)
	if err != nil {
		return nil, err
	}
	out := make([]gdi.VertexUID, len(ns))
	for i, n := range ns {
		out[i] = tx.vertexUID(n)
	}
	return out, nil
}

// EdgesOfIndex returns the edges in idx that satisfy c.
func (tx *Transaction) EdgesOfIndex(idx gdi.Index, c gdi.Constraint) ([]gdi.EdgeUID, error) {
	return tx.edgeQuery(idx, c, false)
}

// LocalEdgesOfIndex returns the edges in idx that satisfy c and have the
// calling rank as home.
func (tx *Transaction) LocalEdgesOfIndex(idx gdi.Index, c gdi.Constraint) ([]gdi.EdgeUID, error) {
	return tx.edgeQuery(idx, c, true)
}

func (tx *Transaction) edgeQuery(idx gdi.Index, c gdi.Constraint, local bool) ([]gdi.EdgeUID, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	ns, err := tx.query(edgeKind, idx, c, local)
	if err != nil {
		return nil, err
	}
	out := make([]gdi.EdgeUID, 0, len(ns))
	for _, n := range ns {
		out = tx.appendEdgeUID(out, n)
	}
	return out, nil
}
