// Package generator generates labeled property graphs on the Graph500
// 3.0.0 Kronecker model, as the GDI-RMA evaluation (SC'23, section 6.3)
// uses them: 2^Scale vertices, EdgeFactor·2^Scale edges, with vertex labels,
// vertex properties and edge labels from a Scheme.
//
// # The model
//
// Each edge picks a cell of the 2^Scale × 2^Scale adjacency matrix by
// recursion: at each of Scale levels it descends into the upper-left,
// upper-right, lower-left or lower-right quadrant with probability A=0.57,
// B=0.19, C=0.19 or D=0.05, which fixes one bit of the row (the first
// vertex) and one of the column (the second vertex). The vertex numbers are
// then scrambled by a keyed bijection of [0, 2^Scale) (Graph.Scramble:
// rounds of multiply-by-odd, add and xorshift modulo 2^Scale, computable per
// vertex, no permutation array), so that vertex numbers carry no locality.
// Self-loops and duplicate edges are kept as produced; every vertex number
// is a vertex, isolated ones included. Graph500 also asks for the edge
// tuples to be shuffled: here every edge is an independent draw, so the
// sequence has no locality to shuffle away.
//
// # Determinism
//
// Edge i depends on the seed and i only: levels 2k and 2k+1 use the two
// 32-bit halves of a counter-based random number, number 32i+k+1 of the
// wyrand stream keyed by the seed (one 64×64→128-bit multiplication). So
// any rank or goroutine generates any edge without state, the ranks
// generate disjoint contiguous slices of the edge sequence
// (Graph.RankSlice), and the graph, the edge list and the CSV files are the
// same for any number of ranks. Vertex values are drawn the same way from
// (seed, vertex, property type). The 32-bit thresholds approximate A, B and
// C to within 2^-33.
//
// On one core of the development machine (AMD EPYC, shared with other
// work) Fill produces about 25 million edges per second at scale 26, 40 ns
// per edge (BenchmarkGenerate; go test -run '^$' -bench Generate
// -benchtime 3s ./generator). FillParallel splits a fill over goroutines;
// the text writers run generation and formatting on all cores and keep the
// output in edge order.
//
// # The scheme
//
// DefaultScheme is the evaluation scheme of the C reference. Vertex labels
// go by contiguous ranges of the scrambled vertex number: Company [0, 5%),
// Person [5%, 20%), Place [20%, 25%), Project [25%, 75%), Resource [75%,
// 100%). Each vertex carries the single-entity property types of its label
// (13 in all; name is shared by four labels): strings of lowercase letters
// with a length uniform in [0, max-1], integers uniform in a range, dates
// with year 1900–2000, month 1–12, day 1–28. Each edge has exactly one
// label, from a symmetric matrix over the labels of its ends (worksAt
// between Company and Person, knows between two Persons, ...), and no
// properties. Edges are undirected unless Config.Directed; a directed edge
// goes from the first generated vertex to the second.
//
// A Scheme is plain data: the number of labels and property types, the
// share of the vertices each label gets, the value ranges and string sizes,
// the fraction of a label's vertices carrying each property type, and the
// edge-label matrix can all be changed (UniformScheme builds a synthetic
// one of any size). In GDI terms, Scheme.CreateMetadata creates the labels
// and property types in a gdi.Database (collectively) and returns their
// handles; Graph.Value and Graph.VertexProperties give each vertex's
// values as gdi.Value; AppID is the application-level ID of a vertex.
//
// # Output
//
// Graph.WriteEdges writes the text edge list ("u v" per line). Graph.WriteCSV
// writes neo4j-import-style CSV files with a header line, one per vertex
// label and one per pair of end labels (for undirected graphs one per edge
// label, the ends ordered by label), which Graph.LoadCSV loads through
// gdi.CSVLoader with CSVFile.TextIDs. Both write collectively: each rank
// generates its slice and the ranks append in rank order (Sequential). The
// command gdi gen drives them. Graph.Insert builds the same database with
// ordinary transactions, all ranks in parallel, for backends without a
// bulk loader.
//
// # Trade-offs
//
//   - Counter-based randomness costs a hash per two levels per edge where a
//     sequential generator costs less, but it buys determinism for any
//     number of ranks and random access to any edge without communication.
//   - The scramble is a cheap keyed bijection, not a uniformly random
//     permutation; it removes the locality of the Kronecker numbering, which
//     is all Graph500 needs from it.
//   - Labels by contiguous ranges of scrambled numbers make the label of a
//     vertex computable from its number alone, and independent of its
//     degree.
//   - An empty string and a missing property are both an empty CSV field,
//     so after a CSV load a vertex whose string value is empty lacks that
//     property. Values from Graph.Value keep the empty string.
//   - Writing one ordered file from several ranks serializes the ranks'
//     turns; within a turn all cores of the rank work. Under MPI, write to
//     a directory on a shared file system (each rank appends in turn)
//     rather than to standard output, whose forwarding mpirun does not
//     order.
package generator
