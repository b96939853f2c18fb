// Package gensource loads graphs of package generator into gdirma with
// gdirma.Database.BulkLoad. It sits apart from gdirma, which is written
// against gdi, rma and its own layers only, and from generator, which
// knows nothing of a backend.
package gensource

import (
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/generator"
)

// Source describes graph g for BulkLoad, with the handles m of
// g.Scheme().CreateMetadata: vertex x has ID generator.AppID(x), its label
// and its properties (without empty strings, as generator.Insert), and
// each rank emits the edges of its g.RankSlice. Loading it gives the
// database generator.Insert builds.
func Source(g *generator.Graph, m *generator.Metadata) gdirma.BulkSource {
	dir := gdi.Undirected
	if g.Config().Directed {
		dir = gdi.Directed
	}
	return gdirma.BulkSource{
		Vertices: g.NumVertices(),
		Vertex: func(x uint64, v *gdirma.BulkVertex) error {
			k := g.VertexLabel(x)
			if k >= len(m.VertexLabels) {
				return gdi.Errorf(gdi.ErrArgument, "BulkLoad: no handle for vertex label %d", k)
			}
			v.ID = generator.AppID(x)
			v.Labels = append(v.Labels, m.VertexLabels[k])
			for _, p := range g.VertexProperties(x) {
				if p.Value.Datatype() == gdi.Char && p.Value.Len() == 0 {
					continue
				}
				if p.Type >= len(m.PropertyTypes) {
					return gdi.Errorf(gdi.ErrArgument, "BulkLoad: no handle for property type %d", p.Type)
				}
				v.Properties = append(v.Properties, gdirma.BulkProperty{Type: m.PropertyTypes[p.Type], Value: p.Value})
			}
			return nil
		},
		Edges:      g.EachRankEdge,
		EdgeLabels: m.EdgeLabels,
		Direction:  dir,
	}
}
