package generator

import "github.com/gdi-go/gdi/gdi"

// BulkSource describes g for a backend's gdi.BulkLoader, with the handles
// m of g.Scheme().CreateMetadata: vertex x has ID AppID(x), its label and
// its properties (without empty strings, as Insert), and each rank emits
// the edges of its RankSlice. Loading it gives the graph Insert builds.
func (g *Graph) BulkSource(m *Metadata) gdi.BulkSource {
	dir := gdi.Undirected
	if g.Config().Directed {
		dir = gdi.Directed
	}
	return gdi.BulkSource{
		Vertices:   g.NumVertices(),
		Vertex:     func(x uint64, v *gdi.BulkVertex) error { return g.bulkVertex(m, x, v) },
		Edges:      g.EachRankEdge,
		EdgeLabels: m.EdgeLabels,
		Direction:  dir,
	}
}

// bulkVertex describes vertex x into v.
func (g *Graph) bulkVertex(m *Metadata, x uint64, v *gdi.BulkVertex) error {
	k := g.VertexLabel(x)
	if k >= len(m.VertexLabels) {
		return gdi.Errorf(gdi.ErrArgument, "BulkSource: no handle for vertex label %d", k)
	}
	v.ID = AppID(x)
	v.Labels = append(v.Labels[:0], m.VertexLabels[k])
	v.Properties = v.Properties[:0]
	for _, p := range g.VertexProperties(x) {
		if p.Value.Datatype() == gdi.Char && p.Value.Len() == 0 {
			continue
		}
		if p.Type >= len(m.PropertyTypes) {
			return gdi.Errorf(gdi.ErrArgument, "BulkSource: no handle for property type %d", p.Type)
		}
		v.Properties = append(v.Properties, gdi.BulkProperty{Type: m.PropertyTypes[p.Type], Value: p.Value})
	}
	return nil
}
