package conformance

import (
	"bytes"

	"github.com/gdi-go/gdi/gdi"
)

var prefetchCases = []Case{
	c("Vertex/prefetch-vertex-id-is-only-a-hint", vertexPrefetchHint),
}

// vertexPrefetchHint: a backend with gdi.VertexIDPrefetcher takes hints for
// IDs that exist, IDs that do not, IDs of every length, LabelNone, labels
// of another database and stale handles, from inside and outside
// transactions, and none of it changes what TranslateVertexID finds or
// what a transaction commits. A backend without it passes.
func vertexPrefetchHint(e *Env) {
	pf, ok := e.DB.(gdi.VertexIDPrefetcher)
	person, gone := e.label("Person"), e.label("Gone")
	e.barrier()
	if !ok {
		return
	}
	long := append(e.id("long-"), bytes.Repeat([]byte("x"), 4096)...)
	hints := func() {
		for r := 0; r < e.Size(); r++ {
			pf.PrefetchVertexID(person, idOf(r, "ada"))
		}
		pf.PrefetchVertexID(person, e.id("nobody"))
		pf.PrefetchVertexID(person, nil)
		pf.PrefetchVertexID(person, long)
		pf.PrefetchVertexID(gone, e.id("ada"))
		pf.PrefetchVertexID(gdi.LabelNone, e.id("ada"))
		pf.PrefetchVertexID(gdi.Label(^uint64(0)), e.id("ada"))
	}
	hints()
	e.update(func(tx gdi.Transaction) {
		hints()
		vertex(tx, e.id("ada"), ls(person))
		hints()
		vertex(tx, long, ls(person))
	})
	e.barrier()
	if mr, ok := e.DB.(gdi.MetadataRewriter); ok {
		okf(mr.FreeLabel(gone), "FreeLabel")
	}
	hints()
	e.view(func(tx gdi.Transaction) {
		for r := 0; r < e.Size(); r++ {
			hints()
			v := find(tx, person, idOf(r, "ada"))
			sameSet(labelsOf(v), ls(person), "labels of rank %d's vertex after hints", r)
		}
		find(tx, person, long)
		if exists(tx, person, e.id("nobody")) {
			failf("TranslateVertexID found a vertex that was only hinted at")
		}
	})
	hints()
}
