package gdirma

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
)

// base is what vertex and edge holders share: the transaction, the kind
// and number of the object, and the labels and properties methods
// (gdi.Holder). Every method works on the transaction's copy.
type base struct {
	tx    *Transaction
	num   layout.Number
	kind  kind
	freed bool
}

// obj returns the transaction's copy of the object, or the holder's
// "invalid argument" code if the holder was freed, its object deleted, or
// its transaction ended. The caller holds tx.mu.
func (b *base) obj() (*txObj, error) {
	if !b.tx.open || b.freed {
		return nil, gdi.Errorf(b.kind.InvalidCode(), "%v holder freed or its transaction ended", b.kind)
	}
	o := b.tx.objs[b.kind].get(b.num)
	if o == nil && b.kind == edgeKind && b.tx.transient(b.num) {
		o, _ = b.tx.get(edgeKind, b.num)
	}
	if o == nil || o.deleted {
		return nil, gdi.Errorf(b.kind.InvalidCode(), "%v deleted in this transaction", b.kind)
	}
	return o, nil
}

// writeObj is obj for writes: it also rejects writes in a collective read
// transaction. The caller marks the copy dirty once it changes it.
func (b *base) writeObj() (*txObj, error) {
	o, err := b.obj()
	if err != nil {
		return nil, err
	}
	if err := b.tx.writable(); err != nil {
		return nil, err
	}
	if len(o.drops) > 0 {
		// Changes of a vertex with sparse drops are made on a whole copy.
		if err := b.tx.full(b.num, o.rec); err != nil {
			return nil, err
		}
	}
	return o, b.decoded(o)
}

// headObj is obj for the methods that read labels or properties: they
// are decoded if still encoded.
func (b *base) headObj() (*txObj, error) {
	o, err := b.obj()
	if err != nil {
		return nil, err
	}
	return o, b.decoded(o)
}

// decoded decodes the labels and properties of o if they are still
// encoded (lazyhead.go), for the methods that use them.
func (b *base) decoded(o *txObj) error {
	if err := o.rec.decodeHeadNow(); err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: %v %d: %v", b.kind, b.num, err)
	}
	return nil
}

// heavyObj is writeObj for changes a lightweight edge cannot hold (a
// property): such an edge first moves to a holder of its own.
func (b *base) heavyObj() (*txObj, error) {
	if _, err := b.writeObj(); err != nil {
		return nil, err
	}
	if b.kind == edgeKind && layout.IsLight(b.num) {
		if err := b.tx.heavy(b); err != nil {
			return nil, err
		}
	}
	return b.writeObj()
}

// relabeled brings the references the ends of a lightweight edge keep up
// to date after a change of its labels.
func (b *base) relabeled(o *txObj) error {
	if b.kind != edgeKind || !layout.IsLight(b.num) {
		return nil
	}
	return b.tx.attach(b.num, o.rec.ends(), o.rec)
}

// lock locks the transaction for one method call of the holder.
func (b *base) lock() func() {
	b.tx.mu.Lock()
	return b.tx.mu.Unlock
}

// AddLabel adds l. If the object has an application-level ID that another
// object of its kind with label l has too, it returns ErrNonUniqueID.
func (b *base) AddLabel(l gdi.Label) error {
	defer b.lock()()
	o, err := b.writeObj()
	if err != nil {
		return err
	}
	n, err := b.tx.db.LabelNum(l, true)
	if err != nil || l == gdi.LabelNone || o.rec.hasLabel(n) {
		return err
	}
	if id, ok := o.rec.appID(); ok {
		if err := b.tx.idClash(b.kind, b.num, []uint32{n}, id); err != nil {
			return err
		}
	}
	if len(o.rec.labels()) > 0 && b.kind == edgeKind && layout.IsLight(b.num) {
		if o, err = b.heavyObj(); err != nil {
			return err
		}
	}
	o.rec.setLabels(append(o.rec.labels(), n))
	o.dirty = true
	return b.relabeled(o)
}

// RemoveLabel removes l. WarnNonUniqueID if the object is left without
// labels and shares its ID with another object without labels.
func (b *base) RemoveLabel(l gdi.Label) error {
	defer b.lock()()
	o, err := b.writeObj()
	if err != nil {
		return err
	}
	n, err := b.tx.db.LabelNum(l, true)
	if err != nil || l == gdi.LabelNone || !o.rec.hasLabel(n) {
		return err
	}
	o.rec.setLabels(removeItem(o.rec.labels(), n))
	o.dirty = planted != bugLabelRemovalLost
	if err := b.relabeled(o); err != nil {
		return err
	}
	if id, ok := o.rec.appID(); ok && len(o.rec.labels()) == 0 {
		ms, err := b.tx.lookupID(b.kind, idKey{uint32(gdi.LabelNone), id}, false)
		if err != nil {
			return err
		}
		if len(ms) > 1 {
			return gdi.Errorf(gdi.WarnNonUniqueID, "other %vs without labels have ID %q", b.kind, id)
		}
	}
	return nil
}

// Labels returns the labels of the object.
func (b *base) Labels() ([]gdi.Label, error) {
	defer b.lock()()
	o, err := b.headObj()
	if err != nil {
		return nil, err
	}
	out := make([]gdi.Label, 0, len(o.rec.labels()))
	for _, n := range o.rec.labels() {
		if !b.tx.db.KnownLabel(n) {
			return nil, b.tx.fail("label number %d is not known on rank %d yet", n, b.tx.db.rank)
		}
		out = append(out, b.tx.db.LabelHandle(n))
	}
	return out, nil
}

// ptypeForWrite checks a property type for a write.
func (b *base) ptypeForWrite(p gdi.PropertyType) (uint32, gdi.PropertyTypeInfo, error) {
	n, info, err := b.tx.db.PtypeNum(p)
	if err != nil {
		return 0, info, err
	}
	if p.IsReadOnly() {
		return 0, info, gdi.Errorf(gdi.ErrReadOnlyPropertyType, "property type %q is read-only", info.Name)
	}
	return n, info, nil
}

// checkID keeps application-level IDs of vertices unique: if the write
// gives the vertex the ID v (p is PropertyTypeID), no other vertex with one
// of its labels may have it. Edges are not checked here: the implicit index
// holds only vertices, and the specification asks for the check on edges
// only when a label is added (section 8.4 versus 8.5).
func (b *base) checkID(o *txObj, p uint32, v gdi.Value) error {
	if b.kind != vertexKind || p != uint32(gdi.PropertyTypeID) {
		return nil
	}
	return b.tx.idClash(b.kind, b.num, o.rec.labels(), v.RawString())
}

// AddProperty adds the property (p, v).
func (b *base) AddProperty(p gdi.PropertyType, v gdi.Value) error {
	defer b.lock()()
	o, err := b.heavyObj()
	if err != nil {
		return err
	}
	n, info, err := b.ptypeForWrite(p)
	if err != nil {
		return err
	}
	if err := info.CheckValue(v); err != nil {
		return err
	}
	if o.rec.hasProperty(n, v) {
		return nil
	}
	if _, k := o.rec.valueOf(n); info.Entity == gdi.SingleEntity && k > 0 {
		return gdi.Errorf(gdi.ErrPropertyTypeExists, "the object has a property of single-entity type %q", info.Name)
	}
	if err := b.checkID(o, n, v); err != nil {
		return err
	}
	o.rec.setProps(append(o.rec.props(), layout.Property{Ptype: n, Value: v}))
	o.dirty = true
	return nil
}

// PropertyTypes returns the property types present, degree types excluded.
func (b *base) PropertyTypes() ([]gdi.PropertyType, error) {
	defer b.lock()()
	o, err := b.headObj()
	if err != nil {
		return nil, err
	}
	var out []gdi.PropertyType
	for _, n := range o.rec.ptypes() {
		if !b.tx.db.KnownPtype(n) {
			return nil, b.tx.fail("property type number %d is not known on rank %d yet", n, b.tx.db.rank)
		}
		out = append(out, b.tx.db.PtypeHandle(n))
	}
	return out, nil
}

// Properties returns the values of the properties of type p; for the
// degree types of a vertex, the degree.
func (b *base) Properties(p gdi.PropertyType) ([]gdi.Value, error) {
	defer b.lock()()
	o, err := b.obj()
	if err != nil {
		return nil, err
	}
	n, _, err := b.tx.db.PtypeNum(p)
	if err != nil {
		return nil, err
	}
	if p.IsReadOnly() {
		if b.kind != vertexKind {
			return nil, gdi.Errorf(gdi.ErrWrongType, "%v is for vertices only (spec 6.2: it can't be used on edges)", p)
		}
		deg, in, out, err := b.tx.txDegrees(b.num, o.rec)
		if err != nil {
			return nil, err
		}
		return []gdi.Value{degreeValue(p, deg, in, out)}, nil
	}
	if err := b.decoded(o); err != nil {
		return nil, err
	}
	return o.rec.values(n), nil
}

// RemoveProperties removes every property of type p.
func (b *base) RemoveProperties(p gdi.PropertyType) error {
	defer b.lock()()
	o, err := b.writeObj()
	if err != nil {
		return err
	}
	n, _, err := b.ptypeForWrite(p)
	if err != nil {
		return err
	}
	if o.rec.removeProperties(n) {
		o.dirty = true
	}
	return nil
}

// RemoveProperty removes the property (p, v) if present.
func (b *base) RemoveProperty(p gdi.PropertyType, v gdi.Value) error {
	defer b.lock()()
	o, err := b.writeObj()
	if err != nil {
		return err
	}
	n, info, err := b.ptypeForWrite(p)
	if err != nil {
		return err
	}
	if err := info.CheckDatatype(v); err != nil {
		return err
	}
	i := slices.Index(o.rec.props(), layout.Property{Ptype: n, Value: v})
	if i >= 0 {
		o.rec.setProps(slices.Delete(o.rec.props(), i, i+1))
		o.dirty = planted != bugPropertyRemovalLost
	}
	return nil
}

// singleForWrite checks p for the writes that need a single-entity type,
// and returns its number and description.
func (b *base) singleForWrite(p gdi.PropertyType, v gdi.Value) (uint32, gdi.PropertyTypeInfo, error) {
	n, info, err := b.ptypeForWrite(p)
	if err != nil {
		return 0, info, err
	}
	if info.Entity != gdi.SingleEntity {
		return 0, info, gdi.Errorf(gdi.ErrWrongType, "property type %q is multiple entity", info.Name)
	}
	return n, info, info.CheckValue(v)
}

// UpdateProperty replaces the value of the single-entity property p.
func (b *base) UpdateProperty(p gdi.PropertyType, v gdi.Value) error {
	defer b.lock()()
	o, err := b.heavyObj()
	if err != nil {
		return err
	}
	n, info, err := b.singleForWrite(p, v)
	if err != nil {
		return err
	}
	old, k := o.rec.valueOf(n)
	if k == 0 {
		return gdi.Errorf(gdi.ErrNoProperty, "no property of type %q", info.Name)
	}
	if old == v {
		return nil
	}
	return b.replace(o, n, v)
}

// SetProperty sets the single-entity property p to v.
func (b *base) SetProperty(p gdi.PropertyType, v gdi.Value) error {
	defer b.lock()()
	o, err := b.heavyObj()
	if err != nil {
		return err
	}
	n, _, err := b.singleForWrite(p, v)
	if err != nil {
		return err
	}
	if old, k := o.rec.valueOf(n); k == 1 && old == v {
		return nil
	}
	return b.replace(o, n, v)
}

// replace makes v the only value of type n.
func (b *base) replace(o *txObj, n uint32, v gdi.Value) error {
	if err := b.checkID(o, n, v); err != nil {
		return err
	}
	o.rec.removeProperties(n)
	o.rec.setProps(append(o.rec.props(), layout.Property{Ptype: n, Value: v}))
	o.dirty = true
	return nil
}

// UpdateSpecificProperty replaces the property (p, old) with (p, new).
func (b *base) UpdateSpecificProperty(p gdi.PropertyType, old, new gdi.Value) error {
	defer b.lock()()
	o, err := b.heavyObj()
	if err != nil {
		return err
	}
	n, info, err := b.ptypeForWrite(p)
	if err != nil {
		return err
	}
	if err := info.CheckDatatype(old); err != nil {
		return err
	}
	if err := info.CheckValue(new); err != nil {
		return err
	}
	i := slices.Index(o.rec.props(), layout.Property{Ptype: n, Value: old})
	if i < 0 {
		return gdi.Errorf(gdi.ErrNoProperty, "no property of type %q with value %v", info.Name, old)
	}
	if o.rec.hasProperty(n, new) {
		return gdi.Errorf(gdi.ErrPropertyExists, "the object has a property of type %q with value %v", info.Name, new)
	}
	if err := b.checkID(o, n, new); err != nil {
		return err
	}
	o.rec.props()[i].Value = new
	o.dirty = true
	return nil
}
