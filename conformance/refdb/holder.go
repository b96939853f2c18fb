package refdb

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/gdi-go/gdi/gdi"
)

// holder is what vertex and edge holders share: the transaction and the
// object they stand for. A holder is valid while its transaction is open
// and its object exists in the transaction's view; freeing the object
// through any holder invalidates every holder of it.
type holder struct {
	tx *Transaction
	k  kind
	n  uint64
}

// get returns the object as the transaction sees it, after checking that
// the holder may be used. The caller holds the transaction's mu.
func (h *holder) get(call string) (*record, error) {
	if h.tx.ended {
		return nil, gdi.Errorf(h.k.invalid(), "%s: the transaction of the %v holder has ended", call, h.k)
	}
	r, err := h.tx.read(h.k, h.n)
	if err == nil && r == nil {
		err = gdi.Errorf(h.k.invalid(), "%s: the %v was freed", call, h.k)
	}
	return r, err
}

// getForWrite is get for calls that change the object.
func (h *holder) getForWrite(call string) (*record, error) {
	r, err := h.get(call)
	if err != nil {
		return nil, err
	}
	return r, h.tx.writable(call)
}

// label and ptype check handle arguments against the rank's metadata.
func (h *holder) label(l gdi.Label) (uint32, error) {
	h.tx.db.mu.Lock()
	defer h.tx.db.mu.Unlock()
	return h.tx.db.labelNumber(l)
}

func (h *holder) ptype(p gdi.PropertyType) (uint32, gdi.PropertyTypeInfo, error) {
	h.tx.db.mu.Lock()
	defer h.tx.db.mu.Unlock()
	return h.tx.db.ptypeNumber(p)
}

// labelText names label n in messages: its name, quoted, or its number
// if the rank does not know it.
func (h *holder) labelText(n uint32) string {
	h.tx.db.mu.Lock()
	defer h.tx.db.mu.Unlock()
	if name, ok := h.tx.db.cat.labels[n]; ok {
		return strconv.Quote(name)
	}
	return fmt.Sprintf("number %d", n)
}

// AddLabel adds l, unless another object of the kind has l and the same
// application-level ID (ErrNonUniqueID).
func (h *holder) AddLabel(l gdi.Label) error {
	h.tx.mu.Lock()
	defer h.tx.mu.Unlock()
	r, err := h.getForWrite("AddLabel")
	if err != nil {
		return err
	}
	n, err := h.label(l)
	if err != nil || n == noLabel || r.hasLabel(n) {
		return err
	}
	if id, ok := r.appID(); ok {
		if err := h.idFree([]uint32{n}, id); err != nil {
			return err
		}
	}
	w := h.tx.write(h.k, h.n)
	w.labels = append(w.labels, n)
	return nil
}

// idFree returns ErrNonUniqueID if another object of the kind has one of
// the labels ls and the application-level ID id.
func (h *holder) idFree(ls []uint32, id string) error {
	for _, l := range ls {
		others, err := h.tx.withID(h.k, l, id)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(others, func(n uint64) bool { return n != h.n }) {
			return gdi.Errorf(gdi.ErrNonUniqueID, "another %v has label %s and ID %q", h.k, h.labelText(l), id)
		}
	}
	return nil
}

// RemoveLabel removes l. If the object is left without labels and another
// object without labels has its ID, it warns with WarnNonUniqueID.
func (h *holder) RemoveLabel(l gdi.Label) error {
	h.tx.mu.Lock()
	defer h.tx.mu.Unlock()
	r, err := h.getForWrite("RemoveLabel")
	if err != nil {
		return err
	}
	n, err := h.label(l)
	if err != nil || n == noLabel || !r.hasLabel(n) {
		return err
	}
	w := h.tx.write(h.k, h.n)
	w.labels = slices.DeleteFunc(w.labels, func(x uint32) bool { return x == n })
	id, ok := w.appID()
	if len(w.labels) > 0 || !ok {
		return nil
	}
	same, err := h.tx.withID(h.k, noLabel, id)
	if err == nil && len(same) > 1 {
		err = gdi.Errorf(gdi.WarnNonUniqueID, "%d %vs without labels have the ID %q", len(same), h.k, id)
	}
	return err
}

// Labels returns the labels of the object.
func (h *holder) Labels() ([]gdi.Label, error) {
	h.tx.mu.Lock()
	defer h.tx.mu.Unlock()
	r, err := h.get("Labels")
	if err != nil {
		return nil, err
	}
	db := h.tx.db
	db.mu.Lock()
	defer db.mu.Unlock()
	out := make([]gdi.Label, len(r.labels))
	for i, n := range r.labels {
		if !db.cat.hasLabel(n) {
			return nil, h.tx.fail("Labels: label %d is not known on this rank yet", n)
		}
		out[i] = db.labelHandle(n)
	}
	return out, nil
}
