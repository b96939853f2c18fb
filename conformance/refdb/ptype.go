package refdb

import (
	"fmt"

	"github.com/gdi-go/gdi/gdi"
)

// CreatePropertyType creates a property type (collective).
func (db *Database) CreatePropertyType(info gdi.PropertyTypeInfo) (gdi.PropertyType, error) {
	var norm gdi.PropertyTypeInfo
	var n uint32
	err := db.collective(fmt.Sprintf("CreatePropertyType(%+v)", info), func() (err error) {
		if norm, err = info.Validate(); err != nil {
			return err
		}
		if _, taken := db.cat.ptypeByName(norm.Name); taken {
			return gdi.Errorf(gdi.ErrNameExists, "a property type is named %q", norm.Name)
		}
		return nil
	}, func() { n = db.cat.addPtype(norm) })
	if err != nil {
		return gdi.PropertyTypeNull, err
	}
	return db.ptypeHandle(n), nil
}

// PropertyTypeFromName returns the property type named name, or
// PropertyTypeNull.
func (db *Database) PropertyTypeFromName(name string) (gdi.PropertyType, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := db.alive("PropertyTypeFromName"); err != nil {
		return gdi.PropertyTypeNull, err
	}
	norm, err := gdi.NormalizeName(name)
	if err != nil {
		return gdi.PropertyTypeNull, ignoreEmptyName(err)
	}
	if n, ok := db.cat.ptypeByName(norm); ok {
		return db.ptypeHandle(n), nil
	}
	return gdi.PropertyTypeNull, nil
}

// PropertyTypeInfo returns the description of p.
func (db *Database) PropertyTypeInfo(p gdi.PropertyType) (gdi.PropertyTypeInfo, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := db.alive("PropertyTypeInfo"); err != nil {
		return gdi.PropertyTypeInfo{}, err
	}
	_, info, err := db.ptypeNumber(p)
	return info, err
}

// PropertyTypes returns the property types of the database in the order of
// creation.
func (db *Database) PropertyTypes() ([]gdi.PropertyType, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := db.alive("PropertyTypes"); err != nil {
		return nil, err
	}
	out := make([]gdi.PropertyType, len(db.cat.ptypeOrder))
	for i, n := range db.cat.ptypeOrder {
		out[i] = db.ptypeHandle(n)
	}
	return out, nil
}
