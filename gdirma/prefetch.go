package gdirma

import "github.com/gdi-go/gdi/gdi"

var _ gdi.VertexIDPrefetcher = (*Database)(nil)

// PrefetchVertexID implements gdi.VertexIDPrefetcher: it starts loading the
// DHT bucket slot of (l, id), where a TranslateVertexID of them looks
// first, on whichever rank holds it. Only rma.Prefetcher windows (local
// memory) do anything with it. IDs that the DHT keys by their digest, and
// vertices without a label (found by a scan), are not worth a hint.
func (db *Database) PrefetchVertexID(l gdi.Label, id []byte) {
	if len(id) >= idKeyLen || l == gdi.LabelNone {
		return
	}
	ln, err := db.LabelNum(l, false)
	if err != nil {
		return
	}
	db.st.IDs().Prefetch(ln, id)
}
