package gdi

// Checkpointer is implemented by a Database that can write itself to
// files, from which the backend can create it again (an extension of the
// binding; GDI v0.9 keeps databases in memory only). How a database is
// created from a checkpoint is the backend's business: a parameter of
// Driver.CreateDatabase, such as gdirma's Params.Restore.
//
// Checkpoint is collective and needs a quiet database: ErrConsistency if
// any rank has an open transaction. Every rank passes the same dir, which
// all ranks must reach as the same directory. A checkpoint already in dir
// is replaced atomically: until the new one is complete and durable, the
// old one stays, so an error or a crash at any moment leaves dir holding
// one whole checkpoint. File errors are ErrNoSuchFile, ErrAccess,
// ErrNoSpace, ErrQuota, ErrReadOnlyFile or ErrIO, and name the file;
// every rank returns the same class.
type Checkpointer interface {
	Checkpoint(dir string) error
}
