package graph

import (
	"fmt"
	"strings"

	"github.com/gdi-go/gdi/gdi"
)

// MaxKey bounds the length of a property key in bytes, so that the names
// of its family's members fit in a GDI name (gdi.MaxObjectName).
const MaxKey = gdi.MaxObjectName - 1 - len("#Composite")

// A Family is the property types of one property key.
type Family struct {
	Key string
	// Write is, for each kind, the property type its values are written
	// to; PropertyTypeNull where the catalog has none yet (Schema.Ensure
	// makes them).
	Write [numKinds]gdi.PropertyType
	// Members are the family's property types, each with the kind of the
	// values it holds, the plain one (named key) first.
	Members []Member
}

// A Member is a property type of a family.
type Member struct {
	Type     gdi.PropertyType
	Kind     Kind
	Datatype gdi.Datatype
}

// Schema finds the labels and the families of property keys of a
// database by name, and makes those that are missing. It keeps what it
// found; the catalog changes only through collective calls, which Ensure
// is the engine's one path to. A Schema belongs to one rank and one
// goroutine at a time.
type Schema struct {
	db       gdi.Database
	labels   map[string]gdi.Label
	families map[string]*Family
}

// NewSchema returns the schema of db.
func NewSchema(db gdi.Database) *Schema {
	return &Schema{db: db, labels: make(map[string]gdi.Label), families: make(map[string]*Family)}
}

// Label returns the label named name, or LabelNull if the database has
// none (a pattern with it matches nothing).
func (s *Schema) Label(name string) (gdi.Label, error) {
	if l, ok := s.labels[name]; ok {
		return l, nil
	}
	l, err := s.db.LabelFromName(name)
	if err == nil && l != gdi.LabelNull {
		s.labels[name] = l
	}
	return l, err
}

// IDKey is the property key of the application-level ID of a vertex
// (gdi.PropertyTypeID), by its GDI name. Its family is that predefined
// property type alone, read as a String; the engine does not write it.
var IDKey = gdi.PropertyTypeID.String()

// Family returns the family of key as the catalog has it. The Family
// stays key's for the life of the Schema: when Ensure adds members, it
// updates the Family in place, so a plan may keep it.
func (s *Schema) Family(key string) (*Family, error) {
	if f, ok := s.families[key]; ok {
		return f, nil
	}
	if err := checkKey(key); err != nil {
		return nil, err
	}
	f, err := s.resolve(key)
	if err != nil {
		return nil, err
	}
	s.families[key] = f
	return f, nil
}

// checkKey refuses a key whose family's names would be ambiguous or too
// long.
func checkKey(key string) error {
	switch {
	case strings.Contains(key, "#"):
		return gdi.Errorf(gdi.ErrArgument, "property key %q: keys with # are not supported (the engine names a key's property types key#Kind)", key)
	case len(key) > MaxKey:
		return gdi.Errorf(gdi.ErrArgument, "property key %.20q…: longer than %d bytes", key, MaxKey)
	case key == "":
		return gdi.Errorf(gdi.ErrEmptyName, "empty property key")
	}
	return nil
}

// resolve reads the family of key from the catalog.
func (s *Schema) resolve(key string) (*Family, error) {
	f := &Family{Key: key}
	if key == IDKey {
		f.Members = []Member{{gdi.PropertyTypeID, String, gdi.Byte}}
		return f, nil // nothing is written to it
	}
	plain, err := s.member(key)
	if err != nil {
		return nil, err
	}
	if plain.Type != gdi.PropertyTypeNull {
		for _, k := range Kinds {
			if k.reads(plain.Datatype) {
				f.Members = append(f.Members, Member{plain.Type, k, plain.Datatype})
				if plain.Datatype == k.Datatype() {
					f.Write[k] = plain.Type
				}
			}
		}
	}
	for _, k := range Kinds {
		m, err := s.member(memberName(key, k))
		if err != nil {
			return nil, err
		}
		if m.Type == gdi.PropertyTypeNull {
			continue
		}
		if m.Datatype != k.Datatype() {
			return nil, gdi.Errorf(gdi.ErrPropertyType, "property type %q is %v, not %v as the engine names it", memberName(key, k), m.Datatype, k.Datatype())
		}
		m.Kind = k
		f.Members = append(f.Members, m)
		if f.Write[k] == gdi.PropertyTypeNull {
			f.Write[k] = m.Type
		}
	}
	return f, nil
}

// member returns the single-entity property type named name with its
// datatype, or a null Type if there is none (or it is multiple entity,
// which no Cypher property is).
func (s *Schema) member(name string) (Member, error) {
	p, err := s.db.PropertyTypeFromName(name)
	if err != nil || p == gdi.PropertyTypeNull {
		return Member{}, err
	}
	info, err := s.db.PropertyTypeInfo(p)
	if err != nil || info.Entity != gdi.SingleEntity {
		return Member{}, err
	}
	return Member{Type: p, Datatype: info.Datatype}, nil
}

// Ensure makes the labels and, for each key, the property types of every
// kind that its family lacks. It is collective: every rank calls it with
// the same names in the same order, and the catalog, which is the same on
// every rank, decides alike what is made. Names already there cost a
// lookup each.
func (s *Schema) Ensure(labels, keys []string) error {
	for _, k := range keys {
		if err := checkKey(k); err != nil {
			return err // before anything is made, on every rank alike
		}
	}
	for _, name := range labels {
		if err := s.ensureLabel(name); err != nil {
			return err
		}
	}
	for _, key := range keys {
		if err := s.ensureFamily(key); err != nil {
			return fmt.Errorf("property key %q: %w", key, err)
		}
	}
	return nil
}

func (s *Schema) ensureLabel(name string) error {
	if l, err := s.Label(name); err != nil || l != gdi.LabelNull {
		return err
	}
	l, err := s.db.CreateLabel(name)
	if err == nil {
		s.labels[name] = l
	}
	return err
}

func (s *Schema) ensureFamily(key string) error {
	f, err := s.Family(key)
	if err != nil || key == IDKey {
		return err
	}
	made := false
	for _, k := range Kinds {
		if f.Write[k] != gdi.PropertyTypeNull {
			continue
		}
		info := gdi.PropertyTypeInfo{Name: memberName(key, k), Entity: gdi.SingleEntity, Datatype: k.Datatype(), Size: gdi.NoSizeLimit}
		if _, err := s.db.CreatePropertyType(info); err != nil {
			return err
		}
		made = true
	}
	if made {
		fresh, err := s.resolve(key)
		if err != nil {
			return err
		}
		*f = *fresh
	}
	return nil
}
