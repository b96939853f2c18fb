// Package olap is the OLAP workload of GDI: graph analytics (BFS, k-hop,
// the six LDBC Graphalytics kernels), a business-intelligence aggregation
// and a GNN layer, written against the gdi interfaces and rma.Comm only,
// so that they run on any backend.
//
// # How queries use GDI
//
// As in sections 4 and 6 of the GDI paper, every query runs in a
// collective read transaction (Database.StartCollectiveTransaction) and
// starts from the local vertices of an index over the vertex label
// (VertexIndex creates it collectively; Transaction.LocalVerticesOfIndex
// gives each rank its share). Results are combined with collectives:
// Allreduce for aggregates (BI, frontier sizes, PageRank's sink mass) and
// Alltoallv for per-vertex data.
//
// The BI query (BI) works on gdi holders directly, as Listing 3 of the
// paper does; BIOnStorage answers it from a keyed backend's scans and
// reads by key instead (storagebi.go). The graph algorithms first extract the graph into dense
// per-rank arrays (Extract) and then never touch gdi again. The GNN layer
// (GNNLayer) extracts the graph too, reads the features of the local
// vertices through gdi, and gets those of remote neighbours by one halo
// exchange rather than by a read per edge. A single search can skip the
// extraction where the backend reads vertices by key
// (gdi.KeyedAdjacencyReader): BFSOnStorage is a direction-optimising BFS
// whose levels read only the frontier (top-down) or the unvisited vertices
// until each finds a parent (bottom-up), so it reads a fraction of the
// edges that an extraction decodes (storagebfs.go).
//
// # Extraction: dense per-rank arrays
//
// Following RGraph and Carafe (reference/DESIGN.md), a rank keeps its
// local vertices in a contiguous range of global numbers: rank r owns
// [Offsets[r], Offsets[r+1]). Where the backend numbers each rank's
// vertices densely (gdi.KeyedAdjacencyScanner, gdirma), the local
// vertices keep its storage order and their lists are written as its
// scan hands them out (keyed.go: the ends are codes until step 3, then
// translated in place); weights come from one scan of the edge holders
// (gdi.KeyedEdgePropertyScanner, keyedweights.go). Otherwise they are put
// in the order of application-level ID (the Graphalytics vertex id).
// Inside the collective transaction every rank
//
//  1. reads its local vertices with their IDs and edges — only local
//     reads: by keys as above; or, where the backend has only
//     gdi.AdjacencyScanner, streamed in storage order with their edges
//     kept in pieces as they come and placed once in ID order (not with
//     weights); otherwise (refdb) vertex by vertex
//     (LocalVerticesOfIndex, the ID property, IncidentEdges or Edges,
//     EdgeHolder.Vertices, Direction and the weight property);
//  2. agrees on the ranges (one Allgather of the counts);
//  3. registers (UID -> global number, ID) with a directory rank chosen by
//     a hash of the UID (Alltoallv), asks the directory about the UIDs of
//     its remote neighbours (Alltoallv) and gets the answers (Alltoallv).
//     UIDs are opaque, so nothing is assumed about the bits a backend
//     puts in them, and no remote vertex is ever read through gdi. Where
//     the backend numbers each rank's vertices densely
//     (gdi.KeyedAdjacencyScanner), the ends are (home, key) pairs instead:
//     a local one is found in an array, the remote ones are asked of their
//     home in one Alltoallv and answered from its array, with no
//     directory and no hashing;
//  4. builds the local CSR (out- and in-lists; an undirected edge is both)
//     over slots: local vertex i is slot i, remote neighbours ("ghosts")
//     follow, sorted by global number and hence grouped by owner. By
//     keys the lists exist already and each code is replaced by its slot;
//     by UID each end of a local edge is looked up once (step 3 numbers
//     the distinct ones), and the lists are written in one sweep, by
//     vertex, and each sorted in place. Lists are sorted only then: an
//     algorithm that needs sorted lists sorts them (LCC);
//  5. tells each owner which of its vertices it holds as ghosts
//     (Alltoallv), which gives the halo-exchange plan.
//
// # Exchanging updates
//
// Algorithms exchange data in per-destination batches through Alltoallv,
// in one of two patterns:
//
//   - Halo exchange (Exchange): before a pull step every rank sends each
//     neighbour rank one batch holding the values of the vertices that rank
//     has as ghosts; the values land directly in the ghost slots, so a
//     kernel reads local and remote neighbours from one array. PageRank,
//     WCC, CDLP and BFS validation pull this way; LCC fetches the ghosts'
//     out-lists once the same way.
//   - Push batches: frontier algorithms (BFS, k-hop, SSSP) relax local
//     neighbours in place and queue (remote local index, value) pairs per
//     owner, delivered by one Alltoallv per round. A ghost is sent a BFS
//     parent at most once, and an SSSP distance only if it improves on
//     what was sent before.
//
// Every round ends with an Allreduce (changed labels, frontier size) so
// that all ranks agree on termination.
//
// Trade-off. Extraction costs one pass over the local graph through gdi
// plus four Alltoallv rounds, and memory for a CSR copy and the ghosts;
// afterwards every iteration costs memory-speed local work plus one
// collective, instead of a gdi holder and a possibly remote read per edge
// per iteration. That pays off for the iterative kernels (PR, CDLP, WCC,
// SSSP); a single query (a BFS, the BI aggregation) reads less straight
// from the storage where the backend allows it (BFSOnStorage,
// BIOnStorage), and through gdi holders where it does not. The halo exchange
// sends every ghost value in every round, whether it changed or not: that
// is simple and bounded by the edge cut, but wasteful when few values
// change (late WCC rounds); the push batches send only changes but cost a
// (rank, index) pair per update. The extraction is a snapshot: it is
// consistent because it is read in one collective transaction, and the
// algorithms run on it after commit.
//
// # Limits
//
// One goroutine per rank does the local work (RGraph's claiming of vertex
// chunks by several threads is not done); BFS on an extracted graph is
// push-only (BFSOnStorage has the bottom-up step); extraction with weights
// where the backend cannot scan its edge holders reads every edge through
// an edge holder, which costs far more than the scans; the ghosts'
// out-lists for LCC are fetched whole, which is heavy for high-degree
// boundary vertices.
//
// # Semantics
//
// The kernels follow LDBC Graphalytics exactly (see the package
// graphalytics and testdata/graphalytics/README.md): BFS depth along
// out-edges with Unreached for unreachable vertices; PageRank with exactly
// the given number of iterations and the sink mass spread over all
// vertices; WCC labels the minimum vertex id of the component; CDLP counts
// in- and out-neighbours (twice for reciprocal edges) and breaks ties
// towards the smallest label; LCC uses the undirected neighbour set and
// counts directed edges among it; SSSP gives +Inf ("infinity") for
// unreachable vertices. Validate checks a BFS tree with the five rules of
// Graph500.
package olap
