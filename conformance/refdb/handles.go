package refdb

import "github.com/gdi-go/gdi/gdi"

// Labels and property types are stored by object number; handles add the
// rank's DatabaseTag. The functions below turn one into the other and
// check handles as every call that takes one must. The callers hold mu.

func (db *Database) labelHandle(n uint32) gdi.Label {
	if n < gdi.FirstUserID {
		return gdi.Label(n)
	}
	return gdi.MakeLabel(db.tag, n)
}

func (db *Database) ptypeHandle(n uint32) gdi.PropertyType {
	if n < gdi.FirstUserID {
		return gdi.PropertyType(n)
	}
	return gdi.MakePropertyType(db.tag, n)
}

// labelNumber returns the object number of l: ErrLabel for the null label
// and for labels the rank does not know (freed, or never made),
// ErrObjectMismatch for a label of another database or rank. LabelNone is
// valid.
func (db *Database) labelNumber(l gdi.Label) (uint32, error) {
	switch {
	case l == gdi.LabelNull:
		return 0, gdi.Errorf(gdi.ErrLabel, "the null label")
	case l.IsPredefined():
		return l.ID(), nil
	case l.Tag() == 0:
		return 0, gdi.Errorf(gdi.ErrLabel, "%v is no label", l)
	case l.Tag() != db.tag:
		return 0, gdi.Errorf(gdi.ErrObjectMismatch, "%v belongs to another database or rank", l)
	case !db.cat.hasLabel(l.ID()):
		return 0, gdi.Errorf(gdi.ErrLabel, "%v was freed or is unknown on this rank", l)
	}
	return l.ID(), nil
}

// userLabel is labelNumber for calls that take no predefined label.
func (db *Database) userLabel(l gdi.Label) (uint32, error) {
	if l.IsPredefined() {
		return 0, gdi.Errorf(gdi.ErrLabel, "%v is predefined", l)
	}
	return db.labelNumber(l)
}

// ptypeNumber returns the object number and description of p, with the
// errors of labelNumber (ErrPropertyType in place of ErrLabel). The
// predefined property types are valid.
func (db *Database) ptypeNumber(p gdi.PropertyType) (uint32, gdi.PropertyTypeInfo, error) {
	var none gdi.PropertyTypeInfo
	switch {
	case p == gdi.PropertyTypeNull:
		return 0, none, gdi.Errorf(gdi.ErrPropertyType, "the null property type")
	case p.Tag() == 0 && !p.IsPredefined():
		return 0, none, gdi.Errorf(gdi.ErrPropertyType, "%v is no property type", p)
	case p.Tag() != 0 && p.Tag() != db.tag:
		return 0, none, gdi.Errorf(gdi.ErrObjectMismatch, "%v belongs to another database or rank", p)
	}
	info, ok := db.cat.ptypeInfo(p.ID())
	if !ok {
		return 0, none, gdi.Errorf(gdi.ErrPropertyType, "%v was freed or is unknown on this rank", p)
	}
	return p.ID(), info, nil
}

// userPtype is ptypeNumber for calls that take no predefined property
// type.
func (db *Database) userPtype(p gdi.PropertyType) (uint32, gdi.PropertyTypeInfo, error) {
	if p.IsPredefined() {
		return 0, gdi.PropertyTypeInfo{}, gdi.Errorf(gdi.ErrPropertyType, "%v is predefined", p)
	}
	return db.ptypeNumber(p)
}
