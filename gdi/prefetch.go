package gdi

// VertexIDPrefetcher is an optional interface of a Database (an extension
// of the binding). PrefetchVertexID(l, id) tells the backend that a
// transaction of the calling rank will soon translate (l, id) with
// Transaction.TranslateVertexID. A backend whose index of IDs lives in
// memory can start loading the part the lookup will read, and return at
// once: the lookup, a little later, then finds it in the cache. A program
// that knows its next request while it serves the current one (a server
// with a queue, a benchmark driver) overlaps the two that way.
//
// It is a hint. It changes nothing a transaction can see, reports no
// error, and may do nothing at all: an unknown or freed label, LabelNone,
// an ID of any length and a freed database are all ignored. It is safe
// for concurrent use, and does not keep id after it returns.
//
// Callers discover it with a type assertion and go without where a
// backend lacks it.
type VertexIDPrefetcher interface {
	PrefetchVertexID(l Label, id []byte)
}
