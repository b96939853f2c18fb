package catalog

import (
	"fmt"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/invariants"
)

// Labels and property types: the rank's replica of the metadata. Every
// change is collective and goes through Agree, so all replicas take the
// same steps and hand out the same object numbers.

// labelHandle checks what label handle l says of itself. done reports
// that n and err are the whole answer: LabelNone (number 1, only if
// allowNone) or an error. Otherwise n is the label's number, and whether
// that label is live is the caller's to check (labelNumLocked against the
// replica, view.labelNum against the view).
func labelHandle(tag gdi.DatabaseTag, l gdi.Label, allowNone bool) (n uint32, done bool, err error) {
	switch {
	case l == gdi.LabelNone && allowNone:
		return uint32(gdi.LabelNone), true, nil
	case l == gdi.LabelNull, l.IsPredefined(), l.Tag() == 0:
		return 0, true, gdi.Errorf(gdi.ErrLabel, "%v cannot be used here", l)
	case l.Tag() != tag:
		return 0, true, gdi.Errorf(gdi.ErrObjectMismatch, "%v belongs to another database or rank", l)
	}
	return l.ID(), false, nil
}

func errUnknownLabel(l gdi.Label) error { return gdi.Errorf(gdi.ErrLabel, "%v is freed or unknown", l) }

// labelNumLocked checks a label handle and returns its object number.
// LabelNone is accepted (number 1) only if allowNone. The caller holds
// cat.mu.
func (cat *Catalog) labelNumLocked(l gdi.Label, allowNone bool) (uint32, error) {
	n, done, err := labelHandle(cat.tag, l, allowNone)
	if done {
		return n, err
	}
	if m := cat.labels[n]; m == nil || m.freed {
		return 0, errUnknownLabel(l)
	}
	return n, nil
}

func (cat *Catalog) LabelNum(l gdi.Label, allowNone bool) (uint32, error) {
	v := cat.view.Load()
	if v.freed {
		return 0, ErrFreedDB()
	}
	n, err := v.labelNum(cat.tag, l, allowNone)
	if invariants.Enabled {
		cat.mu.RLock()
		m, merr := cat.labelNumLocked(l, allowNone)
		if cat.freed {
			m, merr = n, err // freed since the view was read
		}
		cat.mu.RUnlock()
		cat.checkView(fmt.Sprintf("label %v", l), n, m, err, merr)
	}
	return n, err
}

// LabelHandle turns a stored label number into this rank's handle.
func (cat *Catalog) LabelHandle(n uint32) gdi.Label {
	if n < gdi.FirstUserID {
		return gdi.Label(n)
	}
	return gdi.MakeLabel(cat.tag, n)
}

// ptypeHandle checks what property type handle p says of itself. done
// reports that the rest is the whole answer: a predefined type or an
// error. Otherwise n is the type's number, and whether that type is live,
// and its description, are the caller's to find (see labelHandle).
func ptypeHandle(tag gdi.DatabaseTag, p gdi.PropertyType) (n uint32, info gdi.PropertyTypeInfo, done bool, err error) {
	if info, ok := gdi.PredefinedPropertyTypeInfo(p); ok {
		return uint32(p), info, true, nil
	}
	switch {
	case p == gdi.PropertyTypeNull, p.Tag() == 0:
		return 0, info, true, gdi.Errorf(gdi.ErrPropertyType, "%v cannot be used here", p)
	case p.Tag() != tag:
		return 0, info, true, gdi.Errorf(gdi.ErrObjectMismatch, "%v belongs to another database or rank", p)
	}
	return p.ID(), info, false, nil
}

func errUnknownPtype(p gdi.PropertyType) error {
	return gdi.Errorf(gdi.ErrPropertyType, "%v is freed or unknown", p)
}

// ptypeLocked checks a property type handle and returns its number and
// description. The predefined types are accepted. The caller holds cat.mu.
func (cat *Catalog) ptypeLocked(p gdi.PropertyType) (uint32, gdi.PropertyTypeInfo, error) {
	n, info, done, err := ptypeHandle(cat.tag, p)
	if done {
		return n, info, err
	}
	m := cat.ptypes[n]
	if m == nil || m.freed {
		return 0, gdi.PropertyTypeInfo{}, errUnknownPtype(p)
	}
	return n, m.info, nil
}

// PtypeNum checks a property type handle and returns its number and
// description, from the current view (no lock).
func (cat *Catalog) PtypeNum(p gdi.PropertyType) (uint32, gdi.PropertyTypeInfo, error) {
	v := cat.view.Load()
	if v.freed {
		return 0, gdi.PropertyTypeInfo{}, ErrFreedDB()
	}
	n, info, err := v.ptypeNum(cat.tag, p)
	if invariants.Enabled {
		cat.mu.RLock()
		m, minfo, merr := cat.ptypeLocked(p)
		if cat.freed {
			m, minfo, merr = n, info, err
		}
		cat.mu.RUnlock()
		cat.checkView(fmt.Sprintf("property type %v", p), []any{n, info}, []any{m, minfo}, err, merr)
	}
	return n, info, err
}

// PtypeHandle turns a stored property type number into this rank's handle.
func (cat *Catalog) PtypeHandle(n uint32) gdi.PropertyType {
	if n < gdi.FirstUserID {
		return gdi.PropertyType(n)
	}
	return gdi.MakePropertyType(cat.tag, n)
}

// KnownLabel and KnownPtype report whether a number found in graph data is
// known to this rank's replica. Unknown numbers come from metadata that
// has not reached the rank yet (eventual consistency).
func (cat *Catalog) KnownLabel(n uint32) bool {
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	return n < gdi.FirstUserID || cat.labels[n] != nil
}

func (cat *Catalog) KnownPtype(n uint32) bool {
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	return n < gdi.FirstUserID || cat.ptypes[n] != nil
}

// labelNameTakenLocked reports whether a label other than except has the
// name.
func (cat *Catalog) labelNameTakenLocked(name string, except uint32) bool {
	if name == gdi.LabelNoneName {
		return true
	}
	n, ok := cat.labelNames[name]
	return ok && n != except
}

func (cat *Catalog) ptypeNameTakenLocked(name string, except uint32) bool {
	for _, p := range gdi.PredefinedPropertyTypes() {
		if info, _ := gdi.PredefinedPropertyTypeInfo(p); info.Name == name {
			return true
		}
	}
	n, ok := cat.ptypeNames[name]
	return ok && n != except
}

// CreateLabel creates a label (collective).
func (cat *Catalog) CreateLabel(name string) (gdi.Label, error) {
	if cat.IsFreed() {
		return gdi.LabelNull, ErrFreedDB()
	}
	norm, local := gdi.NormalizeName(name)
	if local == nil {
		cat.mu.RLock()
		if cat.labelNameTakenLocked(norm, 0) {
			local = gdi.Errorf(gdi.ErrNameExists, "label %q exists", norm)
		}
		cat.mu.RUnlock()
	}
	if err := cat.Agree("CreateLabel "+norm, local); err != nil {
		return gdi.LabelNull, err
	}
	cat.mu.Lock()
	cat.lastLabel++
	n := cat.lastLabel
	cat.labels[n] = &labelMeta{name: norm}
	cat.labelNames[norm] = n
	cat.labelOrder = append(cat.labelOrder, n)
	cat.publishCreatedLocked(true)
	cat.mu.Unlock()
	return gdi.MakeLabel(cat.tag, n), cat.changed(cat.LabelDelta(n))
}

// UpdateLabel renames a label (collective).
func (cat *Catalog) UpdateLabel(l gdi.Label, name string) error {
	if cat.IsFreed() {
		return ErrFreedDB()
	}
	cat.mu.RLock()
	n, local := cat.labelNumLocked(l, false)
	norm, err := gdi.NormalizeName(name)
	if local == nil {
		local = err
	}
	if local == nil && cat.labelNameTakenLocked(norm, n) {
		local = gdi.Errorf(gdi.ErrNameExists, "label %q exists", norm)
	}
	cat.mu.RUnlock()
	if err := cat.Agree(fmt.Sprintf("UpdateLabel %d %s", l.ID(), norm), local); err != nil {
		return err
	}
	cat.mu.Lock()
	delete(cat.labelNames, cat.labels[n].name)
	cat.labels[n].name = norm
	cat.labelNames[norm] = n
	cat.mu.Unlock()
	return cat.changed(cat.LabelDelta(n))
}

// lookupName normalizes a name to look up. A name that normalizes to
// nothing is no error of a lookup (spec 5 and 6.3): no object has it, so
// it gives "" and the lookup finds nothing.
func lookupName(name string) (string, error) {
	norm, err := gdi.NormalizeName(name)
	if gdi.ErrorClass(err) == gdi.ErrEmptyName {
		return "", nil
	}
	return norm, err
}

// LabelFromName returns the label named name, or LabelNull.
func (cat *Catalog) LabelFromName(name string) (gdi.Label, error) {
	norm, err := lookupName(name)
	if err != nil || norm == "" {
		return gdi.LabelNull, err
	}
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if cat.freed {
		return gdi.LabelNull, ErrFreedDB()
	}
	if norm == gdi.LabelNoneName {
		return gdi.LabelNone, nil
	}
	if n, ok := cat.labelNames[norm]; ok {
		return gdi.MakeLabel(cat.tag, n), nil
	}
	return gdi.LabelNull, nil
}

// LabelName returns the name of l.
func (cat *Catalog) LabelName(l gdi.Label) (string, error) {
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if cat.freed {
		return "", ErrFreedDB()
	}
	n, err := cat.labelNumLocked(l, true)
	if err != nil {
		return "", err
	}
	if l == gdi.LabelNone {
		return gdi.LabelNoneName, nil
	}
	return cat.labels[n].name, nil
}

// Labels returns the labels in the order of creation.
func (cat *Catalog) Labels() ([]gdi.Label, error) {
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if cat.freed {
		return nil, ErrFreedDB()
	}
	var out []gdi.Label
	for _, n := range cat.labelOrder {
		if !cat.labels[n].freed {
			out = append(out, gdi.MakeLabel(cat.tag, n))
		}
	}
	return out, nil
}

// CreatePropertyType creates a property type (collective).
func (cat *Catalog) CreatePropertyType(info gdi.PropertyTypeInfo) (gdi.PropertyType, error) {
	if cat.IsFreed() {
		return gdi.PropertyTypeNull, ErrFreedDB()
	}
	norm, local := info.Validate()
	if local == nil {
		cat.mu.RLock()
		if cat.ptypeNameTakenLocked(norm.Name, 0) {
			local = gdi.Errorf(gdi.ErrNameExists, "property type %q exists", norm.Name)
		}
		cat.mu.RUnlock()
	}
	if err := cat.Agree(fmt.Sprintf("CreatePropertyType %+v", norm), local); err != nil {
		return gdi.PropertyTypeNull, err
	}
	cat.mu.Lock()
	cat.lastPtype++
	n := cat.lastPtype
	cat.ptypes[n] = &ptypeMeta{info: norm}
	cat.ptypeNames[norm.Name] = n
	cat.ptypeOrder = append(cat.ptypeOrder, n)
	cat.publishCreatedLocked(false)
	cat.mu.Unlock()
	return gdi.MakePropertyType(cat.tag, n), cat.changed(cat.PtypeDelta(n))
}

// PropertyTypeFromName returns the property type named name, or
// PropertyTypeNull.
func (cat *Catalog) PropertyTypeFromName(name string) (gdi.PropertyType, error) {
	norm, err := lookupName(name)
	if err != nil || norm == "" {
		return gdi.PropertyTypeNull, err
	}
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if cat.freed {
		return gdi.PropertyTypeNull, ErrFreedDB()
	}
	for _, p := range gdi.PredefinedPropertyTypes() {
		if info, _ := gdi.PredefinedPropertyTypeInfo(p); info.Name == norm {
			return p, nil
		}
	}
	if n, ok := cat.ptypeNames[norm]; ok {
		return gdi.MakePropertyType(cat.tag, n), nil
	}
	return gdi.PropertyTypeNull, nil
}

// PropertyTypeInfo describes p.
func (cat *Catalog) PropertyTypeInfo(p gdi.PropertyType) (gdi.PropertyTypeInfo, error) {
	_, info, err := cat.PtypeNum(p)
	if err != nil {
		return gdi.PropertyTypeInfo{}, err
	}
	return info, nil
}

// PropertyTypes returns the property types in the order of creation.
func (cat *Catalog) PropertyTypes() ([]gdi.PropertyType, error) {
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	if cat.freed {
		return nil, ErrFreedDB()
	}
	var out []gdi.PropertyType
	for _, n := range cat.ptypeOrder {
		if !cat.ptypes[n].freed {
			out = append(out, gdi.MakePropertyType(cat.tag, n))
		}
	}
	return out, nil
}

// ptypeNameTaken reports whether a property type other than except (or a
// predefined one) has the name.
func (cat *Catalog) ptypeNameTaken(name string, except uint32) bool {
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	return cat.ptypeNameTakenLocked(name, except)
}

// The replica's part of the gdi.MetadataRewriter methods, once the graph
// data is rewritten: freeLabelMeta and freePtypeMeta free label or
// property type n and remove it from every index of the rank;
// updatePtypeMeta gives property type n a new description, which makes
// the conditions on it stale.

func (cat *Catalog) freeLabelMeta(n uint32) {
	cat.mu.Lock()
	defer cat.mu.Unlock()
	cat.labels[n].freed = true
	delete(cat.labelNames, cat.labels[n].name)
	cat.forgetLabelLocked(n)
	cat.publishLocked()
}

func (cat *Catalog) freePtypeMeta(n uint32) {
	cat.mu.Lock()
	defer cat.mu.Unlock()
	cat.ptypes[n].freed = true
	delete(cat.ptypeNames, cat.ptypes[n].info.Name)
	cat.forgetPtypeLocked(n)
	cat.publishLocked()
}

func (cat *Catalog) updatePtypeMeta(n uint32, info gdi.PropertyTypeInfo) {
	cat.mu.Lock()
	defer cat.mu.Unlock()
	m := cat.ptypes[n]
	delete(cat.ptypeNames, m.info.Name)
	m.info = info
	cat.ptypeNames[info.Name] = n
	m.generation++
	cat.publishLocked()
}
