package gdirma

import (
	"fmt"

	"github.com/gdi-go/gdi/gdi"
)

// Labels and property types: the rank's replica of the metadata. Every
// change is collective and goes through agree, so all replicas take the
// same steps and hand out the same object numbers.

// labelNumLocked checks a label handle and returns its object number.
// LabelNone is accepted (number 1) only if allowNone. The caller holds
// db.mu.
func (db *Database) labelNumLocked(l gdi.Label, allowNone bool) (uint32, error) {
	switch {
	case l == gdi.LabelNone && allowNone:
		return uint32(gdi.LabelNone), nil
	case l == gdi.LabelNull, l.IsPredefined(), l.Tag() == 0:
		return 0, gdi.Errorf(gdi.ErrLabel, "%v cannot be used here", l)
	case l.Tag() != db.tag:
		return 0, gdi.Errorf(gdi.ErrObjectMismatch, "%v belongs to another database or rank", l)
	}
	if m := db.labels[l.ID()]; m == nil || m.freed {
		return 0, gdi.Errorf(gdi.ErrLabel, "%v is freed or unknown", l)
	}
	return l.ID(), nil
}

func (db *Database) labelNum(l gdi.Label, allowNone bool) (uint32, error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.freed {
		return 0, errFreedDB()
	}
	return db.labelNumLocked(l, allowNone)
}

// labelHandle turns a stored label number into this rank's handle.
func (db *Database) labelHandle(n uint32) gdi.Label {
	if n < gdi.FirstUserID {
		return gdi.Label(n)
	}
	return gdi.MakeLabel(db.tag, n)
}

// ptypeLocked checks a property type handle and returns its number and
// description. The predefined types are accepted. The caller holds db.mu.
func (db *Database) ptypeLocked(p gdi.PropertyType) (uint32, gdi.PropertyTypeInfo, error) {
	if info, ok := gdi.PredefinedPropertyTypeInfo(p); ok {
		return uint32(p), info, nil
	}
	switch {
	case p == gdi.PropertyTypeNull, p.Tag() == 0:
		return 0, gdi.PropertyTypeInfo{}, gdi.Errorf(gdi.ErrPropertyType, "%v cannot be used here", p)
	case p.Tag() != db.tag:
		return 0, gdi.PropertyTypeInfo{}, gdi.Errorf(gdi.ErrObjectMismatch, "%v belongs to another database or rank", p)
	}
	m := db.ptypes[p.ID()]
	if m == nil || m.freed {
		return 0, gdi.PropertyTypeInfo{}, gdi.Errorf(gdi.ErrPropertyType, "%v is freed or unknown", p)
	}
	return p.ID(), m.info, nil
}

func (db *Database) ptype(p gdi.PropertyType) (uint32, gdi.PropertyTypeInfo, error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.freed {
		return 0, gdi.PropertyTypeInfo{}, errFreedDB()
	}
	return db.ptypeLocked(p)
}

// ptypeHandle turns a stored property type number into this rank's handle.
func (db *Database) ptypeHandle(n uint32) gdi.PropertyType {
	if n < gdi.FirstUserID {
		return gdi.PropertyType(n)
	}
	return gdi.MakePropertyType(db.tag, n)
}

// knownLabel and knownPtype report whether a number found in graph data is
// known to this rank's replica. Unknown numbers come from metadata that
// has not reached the rank yet (eventual consistency).
func (db *Database) knownLabel(n uint32) bool {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return n < gdi.FirstUserID || db.labels[n] != nil
}

func (db *Database) knownPtype(n uint32) bool {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return n < gdi.FirstUserID || db.ptypes[n] != nil
}

// labelNameTakenLocked reports whether a label other than except has the
// name.
func (db *Database) labelNameTakenLocked(name string, except uint32) bool {
	if name == gdi.LabelNoneName {
		return true
	}
	for n, m := range db.labels {
		if !m.freed && n != except && m.name == name {
			return true
		}
	}
	return false
}

func (db *Database) ptypeNameTakenLocked(name string, except uint32) bool {
	for _, p := range gdi.PredefinedPropertyTypes() {
		if info, _ := gdi.PredefinedPropertyTypeInfo(p); info.Name == name {
			return true
		}
	}
	for n, m := range db.ptypes {
		if !m.freed && n != except && m.info.Name == name {
			return true
		}
	}
	return false
}

// CreateLabel creates a label (collective).
func (db *Database) CreateLabel(name string) (gdi.Label, error) {
	if db.isFreed() {
		return gdi.LabelNull, errFreedDB()
	}
	norm, local := gdi.NormalizeName(name)
	if local == nil {
		db.mu.RLock()
		if db.labelNameTakenLocked(norm, 0) {
			local = gdi.Errorf(gdi.ErrNameExists, "label %q exists", norm)
		}
		db.mu.RUnlock()
	}
	if err := db.agree("CreateLabel "+norm, local); err != nil {
		return gdi.LabelNull, err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	db.lastLabel++
	db.labels[db.lastLabel] = &labelMeta{name: norm}
	db.labelOrder = append(db.labelOrder, db.lastLabel)
	return gdi.MakeLabel(db.tag, db.lastLabel), nil
}

// UpdateLabel renames a label (collective).
func (db *Database) UpdateLabel(l gdi.Label, name string) error {
	if db.isFreed() {
		return errFreedDB()
	}
	db.mu.RLock()
	n, local := db.labelNumLocked(l, false)
	norm, err := gdi.NormalizeName(name)
	if local == nil {
		local = err
	}
	if local == nil && db.labelNameTakenLocked(norm, n) {
		local = gdi.Errorf(gdi.ErrNameExists, "label %q exists", norm)
	}
	db.mu.RUnlock()
	if err := db.agree(fmt.Sprintf("UpdateLabel %d %s", l.ID(), norm), local); err != nil {
		return err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	db.labels[n].name = norm
	return nil
}

// LabelFromName returns the label named name, or LabelNull.
func (db *Database) LabelFromName(name string) (gdi.Label, error) {
	norm, err := gdi.NormalizeName(name)
	if err != nil {
		return gdi.LabelNull, err
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.freed {
		return gdi.LabelNull, errFreedDB()
	}
	if norm == gdi.LabelNoneName {
		return gdi.LabelNone, nil
	}
	for _, n := range db.labelOrder {
		if m := db.labels[n]; !m.freed && m.name == norm {
			return gdi.MakeLabel(db.tag, n), nil
		}
	}
	return gdi.LabelNull, nil
}

// LabelName returns the name of l.
func (db *Database) LabelName(l gdi.Label) (string, error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.freed {
		return "", errFreedDB()
	}
	n, err := db.labelNumLocked(l, true)
	if err != nil {
		return "", err
	}
	if l == gdi.LabelNone {
		return gdi.LabelNoneName, nil
	}
	return db.labels[n].name, nil
}

// Labels returns the labels in the order of creation.
func (db *Database) Labels() ([]gdi.Label, error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.freed {
		return nil, errFreedDB()
	}
	var out []gdi.Label
	for _, n := range db.labelOrder {
		if !db.labels[n].freed {
			out = append(out, gdi.MakeLabel(db.tag, n))
		}
	}
	return out, nil
}

// CreatePropertyType creates a property type (collective).
func (db *Database) CreatePropertyType(info gdi.PropertyTypeInfo) (gdi.PropertyType, error) {
	if db.isFreed() {
		return gdi.PropertyTypeNull, errFreedDB()
	}
	norm, local := info.Validate()
	if local == nil {
		db.mu.RLock()
		if db.ptypeNameTakenLocked(norm.Name, 0) {
			local = gdi.Errorf(gdi.ErrNameExists, "property type %q exists", norm.Name)
		}
		db.mu.RUnlock()
	}
	if err := db.agree(fmt.Sprintf("CreatePropertyType %+v", norm), local); err != nil {
		return gdi.PropertyTypeNull, err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	db.lastPtype++
	db.ptypes[db.lastPtype] = &ptypeMeta{info: norm}
	db.ptypeOrder = append(db.ptypeOrder, db.lastPtype)
	return gdi.MakePropertyType(db.tag, db.lastPtype), nil
}

// PropertyTypeFromName returns the property type named name, or
// PropertyTypeNull.
func (db *Database) PropertyTypeFromName(name string) (gdi.PropertyType, error) {
	norm, err := gdi.NormalizeName(name)
	if err != nil {
		return gdi.PropertyTypeNull, err
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.freed {
		return gdi.PropertyTypeNull, errFreedDB()
	}
	for _, p := range gdi.PredefinedPropertyTypes() {
		if info, _ := gdi.PredefinedPropertyTypeInfo(p); info.Name == norm {
			return p, nil
		}
	}
	for _, n := range db.ptypeOrder {
		if m := db.ptypes[n]; !m.freed && m.info.Name == norm {
			return gdi.MakePropertyType(db.tag, n), nil
		}
	}
	return gdi.PropertyTypeNull, nil
}

// PropertyTypeInfo describes p.
func (db *Database) PropertyTypeInfo(p gdi.PropertyType) (gdi.PropertyTypeInfo, error) {
	_, info, err := db.ptype(p)
	if err != nil {
		return gdi.PropertyTypeInfo{}, err
	}
	return info, nil
}

// PropertyTypes returns the property types in the order of creation.
func (db *Database) PropertyTypes() ([]gdi.PropertyType, error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.freed {
		return nil, errFreedDB()
	}
	var out []gdi.PropertyType
	for _, n := range db.ptypeOrder {
		if !db.ptypes[n].freed {
			out = append(out, gdi.MakePropertyType(db.tag, n))
		}
	}
	return out, nil
}
