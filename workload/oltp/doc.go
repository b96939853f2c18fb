// Package oltp drives LinkBench-style online transaction processing against
// any gdi backend: a stream of small single-process transactions issued by
// every rank at once, in the four mixes of the GDI paper (Table 3), on a graph
// built by package generator.
//
// # Operations
//
// Every operation is one transaction that starts from an application-level
// ID (TranslateVertexID), commits on success and aborts on any error. Each
// does what the C reference's driver does on the default data scheme:
//
//   - get vertex properties: every property type of the vertex's label;
//   - count edges and get edges: the vertex's edges carrying one label, drawn
//     from the vertex label's row of the edge-label matrix (get returns the
//     edge UIDs);
//   - add vertex: a fresh ID, the label of the loaded vertex whose number
//     is the ID modulo the vertices loaded, the property values of a vertex
//     of that label from the load;
//   - delete vertex: FreeVertex, which removes its edges too;
//   - update property: a Person's firstName and lastName, otherwise name;
//   - add edge: an undirected edge between two vertices, labelled from the
//     matrix.
//
// Targets are vertex numbers of the loaded graph and the vertices added so
// far (LinkBench's ID range grows with its inserts; each worker counts as
// many added by the others as by itself), drawn uniformly or from Zipf
// distributions with LinkBench's shapes (0.8 for reads, 0.741 for writes).
// Zipf's hot ranks are loaded vertices, scattered over them by a bijection
// so that the hot vertices are not the low numbers; its tail ranks are the
// added vertices. A target deleted earlier in
// the run is "not found", counted apart from failures (transactions that
// aborted on an error, such as a lock conflict).
//
// Each goroutine draws its operations one ahead. If the database takes hints
// (gdi.VertexIDPrefetcher), it hints the IDs of the next operation before it
// starts the current one, untimed, so that memory the next lookup needs
// loads while the current operation runs. Config.NoPrefetch turns that off.
//
// # Figures
//
// Throughput counts committed operations per second over all ranks. Latency
// per operation type goes into HDR histograms per goroutine, merged per rank
// and then summed across ranks with one Allreduce of their counts, so the
// percentiles are those of all operations of the run.
package oltp
