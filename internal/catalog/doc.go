// Package catalog is the part of a GDI database that both backends,
// conformance/refdb (the reference backend and oracle of the differential
// tests) and gdirma (the backend over RMA windows), do alike: the catalog
// of one rank.
//
// A Catalog holds
//
//   - the rank's replica of the metadata: labels and property types, their
//     creation, update and lookup by name or number, and the mapping
//     between the rank's handles (tagged with the database tag) and the
//     object numbers stored in graph data;
//   - the collective agreement of metadata calls over the rma.Comm (Agree,
//     Barrier, BcastCode): every rank checks a call locally, the ranks
//     agree on call and outcome, so all replicas take the same steps and
//     hand out the same numbers;
//   - the rank's subconstraints and constraints (conditions by number, with
//     the generation of their property types, staleness, conversion to
//     gdi.DNF for queries);
//   - the rank's index handles (index type and the sets L and P; no
//     entries: queries scan the graph);
//   - the front of the gdi.CSVLoader methods: checking a request against
//     the replica and reading and parsing the file (csv.go); each backend
//     inserts the parsed lines into its own storage.
//
// A backend embeds *Catalog in its Database, which promotes the
// gdi.Database methods on metadata, constraints and indexes, and calls the
// exported helpers (LabelNum, PtypeNum, LabelHandle, PtypeHandle,
// KnownLabel, KnownPtype, Filter, IndexSets, ...) from its holders and
// queries. Subconstraint, Constraint and Index are the handles returned
// to users; they are comparable pointers and belong to one Catalog, so
// handles of another database or rank are detected.
//
// The gdi.MetadataRewriter methods and the gdi.CSVLoader methods are
// split: the catalog does the checks, the collective agreement and the
// replica update (RewriteFreeLabel, RewriteFreePropertyType,
// RewriteUpdatePropertyType; CheckVertexCSV, ..., ReadCSV), the backend
// rewrites or inserts the graph data.
//
// What the backends do differently stays in them: graph storage,
// transactions (isolation, commit) and holders. refdb stays an
// independent oracle of gdirma's storage and transactions.
//
// Locking: the Catalog's mutex guards all its state and is a leaf lock:
// no other lock is taken while it is held, so a backend may call the
// Catalog while holding its own locks (transaction, store, the list of
// transactions).
package catalog
