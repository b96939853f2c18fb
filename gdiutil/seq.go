package gdiutil

import (
	"context"
	"iter"

	"github.com/gdi-go/gdi/gdi"
)

// The queries of gdi return UIDs, as the specification's routines return
// arrays of them; a program then associates a holder with each UID, one
// call and one read of the object each. The sequences below do that
// association as a range loop reaches each UID, so a loop that breaks
// early reads no further objects, and no slice of holders is built. They
// check ctx before each holder; once it is done, they yield its error and
// stop. Holders stay valid until the transaction ends, as always.

// Vertices yields a holder of every vertex of idx that satisfies c
// (Transaction.VerticesOfIndex).
func Vertices(ctx context.Context, tx gdi.Transaction, idx gdi.Index, c gdi.Constraint) iter.Seq2[gdi.VertexHolder, error] {
	return holders(ctx, func() ([]gdi.VertexUID, error) { return tx.VerticesOfIndex(idx, c) }, tx.AssociateVertex)
}

// LocalVertices yields a holder of every vertex of idx that satisfies c
// and is stored on the calling rank (Transaction.LocalVerticesOfIndex).
func LocalVertices(ctx context.Context, tx gdi.Transaction, idx gdi.Index, c gdi.Constraint) iter.Seq2[gdi.VertexHolder, error] {
	return holders(ctx, func() ([]gdi.VertexUID, error) { return tx.LocalVerticesOfIndex(idx, c) }, tx.AssociateVertex)
}

// Edges yields a holder of every edge of v that matches o and satisfies c
// (VertexHolder.Edges).
func Edges(ctx context.Context, tx gdi.Transaction, v gdi.VertexHolder, o gdi.Orientation, c gdi.Constraint) iter.Seq2[gdi.EdgeHolder, error] {
	return holders(ctx, func() ([]gdi.EdgeUID, error) { return v.Edges(o, c) }, tx.AssociateEdge)
}

// Neighbors yields a holder of every vertex at the other end of the edges
// of v that match o and satisfy c, each once (VertexHolder.Neighbors).
func Neighbors(ctx context.Context, tx gdi.Transaction, v gdi.VertexHolder, o gdi.Orientation, c gdi.Constraint) iter.Seq2[gdi.VertexHolder, error] {
	return holders(ctx, func() ([]gdi.VertexUID, error) { return v.Neighbors(o, c) }, tx.AssociateVertex)
}

// holders runs query and yields the holder that associate returns for
// each of its UIDs, with a nil error; or a nil holder and the first error
// of query, associate or ctx, after which it stops.
func holders[U any, H any](ctx context.Context, query func() ([]U, error), associate func(U) (H, error)) iter.Seq2[H, error] {
	return func(yield func(H, error) bool) {
		var none H
		if err := ctx.Err(); err != nil {
			yield(none, err)
			return
		}
		uids, err := query()
		if err != nil {
			yield(none, err)
			return
		}
		for _, u := range uids {
			if err := ctx.Err(); err != nil {
				yield(none, err)
				return
			}
			h, err := associate(u)
			if err != nil {
				yield(none, err)
				return
			}
			if !yield(h, nil) {
				return
			}
		}
	}
}
