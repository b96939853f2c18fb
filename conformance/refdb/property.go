package refdb

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// The property methods of holders. A (property type, value) pair occurs
// at most once on an object, a single-entity type at most once, and an
// application-level ID (PropertyTypeID) is unique among the objects of the
// kind that share a label.

// writablePtype checks a property type argument of a call that writes
// properties: the degree types are read-only.
func (h *holder) writablePtype(p gdi.PropertyType) (uint32, gdi.PropertyTypeInfo, error) {
	n, info, err := h.ptype(p)
	if err == nil && p.IsReadOnly() {
		err = gdi.Errorf(gdi.ErrReadOnlyPropertyType, "%v is maintained by the library", p)
	}
	return n, info, err
}

// checkID refuses a new application-level ID v that another object with
// one of the labels of r already has.
func (h *holder) checkID(p uint32, r *record, v gdi.Value) error {
	if p != gdi.PropertyTypeID.ID() {
		return nil
	}
	return h.idFree(r.labels, v.RawString())
}

// AddProperty adds the property (p, v); an existing equal pair is left as
// it is.
func (h *holder) AddProperty(p gdi.PropertyType, v gdi.Value) error {
	h.tx.mu.Lock()
	defer h.tx.mu.Unlock()
	r, n, info, err := h.beginWrite("AddProperty", p)
	if err != nil {
		return err
	}
	if err := info.CheckValue(v); err != nil || r.hasProperty(n, v) {
		return err
	}
	if info.Entity == gdi.SingleEntity && len(r.values(n)) > 0 {
		return gdi.Errorf(gdi.ErrPropertyTypeExists, "the %v has a property of single-entity type %q", h.k, info.Name)
	}
	if err := h.checkID(n, r, v); err != nil {
		return err
	}
	w := h.tx.write(h.k, h.n)
	w.props = append(w.props, property{n, v})
	return nil
}

// beginWrite starts a call that writes properties of type p.
func (h *holder) beginWrite(call string, p gdi.PropertyType) (*record, uint32, gdi.PropertyTypeInfo, error) {
	r, err := h.getForWrite(call)
	if err != nil {
		return nil, 0, gdi.PropertyTypeInfo{}, err
	}
	n, info, err := h.writablePtype(p)
	return r, n, info, err
}

// PropertyTypes returns the property types of the object (not the degree
// types).
func (h *holder) PropertyTypes() ([]gdi.PropertyType, error) {
	h.tx.mu.Lock()
	defer h.tx.mu.Unlock()
	r, err := h.get("PropertyTypes")
	if err != nil {
		return nil, err
	}
	db := h.tx.db
	db.mu.Lock()
	defer db.mu.Unlock()
	var out []gdi.PropertyType
	for _, n := range r.ptypes() {
		if _, ok := db.cat.ptypeInfo(n); !ok {
			return nil, h.tx.fail("PropertyTypes: property type %d is not known on this rank yet", n)
		}
		out = append(out, db.ptypeHandle(n))
	}
	return out, nil
}

// Properties returns the values of the properties of type p; for the
// degree types of a vertex, the count.
func (h *holder) Properties(p gdi.PropertyType) ([]gdi.Value, error) {
	h.tx.mu.Lock()
	defer h.tx.mu.Unlock()
	r, err := h.get("Properties")
	if err != nil {
		return nil, err
	}
	n, _, err := h.ptype(p)
	if err != nil || !p.IsReadOnly() {
		return r.values(n), err
	}
	if h.k == edgeKind {
		return nil, gdi.Errorf(gdi.ErrWrongType, "%v is a property of vertices only", p)
	}
	d, err := degreesOf(h.n, r, func(e uint64) (*record, error) { return h.tx.follow(edgeKind, e) })
	if err != nil {
		return nil, err
	}
	return []gdi.Value{gdi.Uint64s(d[p-gdi.PropertyTypeDegree])}, nil
}

// RemoveProperties removes every property of type p.
func (h *holder) RemoveProperties(p gdi.PropertyType) error {
	h.tx.mu.Lock()
	defer h.tx.mu.Unlock()
	r, n, _, err := h.beginWrite("RemoveProperties", p)
	if err != nil || len(r.values(n)) == 0 {
		return err
	}
	h.tx.write(h.k, h.n).removeProperties(n)
	return nil
}

// RemoveProperty removes the pair (p, v) if the object has it. v must be
// of p's datatype.
func (h *holder) RemoveProperty(p gdi.PropertyType, v gdi.Value) error {
	h.tx.mu.Lock()
	defer h.tx.mu.Unlock()
	r, n, info, err := h.beginWrite("RemoveProperty", p)
	if err == nil {
		err = sameDatatype(info, v)
	}
	if err != nil || !r.hasProperty(n, v) {
		return err
	}
	h.tx.write(h.k, h.n).removeProperty(n, v)
	return nil
}

// replace changes the value of the pair (n, old) to v.
func (h *holder) replace(n uint32, old, v gdi.Value) {
	w := h.tx.write(h.k, h.n)
	i := slices.Index(w.props, property{n, old})
	w.props[i].value = v
}

// sameDatatype returns ErrDatatype unless v is of the datatype of info: a
// value to look for, which need not be within the size limit.
func sameDatatype(info gdi.PropertyTypeInfo, v gdi.Value) error {
	if v.Datatype() != info.Datatype {
		return gdi.Errorf(gdi.ErrDatatype, "a value of %v for property type %q of %v", v.Datatype(), info.Name, info.Datatype)
	}
	return nil
}
