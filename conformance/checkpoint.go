package conformance

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// The cases of gdi.Checkpointer, for backends that implement it and say
// how to restore (Backend.Restore); others skip them.
var checkpointCases = []Case{
	c("Checkpoint/restore-keeps-the-graph", ckptRestore),
	c("Checkpoint/later-checkpoint-replaces-earlier", ckptReplace),
	c("Checkpoint/needs-quiet-database", ckptQuiet),
	c("Checkpoint/file-error-alike-on-every-rank-keeps-previous", ckptFileError),
}

// checkpointer returns the database as a gdi.Checkpointer, or skips the
// case.
func (e *Env) checkpointer() gdi.Checkpointer {
	cp, ok := e.DB.(gdi.Checkpointer)
	if !ok || e.backend.Restore == nil {
		e.Skipf("%s has no gdi.Checkpointer, or no Backend.Restore", e.backend.Name)
	}
	return cp
}

// sharedPath returns rank 0's path name under TempDir on every rank (under
// MPI every process has a temporary directory of its own).
func (e *Env) sharedPath(name string) string {
	b := []byte(filepath.Join(e.dir, name))
	n := binary.LittleEndian.AppendUint64(nil, uint64(len(b)))
	okf(e.Comm.Bcast(n, 0), "Bcast")
	if e.Rank() != 0 {
		b = make([]byte, binary.LittleEndian.Uint64(n))
	}
	okf(e.Comm.Bcast(b, 0), "Bcast")
	return string(b)
}

// restored creates a database from the checkpoint in dir (collective); it
// is freed after the case.
func (e *Env) restored(dir string) gdi.Database {
	db, err := e.backend.Driver.CreateDatabase(e.Comm, e.backend.Restore(dir))
	okf(err, "CreateDatabase from the checkpoint in %s", dir)
	e.extra = append(e.extra, db)
	return db
}

// ckptGraph makes, on every rank, the vertices x and y with label A and
// properties, an edge x→y, and an index of A.
func ckptGraph(e *Env) {
	a := e.label("A")
	name := e.single("name", gdi.Char)
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(a), "Index.AddLabel")
	e.update(func(tx gdi.Transaction) {
		x := vertex(tx, e.id("x"), ls(a), prop{name, gdi.Chars("ex")})
		y := vertex(tx, e.id("y"), ls(a), prop{name, gdi.Chars("why")})
		must(tx.CreateEdge(gdi.Directed, x, y))
	})
	e.barrier()
}

// describe returns what a restore must keep of ckptGraph's graph, as seen
// through db: the names of the labels and property types, and for each
// vertex of the index of every rank its ID, labels, name and neighbours.
func describe(e *Env, db gdi.Database) []string {
	var out []string
	for _, l := range must(db.Labels()) {
		out = append(out, "label "+must(db.LabelName(l)))
	}
	name := must(db.PropertyTypeFromName("name"))
	a := must(db.LabelFromName("A"))
	idxs := must(db.Indexes())
	if len(idxs) != 1 {
		failf("%d indexes, want 1", len(idxs))
	}
	tx := must(db.StartTransaction())
	defer abortQuietly(tx)
	for _, u := range must(tx.VerticesOfIndex(idxs[0], nil)) {
		v := assoc(tx, u)
		id := idsOfVertices(tx, []gdi.VertexUID{u})[0]
		var labels []string
		for _, l := range must(v.Labels()) {
			labels = append(labels, must(db.LabelName(l)))
		}
		names := must(v.Properties(name))
		var next []string
		for _, w := range must(v.Neighbors(gdi.EdgeOutgoing, nil)) {
			next = append(next, idsOfVertices(tx, []gdi.VertexUID{w})...)
		}
		out = append(out, fmt.Sprintf("vertex %s labels %v name %v next %v (A: %v)", id, labels, names, next, exists(tx, a, []byte(id))))
	}
	slices.Sort(out)
	return out
}

func ckptRestore(e *Env) {
	cp := e.checkpointer()
	ckptGraph(e)
	dir := e.sharedPath("ckpt")
	want := describe(e, e.DB)
	okf(cp.Checkpoint(dir), "Checkpoint")
	got := describe(e, e.restored(dir))
	sameStrings(got, want, "the restored database")
	if len(want) != 1+2*e.Size() { // label A, then x and y of every rank
		failf("the description has %d lines: %v", len(want), want)
	}
}

func ckptReplace(e *Env) {
	cp := e.checkpointer()
	ckptGraph(e)
	dir := e.sharedPath("ckpt")
	okf(cp.Checkpoint(dir), "first Checkpoint")
	e.label("B")
	want := describe(e, e.DB)
	okf(cp.Checkpoint(dir), "second Checkpoint to the same directory")
	sameStrings(describe(e, e.restored(dir)), want, "the database restored after the second checkpoint")
}

func ckptQuiet(e *Env) {
	cp := e.checkpointer()
	dir := e.sharedPath("ckpt")
	var tx gdi.Transaction
	if e.Rank() == e.Size()-1 {
		tx = e.tx()
	}
	is(cp.Checkpoint(dir), gdi.ErrConsistency, "Checkpoint while the last rank has an open transaction")
	if tx != nil {
		okf(tx.Abort(), "Abort")
	}
	okf(cp.Checkpoint(dir), "Checkpoint of the quiet database")
}

// ckptFileError: a checkpoint to a path that cannot be a directory fails
// on every rank with the same file error class, and the earlier
// checkpoint of the database stays restorable.
func ckptFileError(e *Env) {
	cp := e.checkpointer()
	ckptGraph(e)
	good := e.sharedPath("ckpt")
	okf(cp.Checkpoint(good), "Checkpoint")
	want := describe(e, e.DB)
	file := e.sharedPath("a-file")
	if e.Rank() == 0 {
		if err := os.WriteFile(file, []byte("not a directory"), 0o644); err != nil {
			e.Fatalf("writing %s: %v", file, err)
		}
	}
	e.barrier()
	err := cp.Checkpoint(filepath.Join(file, "ckpt"))
	isOneOf(err, []gdi.Code{gdi.ErrIO, gdi.ErrNoSuchFile, gdi.ErrAccess}, "Checkpoint below a regular file")
	e.sameOnAllRanks(uint64(gdi.ErrorClass(err)), "the class of the failed Checkpoint's error")
	sameStrings(describe(e, e.restored(good)), want, "the earlier checkpoint after a failed one")
}
