package refdb

import (
	"fmt"

	"github.com/gdi-go/gdi/gdi"
)

// CreateLabel creates a label (collective).
func (db *Database) CreateLabel(name string) (gdi.Label, error) {
	var norm string
	var n uint32
	err := db.collective(fmt.Sprintf("CreateLabel(%q)", name), func() (err error) {
		if norm, err = gdi.NormalizeName(name); err != nil {
			return err
		}
		if _, taken := db.cat.labelByName(norm); taken {
			return gdi.Errorf(gdi.ErrNameExists, "a label is named %q", norm)
		}
		return nil
	}, func() { n = db.cat.addLabel(norm) })
	if err != nil {
		return gdi.LabelNull, err
	}
	return db.labelHandle(n), nil
}

// UpdateLabel renames l (collective).
func (db *Database) UpdateLabel(l gdi.Label, name string) error {
	var n uint32
	var norm string
	return db.collective(fmt.Sprintf("UpdateLabel(%d, %q)", l.ID(), name), func() (err error) {
		if n, err = db.userLabel(l); err != nil {
			return err
		}
		if norm, err = gdi.NormalizeName(name); err != nil {
			return err
		}
		if other, taken := db.cat.labelByName(norm); taken && other != n {
			return gdi.Errorf(gdi.ErrNameExists, "another label is named %q", norm)
		}
		return nil
	}, func() { db.cat.labels[n] = norm })
}

// LabelFromName returns the label named name, or LabelNull.
func (db *Database) LabelFromName(name string) (gdi.Label, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := db.alive("LabelFromName"); err != nil {
		return gdi.LabelNull, err
	}
	norm, err := gdi.NormalizeName(name)
	if err != nil {
		return gdi.LabelNull, ignoreEmptyName(err)
	}
	if n, ok := db.cat.labelByName(norm); ok {
		return db.labelHandle(n), nil
	}
	return gdi.LabelNull, nil
}

// ignoreEmptyName drops ErrEmptyName: an empty name names nothing, which
// a lookup reports as the null handle.
func ignoreEmptyName(err error) error {
	if gdi.ErrorClass(err) == gdi.ErrEmptyName {
		return nil
	}
	return err
}

// LabelName returns the name of l ("" on error).
func (db *Database) LabelName(l gdi.Label) (string, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := db.alive("LabelName"); err != nil {
		return "", err
	}
	n, err := db.labelNumber(l)
	if err != nil {
		return "", err
	}
	if n == noLabel {
		return gdi.LabelNoneName, nil
	}
	return db.cat.labels[n], nil
}

// Labels returns the labels of the database in the order of creation.
func (db *Database) Labels() ([]gdi.Label, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := db.alive("Labels"); err != nil {
		return nil, err
	}
	out := make([]gdi.Label, len(db.cat.labelOrder))
	for i, n := range db.cat.labelOrder {
		out[i] = db.labelHandle(n)
	}
	return out, nil
}
