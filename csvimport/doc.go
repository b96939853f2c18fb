// Package csvimport loads a directory of CSV files with the headers of
// neo4j-admin import into any gdi.Database that can load in bulk
// (gdi.BulkLoader): the files gdi gen -format csv writes, LDBC SNB's, and
// those Neo4j users already have. The schema comes from the headers; no
// code restates it.
//
// # Files
//
// Every .csv file below the directory is read, in lexical order of path.
// Its first line is its header; the rest are its records, one a line (as
// with neo4j-admin import's default, a field may not span lines). Fields
// are separated by commas, or by '|' in a file whose header has a '|' and
// no comma (Options.Delimiter overrides both); a field in double quotes
// may hold the delimiter, and "" in it is one quote.
//
// A vertex file has one ID column, :ID(Space) or name:ID(Space); an edge
// file one :START_ID(Space) and one :END_ID(Space) column. The ID space is
// a label: each vertex has the label of its ID space, plus those of a
// :LABEL column (separated by ';'), and its ID becomes its application-
// level ID. An edge has the label of its :TYPE column or, without one,
// the label its file's name gives: edge_label_Start_End.csv (gdi gen) or
// Start_label_End.csv (LDBC). The other columns are properties, name:type
// or name (a string), of the types of neo4j-admin import: string, char,
// boolean, byte, short, int, long, float, double, date, localtime,
// datetime and localdatetime, and arrays of them (type[], elements
// separated by ';'). An array of strings is a property of multiple
// entity, a value per element; any other array is one value of many
// elements. An empty field is no property. :IGNORE columns are skipped.
//
// # Every rank its share
//
// Import is collective. Each rank reads an even share of the bytes of
// every file (the lines that start in it), so the ranks read disjoint
// lines without any coordination but for a count of lines per share
// (Allgatherv), which numbers the vertices. The vertices' keys (ID space
// and ID) are spread over the ranks by hash; each rank then resolves the
// ends of its edges in rounds of Options.RoundEdges, asking the owners of
// the keys (two Alltoallv a round), so no rank holds more than its share
// of keys and a round of edges. Then the labels the records name and the
// property types of the headers are made (or taken, if the database has
// them), and BulkLoad loads the graph.
//
// # Errors
//
// Every file is read and every edge resolved before anything is loaded,
// so a malformed file loads nothing: a bad header, a record with the
// wrong number of fields, a value its type does not admit, an edge whose
// end no vertex has (all ErrFileFormat), or an ID given twice in one ID
// space (ErrNonUniqueID). The error names the file and line, and every
// rank returns it. A failure of BulkLoad itself may leave part of the
// graph loaded (gdi.BulkLoader).
//
// Edges loaded so have no application-level ID, and types that gdi has
// no datatype for (point, duration) are refused.
package csvimport
