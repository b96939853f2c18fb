// Package graph maps openCypher's property graph onto a GDI database
// (package gdi), for the engine of package cypher. It uses the gdi
// interfaces alone, so it serves every backend.
//
// # The mapping
//
//   - A node is a vertex. Its labels are GDI labels.
//   - A relationship is a directed edge with exactly one GDI label, its
//     type. A backend keeps it lightweight while it has no properties.
//   - Node labels and relationship types share GDI's one namespace of
//     labels: a label Person and a relationship type Person are the same
//     GDI label, which is harmless, as a label on a vertex and on an edge
//     never meet in one query.
//   - A property key is a family of GDI property types, one per kind of
//     value it holds (Kind): Integer (Int64), Float (Double), String
//     (Char), Boolean (Bool) and Composite (Byte: lists and maps,
//     encoded). Cypher is schemaless and GDI is not: the same key may hold
//     an integer on one node and a string on another, so each kind gets a
//     property type of its own, named key#Kind ("age#Integer"). A property
//     type named plainly key, single entity, of a datatype a kind reads
//     (any integer type for Integer, Float or Double for Float, Char for
//     String, Bool for Boolean), created by another program such as
//     gdi import, is part of the family too: the engine reads it, and
//     writes values of that kind to it if its datatype is exactly the
//     kind's.
//   - An object has at most one property of a key's family: a write of
//     a key removes the other members' values in the same transaction.
//   - The application-level ID of a vertex (gdi.PropertyTypeID, which
//     gdi import sets from an :ID column) is the key IDKey,
//     "GDI_PROPERTY_TYPE_ID", read as a String. Its family is that
//     predefined property type alone; Cypher does not write it, as GDI
//     keeps the ID in its implicit index too.
//
// # Costs
//
//   - The catalog holds up to five property types per key. Labels and
//     property types are created collectively (Schema.Ensure), before the
//     statement that needs them runs, so every rank creates the same in
//     the same order.
//   - Reading a key of an object is one Properties call per member of the
//     family (at most six) on a holder already read: no one-sided call.
//   - Writing a key is one AddProperty and a RemoveProperties per other
//     member the object has, all in the holder's copy, committed together.
//   - A comparison pushed into a GDI constraint becomes one subconstraint
//     per member whose kind can compare (an integer and a float compare:
//     two); the rest stays a filter.
package graph
