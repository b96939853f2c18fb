// Package gdiutil is a small idiomatic layer over package gdi, written
// against its interfaces alone, so it serves every backend.
//
//   - RunTransaction runs a function in a single-process transaction and
//     commits it, trying again, a bounded number of times, while
//     transactions of others get in its way; it honours a context.
//   - PropertyType describes a property type with the usual defaults
//     (single entity, no size limit), which gdi.PropertyTypeInfo, a
//     binding of the specification's arguments, leaves to the caller.
//   - Text, Int64 and Float64 read the one value of a property as a Go
//     value.
//   - Vertices, LocalVertices, Edges and Neighbors range over the holders
//     of a query's results, associating each only when the loop reaches
//     it, and stop once a context is done.
package gdiutil
