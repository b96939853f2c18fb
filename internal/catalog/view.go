package catalog

import (
	"fmt"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/invariants"
)

// view is the part of the replica that every transaction operation asks
// for: whether the database is freed, which labels are live and what the
// live property types are. It is immutable: every change of the metadata
// publishes a new view (publishLocked), and the hot lookups (IsFreed,
// LabelNum, PtypeNum) read the current one with one atomic load instead
// of taking cat.mu. Metadata changes are collective and rare; lookups are
// several per operation.
type view struct {
	freed bool
	// labels and ptypes are indexed by number less gdi.FirstUserID:
	// numbers are handed out in turn, so they are dense, and a slice
	// index costs less than a map lookup. A freed number is false, or
	// has live false.
	labels []bool
	ptypes []viewPtype
}

type viewPtype struct {
	info gdi.PropertyTypeInfo
	live bool
}

// publishLocked makes the metadata as it now is the current view. The
// caller holds cat.mu for writing and calls it after every change of
// freed, a label's or a property type's existence, or a description.
func (cat *Catalog) publishLocked() {
	v := &view{freed: cat.freed}
	for n, m := range cat.labels {
		if !m.freed && n >= gdi.FirstUserID {
			i := int(n - gdi.FirstUserID)
			v.labels = reaching(v.labels, i)
			v.labels[i] = true
		}
	}
	for n, m := range cat.ptypes {
		if !m.freed && n >= gdi.FirstUserID {
			i := int(n - gdi.FirstUserID)
			v.ptypes = reaching(v.ptypes, i)
			v.ptypes[i] = viewPtype{info: m.info, live: true}
		}
	}
	cat.view.Store(v)
}

// publishCreatedLocked is publishLocked after the creation of the label
// (if label) or else property type with the last number, at a cost that
// does not grow
// with the metadata: the new view shares the arrays of the old one, of
// which it only writes past the old one's length (views are only ever
// grown from the current one, under cat.mu).
func (cat *Catalog) publishCreatedLocked(label bool) {
	old := cat.view.Load()
	if old == nil || old.freed {
		cat.publishLocked()
		return
	}
	v := &view{labels: old.labels, ptypes: old.ptypes}
	if label {
		i := int(cat.lastLabel - gdi.FirstUserID)
		v.labels = reaching(v.labels, i)
		v.labels[i] = true
	} else {
		i := int(cat.lastPtype - gdi.FirstUserID)
		v.ptypes = reaching(v.ptypes, i)
		v.ptypes[i] = viewPtype{info: cat.ptypes[cat.lastPtype].info, live: true}
	}
	cat.view.Store(v)
}

// reaching returns s lengthened with zero values, if need be, to have an
// index i.
func reaching[T any](s []T, i int) []T {
	if i >= len(s) {
		s = append(s, make([]T, i+1-len(s))...)
	}
	return s
}

// labelNum is labelNumLocked on the view.
func (v *view) labelNum(tag gdi.DatabaseTag, l gdi.Label, allowNone bool) (uint32, error) {
	n, done, err := labelHandle(tag, l, allowNone)
	if done {
		return n, err
	}
	if i := n - gdi.FirstUserID; n < gdi.FirstUserID || int(i) >= len(v.labels) || !v.labels[i] {
		return 0, errUnknownLabel(l)
	}
	return n, nil
}

// ptypeNum is ptypeLocked on the view.
func (v *view) ptypeNum(tag gdi.DatabaseTag, p gdi.PropertyType) (uint32, gdi.PropertyTypeInfo, error) {
	n, info, done, err := ptypeHandle(tag, p)
	if done {
		return n, info, err
	}
	i := n - gdi.FirstUserID
	if n < gdi.FirstUserID || int(i) >= len(v.ptypes) || !v.ptypes[i].live {
		return 0, gdi.PropertyTypeInfo{}, errUnknownPtype(p)
	}
	return n, v.ptypes[i].info, nil
}

// checkView, with invariants on, panics if an answer from the view differs
// from the same lookup under the lock: a change that did not publish.
func (cat *Catalog) checkView(what string, got, want any, gotErr, wantErr error) {
	if !invariants.Enabled {
		return
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || gdi.ErrorClass(gotErr) != gdi.ErrorClass(wantErr) {
		panic(fmt.Sprintf("catalog: %s: the view says %v (%v), the replica %v (%v)", what, got, gotErr, want, wantErr))
	}
}
