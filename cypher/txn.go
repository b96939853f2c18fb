package cypher

import (
	"context"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdiutil"
)

// runTransaction is gdiutil.RunTransaction: a single-process transaction
// retried on conflicts.
func runTransaction(ctx context.Context, db gdi.Database, fn func(gdi.Transaction) error) error {
	return gdiutil.RunTransaction(ctx, db, fn)
}
