// Package graphalytics reads LDBC Graphalytics data sets (the EVLP format:
// NAME.properties, NAME.v, NAME.e and expected outputs NAME-ALG), loads
// them into any gdi backend, and checks algorithm outputs with the
// Graphalytics validation rules.
//
// # Files
//
// ReadDataset parses NAME.properties (Java properties), NAME.v (one vertex
// id per line) and NAME.e ("src dst[ weight]", single spaces) and reports
// malformed or missing input with the file name and line number. It never
// panics on bad input.
//
// # Loading
//
// Load stores a data set in a gdi database: every vertex gets the label
// Schema.Vertex and its Graphalytics id, as decimal text, as
// application-level ID (gdi.PropertyTypeID); every edge is Directed or
// Undirected as the properties say, and carries its weight as the Double
// property Schema.Weight when the edge file has a weight column. A
// database that implements gdi.CSVLoader loads the files themselves in bulk
// (CSVFile.TextIDs, field delimiter ' '); otherwise, or for a data set
// built in memory, every rank creates its share of the vertices and edges
// in single-process transactions.
//
// # Validation
//
// Validate compares an output with the expected one as Graphalytics does:
// the vertex sets must be equal; BFS and CDLP must match exactly; WCC must
// be equivalent (a relabelling that is consistent both ways); PR, LCC and
// SSSP must satisfy |expected-actual| <= 1e-4*expected, with infinity
// matching only infinity.
package graphalytics
