// Package layout is the holder layout of gdirma: how object numbers, the
// head of a holder image (labels and properties), the degrees of a vertex
// and its edge references are written as bytes. It is pure encoding and
// decoding, with no windows, locks or transactions, so it can be tested
// and fuzzed on its own. gdirma's records (record.go, recordimage.go)
// keep their own buffers and caches and call it to read and write images.
//
// # Model
//
// Every vertex, and every edge with a holder of its own, is numbered by
// the DPtr of its primary block; a lightweight edge is numbered after its
// origin vertex and a slot (number.go). A vertex image lists, for each
// incident edge, a Ref: direction, ends, label of a lightweight edge, and
// the holder of an edge numbered after its origin that became heavyweight.
// A Codec writes the Refs of one vertex relative to that vertex, so that
// the common ones (lightweight, between vertices of one rank) take 5 bytes
// (codec.go). An image starts with its head (head.go): the label numbers,
// then each property's type number, datatype and raw bytes; a vertex image
// goes on with its degree, in-degree and out-degree, then its references.
//
// # Invariants
//
//   - Decoding what Append wrote gives back the same number and Ref
//     (TestCodecRoundTrip, FuzzCodecRoundTrip); reading what AppendHead
//     and AppendDegrees wrote gives back the same head and degrees
//     (TestHeadRoundTrip).
//   - Decoding never panics and never reads past its input: malformed
//     bytes give ok == false or ErrShort (FuzzCodecNeverPanics,
//     FuzzHeadNeverPanics).
//   - A tombstone (Kill) has the length of the entries it replaces, so an
//     image keeps its length when a reference is removed in place; Next,
//     Head and Number skip it.
package layout
