package conformance

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gdi-go/gdi/gdi"
)

// ErrSkip is returned (wrapped) by a case that cannot check its rule on
// this backend, for example because an optional capability is missing. Run
// reports such a case as skipped, with the reason.
var ErrSkip = errors.New("conformance: case skipped")

// Skipf stops the case on this rank and marks it skipped. Every rank should
// skip alike (decide on something all ranks see the same way).
func (e *Env) Skipf(format string, args ...any) {
	panic(failure{err: fmt.Errorf("%w: %s", ErrSkip, fmt.Sprintf(format, args...))})
}

// board is shared by the ranks of one case that run in the same process
// (all of them with rma/local, one with MPI). It lets cases hand handles of
// one rank's Database to another rank, to check that they are rejected.
type board struct {
	mu   sync.Mutex
	n    int
	vals map[string]map[int]any
}

func (b *board) join() {
	b.mu.Lock()
	b.n++
	b.mu.Unlock()
}

// ranksInProcess is the number of ranks of the case in this process.
func (e *Env) ranksInProcess() int {
	e.shared.mu.Lock()
	defer e.shared.mu.Unlock()
	return e.shared.n
}

// publish stores v under key for this rank, and after a barrier returns
// what every rank of the process published under key, by rank.
func (e *Env) publish(key string, v any) map[int]any {
	e.shared.mu.Lock()
	if e.shared.vals == nil {
		e.shared.vals = map[string]map[int]any{}
	}
	if e.shared.vals[key] == nil {
		e.shared.vals[key] = map[int]any{}
	}
	e.shared.vals[key][e.Rank()] = v
	e.shared.mu.Unlock()
	e.barrier()
	e.shared.mu.Lock()
	defer e.shared.mu.Unlock()
	out := map[int]any{}
	for r, x := range e.shared.vals[key] {
		out[r] = x
	}
	return out
}

// id returns an application-level ID that is unique to the calling rank.
func (e *Env) id(s string) []byte { return []byte(fmt.Sprintf("r%d/%s", e.Rank(), s)) }

// idOf returns the ID that rank r would get from id.
func idOf(r int, s string) []byte { return []byte(fmt.Sprintf("r%d/%s", r, s)) }

// label creates a label (collective).
func (e *Env) label(name string) gdi.Label {
	l, err := e.DB.CreateLabel(name)
	okf(err, "CreateLabel(%q)", name)
	return l
}

// ptype creates a property type (collective).
func (e *Env) ptype(name string, ent gdi.EntityType, dt gdi.Datatype, st gdi.SizeType, count int) gdi.PropertyType {
	p, err := e.DB.CreatePropertyType(gdi.PropertyTypeInfo{Name: name, Entity: ent, Datatype: dt, Size: st, Count: count})
	okf(err, "CreatePropertyType(%q)", name)
	return p
}

// single and multi create unlimited single and multiple entity types.
func (e *Env) single(name string, dt gdi.Datatype) gdi.PropertyType {
	return e.ptype(name, gdi.SingleEntity, dt, gdi.NoSizeLimit, 0)
}

func (e *Env) multi(name string, dt gdi.Datatype) gdi.PropertyType {
	return e.ptype(name, gdi.MultipleEntity, dt, gdi.NoSizeLimit, 0)
}

// tx starts a single-process transaction.
func (e *Env) tx() gdi.Transaction {
	tx, err := e.DB.StartTransaction()
	if cerr := checkCoded(err); cerr != nil {
		fatal(1, "StartTransaction: %v", cerr)
	}
	if gdi.Failed(err) {
		fatal(1, "StartTransaction: %v", err)
	}
	return tx
}

// commit commits tx and fails on error.
func commit(tx gdi.Transaction) {
	err := tx.Commit()
	if cerr := checkCoded(err); cerr != nil {
		fatal(1, "Commit: %v", cerr)
	}
	if gdi.Failed(err) {
		fatal(1, "Commit: %v", err)
	}
}

// update runs fn in a new transaction and commits it. Other ranks run
// their transactions meanwhile, and a backend may stop one that meets
// theirs (a transaction-critical error, or a commit that fails): then fn
// runs again in a new transaction, so it must not accumulate state
// outside the transaction. Any other failure stops the case.
func (e *Env) update(fn func(tx gdi.Transaction)) {
	const attempts = 50
	for attempt := 1; ; attempt++ {
		tx := e.tx()
		if !runOnce(tx, fn, attempt < attempts) {
			abortQuietly(tx)
			backoff(attempt)
			continue
		}
		err := tx.Commit()
		if cerr := checkCoded(err); cerr != nil {
			fatal(1, "Commit: %v", cerr)
		}
		if errors.Is(err, gdi.ErrTransactionCommitFail) && attempt < attempts {
			backoff(attempt)
			continue
		}
		if gdi.Failed(err) {
			fatal(1, "Commit: %v", err)
		}
		return
	}
}

// runOnce runs fn(tx). It reports false if a transaction-critical error
// stopped fn and retry is set; other failures go on up.
func runOnce(tx gdi.Transaction, fn func(tx gdi.Transaction), retry bool) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			if f, isF := p.(failure); isF && f.critical && retry {
				ok = false
				return
			}
			panic(p)
		}
	}()
	fn(tx)
	return true
}

// view runs fn in a new transaction and commits it (it should only read).
func (e *Env) view(fn func(tx gdi.Transaction)) {
	e.update(fn)
}

// retry runs fn in new transactions until one commits, for transactions
// that may conflict with those of other ranks or goroutines. fn returns an
// error to give up the attempt (it is aborted and retried if the error is
// transaction-critical).
func (e *Env) retry(what string, fn func(tx gdi.Transaction) error) {
	var last error
	for attempt := 0; attempt < 200; attempt++ {
		tx, err := e.DB.StartTransaction()
		e.mustCoded(err, what)
		if gdi.Failed(err) {
			last = err
			backoff(attempt)
			continue
		}
		err = fn(tx)
		e.mustCoded(err, what)
		if err != nil {
			abortQuietly(tx)
			if gdi.IsTransactionCritical(err) || errors.Is(err, gdi.ErrResource) {
				last = err
				backoff(attempt)
				continue
			}
			fatal(1, "%s: %v", what, err)
		}
		err = tx.Commit()
		e.mustCoded(err, what)
		if err == nil {
			return
		}
		if !errors.Is(err, gdi.ErrTransactionCommitFail) {
			fatal(1, "%s: Commit: %v", what, err)
		}
		last = err
		backoff(attempt)
	}
	fatal(1, "%s: no attempt committed; last error: %v", what, last)
}

func (e *Env) mustCoded(err error, what string) {
	if cerr := checkCoded(err); cerr != nil {
		fatal(2, "%s: %v", what, cerr)
	}
}

func backoff(attempt int) {
	d := time.Duration(50+rand.IntN(200*(attempt%8+1))) * time.Microsecond
	time.Sleep(d)
}

func abortQuietly(tx gdi.Transaction) {
	if tx != nil {
		_ = tx.Abort()
	}
}

// vertex creates a vertex with the given ID, labels and properties.
func vertex(tx gdi.Transaction, id []byte, labels []gdi.Label, props ...prop) gdi.VertexHolder {
	v, err := tx.CreateVertex(id)
	if gdi.Failed(err) || checkCoded(err) != nil {
		fatal(1, "CreateVertex(%q): %v", id, err)
	}
	for _, l := range labels {
		if err := v.AddLabel(l); gdi.Failed(err) || checkCoded(err) != nil {
			fatal(1, "AddLabel(%v): %v", l, err)
		}
	}
	for _, p := range props {
		if err := v.AddProperty(p.t, p.v); gdi.Failed(err) || checkCoded(err) != nil {
			fatal(1, "AddProperty(%v, %v): %v", p.t, p.v, err)
		}
	}
	return v
}

type prop struct {
	t gdi.PropertyType
	v gdi.Value
}

// ls builds a label slice.
func ls(l ...gdi.Label) []gdi.Label { return l }

// translate looks up (l, id) and fails unless it is found.
func translate(tx gdi.Transaction, l gdi.Label, id []byte) gdi.VertexUID {
	uid, found, err := tx.TranslateVertexID(l, id)
	if gdi.Failed(err) || checkCoded(err) != nil {
		fatal(1, "TranslateVertexID(%v, %q): %v", l, id, err)
	}
	if !found {
		fatal(1, "TranslateVertexID(%v, %q): not found", l, id)
	}
	return uid
}

// assoc associates uid and fails on error.
func assoc(tx gdi.Transaction, uid gdi.VertexUID) gdi.VertexHolder {
	v, err := tx.AssociateVertex(uid)
	if gdi.Failed(err) || checkCoded(err) != nil {
		fatal(1, "AssociateVertex(%v): %v", uid, err)
	}
	return v
}

// find translates and associates (l, id).
func find(tx gdi.Transaction, l gdi.Label, id []byte) gdi.VertexHolder {
	uid, found, err := tx.TranslateVertexID(l, id)
	if gdi.Failed(err) || checkCoded(err) != nil {
		fatal(1, "TranslateVertexID(%v, %q): %v", l, id, err)
	}
	if !found {
		fatal(1, "TranslateVertexID(%v, %q): not found", l, id)
	}
	v, err := tx.AssociateVertex(uid)
	if gdi.Failed(err) || checkCoded(err) != nil {
		fatal(1, "AssociateVertex(%v): %v", uid, err)
	}
	return v
}

// exists reports whether (l, id) is found.
func exists(tx gdi.Transaction, l gdi.Label, id []byte) bool {
	_, found, err := tx.TranslateVertexID(l, id)
	if gdi.Failed(err) || checkCoded(err) != nil {
		fatal(1, "TranslateVertexID(%v, %q): %v", l, id, err)
	}
	return found
}

// idsOfVertices returns the sorted application-level IDs (as strings) of
// the vertices uids; a vertex without ID shows as "".
func idsOfVertices(tx gdi.Transaction, uids []gdi.VertexUID) []string {
	out := make([]string, 0, len(uids))
	for _, u := range uids {
		v, err := tx.AssociateVertex(u)
		if gdi.Failed(err) || checkCoded(err) != nil {
			fatal(1, "AssociateVertex(%v): %v", u, err)
		}
		vals, err := v.Properties(gdi.PropertyTypeID)
		if gdi.Failed(err) || checkCoded(err) != nil {
			fatal(1, "Properties(PropertyTypeID): %v", err)
		}
		s := ""
		if len(vals) == 1 {
			s = string(vals[0].Raw())
		} else if len(vals) > 1 {
			fatal(1, "vertex %v has %d IDs", u, len(vals))
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// edgeNames returns the sorted values of the Char property p of the edges
// uids ("" for an edge without one).
func edgeNames(tx gdi.Transaction, p gdi.PropertyType, uids []gdi.EdgeUID) []string {
	out := make([]string, 0, len(uids))
	for _, u := range uids {
		h, err := tx.AssociateEdge(u)
		if gdi.Failed(err) || checkCoded(err) != nil {
			fatal(1, "AssociateEdge(%v): %v", u, err)
		}
		vals, err := h.Properties(p)
		if gdi.Failed(err) || checkCoded(err) != nil {
			fatal(1, "edge Properties: %v", err)
		}
		s := ""
		if len(vals) > 0 {
			s = string(vals[0].Raw())
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// strs builds a sorted string slice.
func strs(s ...string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

// forRanks returns, sorted, "r<rank>/<s>" for every rank and every s.
func forRanks(size int, s ...string) []string {
	var out []string
	for r := 0; r < size; r++ {
		for _, x := range s {
			out = append(out, string(idOf(r, x)))
		}
	}
	sort.Strings(out)
	return out
}

// mine keeps the entries of ids that belong to the calling rank.
func (e *Env) mine(ids []string) []string {
	var out []string
	pre := fmt.Sprintf("r%d/", e.Rank())
	for _, s := range ids {
		if strings.HasPrefix(s, pre) {
			out = append(out, s)
		}
	}
	return out
}

// sameStrings fails unless got equals want (both sorted).
func sameStrings(got, want []string, what string, args ...any) {
	if !slices.Equal(got, want) {
		fatal(1, "%s: got %q, want %q", fmt.Sprintf(what, args...), got, want)
	}
}

// sameSet fails unless got and want hold the same elements, in any order,
// each as often.
func sameSet[T comparable](got, want []T, what string, args ...any) {
	if !sameMultiset(got, want) {
		fatal(1, "%s: got %v, want %v (in any order)", fmt.Sprintf(what, args...), got, want)
	}
}

func sameMultiset[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[T]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
		if m[x] < 0 {
			return false
		}
	}
	return true
}

// values reads the properties of type p of h.
func values(h gdi.Holder, p gdi.PropertyType) []gdi.Value {
	vs, err := h.Properties(p)
	if gdi.Failed(err) || checkCoded(err) != nil {
		fatal(1, "Properties(%v): %v", p, err)
	}
	return vs
}

// labelsOf reads the labels of h.
func labelsOf(h gdi.Holder) []gdi.Label {
	l, err := h.Labels()
	if gdi.Failed(err) || checkCoded(err) != nil {
		fatal(1, "Labels: %v", err)
	}
	return l
}

func vuid(v gdi.VertexHolder) gdi.VertexUID {
	u, err := v.UID()
	if gdi.Failed(err) || checkCoded(err) != nil {
		fatal(1, "VertexHolder.UID: %v", err)
	}
	return u
}

func euid(h gdi.EdgeHolder) gdi.EdgeUID {
	u, err := h.UID()
	if gdi.Failed(err) || checkCoded(err) != nil {
		fatal(1, "EdgeHolder.UID: %v", err)
	}
	return u
}

// edge creates an edge with a Char "name" property n (if n is not "").
func edge(tx gdi.Transaction, d gdi.DirectionType, a, b gdi.VertexHolder, name gdi.PropertyType, n string, labels ...gdi.Label) gdi.EdgeHolder {
	h, err := tx.CreateEdge(d, a, b)
	if gdi.Failed(err) || checkCoded(err) != nil {
		fatal(1, "CreateEdge: %v", err)
	}
	if n != "" {
		if err := h.AddProperty(name, gdi.Chars(n)); gdi.Failed(err) || checkCoded(err) != nil {
			fatal(1, "edge AddProperty: %v", err)
		}
	}
	for _, l := range labels {
		if err := h.AddLabel(l); gdi.Failed(err) || checkCoded(err) != nil {
			fatal(1, "edge AddLabel: %v", err)
		}
	}
	return h
}

// constraint builds a constraint from conjunctions of conditions.
func (e *Env) constraint(conj ...[]cond) gdi.Constraint {
	return buildConstraint(e.DB, conj...)
}

func buildConstraint(db gdi.Database, conj ...[]cond) gdi.Constraint {
	c, err := db.CreateConstraint()
	if gdi.Failed(err) || checkCoded(err) != nil {
		fatal(2, "CreateConstraint: %v", err)
	}
	for _, cs := range conj {
		s := buildSub(db, cs...)
		if err := c.AddSubconstraint(s); gdi.Failed(err) || checkCoded(err) != nil {
			fatal(2, "AddSubconstraint: %v", err)
		}
		if err := s.Free(); gdi.Failed(err) || checkCoded(err) != nil {
			fatal(2, "Subconstraint.Free: %v", err)
		}
	}
	return c
}

func buildSub(db gdi.Database, cs ...cond) gdi.Subconstraint {
	s, err := db.CreateSubconstraint()
	if gdi.Failed(err) || checkCoded(err) != nil {
		fatal(3, "CreateSubconstraint: %v", err)
	}
	for _, x := range cs {
		if x.isLabel {
			err = s.AddLabelCondition(x.l, x.op)
		} else {
			err = s.AddPropertyCondition(x.p, x.op, x.v)
		}
		if gdi.Failed(err) || checkCoded(err) != nil {
			fatal(3, "adding condition %+v: %v", x, err)
		}
	}
	return s
}

// cond is a label or property condition.
type cond struct {
	isLabel bool
	l       gdi.Label
	p       gdi.PropertyType
	op      gdi.Op
	v       gdi.Value
}

func hasL(l gdi.Label) cond                              { return cond{isLabel: true, l: l, op: gdi.Equal} }
func notL(l gdi.Label) cond                              { return cond{isLabel: true, l: l, op: gdi.NotEqual} }
func pc(p gdi.PropertyType, op gdi.Op, v gdi.Value) cond { return cond{p: p, op: op, v: v} }
func and(cs ...cond) []cond                              { return cs }

// quiet fails unless the rank has no open transactions (cases leave none
// behind before collective calls that need a quiet database).
func (e *Env) quiet() {
	txs, err := e.DB.Transactions()
	okf(err, "Transactions")
	if len(txs) != 0 {
		fatal(1, "%d transactions still open", len(txs))
	}
}
