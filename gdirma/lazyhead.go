package gdirma

import "github.com/gdi-go/gdi/gdirma/internal/layout"

// Encoded heads. Many reads of a vertex never look at its labels and
// properties: an edge query, the neighbours a delete or a new edge
// changes. So a record read whole can keep them encoded, as the image has
// them (record.headRaw), and decode them on first use. The image bytes
// belong to the transaction (imagepool.go, loadedObj.small) and do not
// change while it lasts; an image written from the record copies them as
// they are.
//
// The fields lbls and prps hold only decoded labels and properties, so
// they are read through labels and props and set through setLabels and
// setProps, which decode first. A few questions are answered from the
// encoded head itself: hasLabel, matchesID (the check of every ID lookup)
// and whether two heads are alike (sameHead).
//
// An encoded head is checked when it is read (checkHead), as decoding it
// would, so that decoding it later cannot fail. Were it to, it stays
// encoded: its labels and properties read as none, and images written
// from the record keep it as it was.

// labels returns the label numbers of r.
func (r *record) labels() []uint32 {
	r.head()
	return r.lbls
}

// props returns the properties of r.
func (r *record) props() []layout.Property {
	r.head()
	return r.prps
}

// setLabels replaces the labels of r.
func (r *record) setLabels(l []uint32) {
	r.head()
	r.lbls = l
}

// setProps replaces the properties of r.
func (r *record) setProps(p []layout.Property) {
	r.head()
	r.prps = p
}

// head decodes the labels and properties of r if they are encoded.
func (r *record) head() {
	if r.headRaw != nil {
		_ = r.decodeHeadNow()
	}
}

// sameHead reports whether r and c have the same labels and properties
// in the same order, without decoding encoded heads.
func sameHead(r, c *record) bool {
	if r.headRaw != nil && c.headRaw != nil {
		return string(r.headRaw) == string(c.headRaw)
	}
	var a, b [256]byte // appendHead copies an encoded head as it is
	return string(appendHead(a[:0], r)) == string(appendHead(b[:0], c))
}
