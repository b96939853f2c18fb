package refdb

import "github.com/gdi-go/gdi/gdi"

// The property methods that replace values.

// UpdateProperty replaces the value of the property of single-entity type
// p.
func (h *holder) UpdateProperty(p gdi.PropertyType, v gdi.Value) error {
	h.tx.mu.Lock()
	defer h.tx.mu.Unlock()
	r, n, info, err := h.beginSingle("UpdateProperty", p)
	if err != nil {
		return err
	}
	if err := info.CheckValue(v); err != nil {
		return err
	}
	old := r.values(n)
	switch {
	case len(old) == 0:
		return gdi.Errorf(gdi.ErrNoProperty, "the %v has no property of type %q", h.k, info.Name)
	case old[0] == v:
		return nil
	}
	if err := h.checkID(n, r, v); err != nil {
		return err
	}
	h.replace(n, old[0], v)
	return nil
}

// beginSingle is beginWrite for the calls that take single-entity types
// only (ErrWrongType).
func (h *holder) beginSingle(call string, p gdi.PropertyType) (*record, uint32, gdi.PropertyTypeInfo, error) {
	r, n, info, err := h.beginWrite(call, p)
	if err == nil && info.Entity != gdi.SingleEntity {
		err = gdi.Errorf(gdi.ErrWrongType, "%s takes a single-entity property type, not %q", call, info.Name)
	}
	return r, n, info, err
}

// UpdateSpecificProperty replaces the pair (p, old) with (p, v).
func (h *holder) UpdateSpecificProperty(p gdi.PropertyType, old, v gdi.Value) error {
	h.tx.mu.Lock()
	defer h.tx.mu.Unlock()
	r, n, info, err := h.beginWrite("UpdateSpecificProperty", p)
	if err != nil {
		return err
	}
	if err := sameDatatype(info, old); err != nil {
		return err
	}
	if err := info.CheckValue(v); err != nil {
		return err
	}
	switch {
	case !r.hasProperty(n, old):
		return gdi.Errorf(gdi.ErrNoProperty, "the %v has no property (%q, %v)", h.k, info.Name, old)
	case r.hasProperty(n, v):
		return gdi.Errorf(gdi.ErrPropertyExists, "the %v has the property (%q, %v)", h.k, info.Name, v)
	}
	if err := h.checkID(n, r, v); err != nil {
		return err
	}
	h.replace(n, old, v)
	return nil
}

// SetProperty sets the property of single-entity type p to v, adding it
// if the object has none.
func (h *holder) SetProperty(p gdi.PropertyType, v gdi.Value) error {
	h.tx.mu.Lock()
	defer h.tx.mu.Unlock()
	r, n, info, err := h.beginSingle("SetProperty", p)
	if err != nil {
		return err
	}
	if err := info.CheckValue(v); err != nil || r.hasProperty(n, v) {
		return err
	}
	if err := h.checkID(n, r, v); err != nil {
		return err
	}
	w := h.tx.write(h.k, h.n)
	w.removeProperties(n)
	w.props = append(w.props, property{n, v})
	return nil
}
