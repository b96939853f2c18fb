// Package layout is the holder layout of gdirma: how object numbers and
// the edge references of a vertex image are written as bytes. It is pure
// encoding and decoding, with no windows, locks or transactions, so it can
// be tested and fuzzed on its own.
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
// (codec.go).
//
// # Invariants
//
//   - Decoding what Append wrote gives back the same number and Ref
//     (TestCodecRoundTrip, FuzzCodecRoundTrip).
//   - Decoding never panics and never reads past its input: malformed
//     bytes give ok == false (FuzzCodecNeverPanics).
//   - A tombstone (Kill) has the length of the entries it replaces, so an
//     image keeps its length when a reference is removed in place; Next,
//     Head and Number skip it.
package layout
