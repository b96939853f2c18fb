package gdirma

import "github.com/gdi-go/gdi/gdirma/internal/layout"

// codec returns the codec of the edge references of vertex v.
func (st *store) codec(v uint64) layout.Codec {
	return layout.Codec{Self: v, Base: st.lightNumber(v, 0), BS: uint64(st.bs)}
}
