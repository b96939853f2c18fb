package store

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/rma/count"
	"github.com/gdi-go/gdi/txn"
)

// TestBeginReads: reads of several holders begun together cost three
// round trips in all (a batch of lock words, the gets, the batch again;
// none for a checked block);
// a Read given its Begun then copies what the batch got with no further
// call, and the same image as a read alone; a long one it must read on
// checks the lock word afterwards. A holder a writer changed after the
// batch reads as the batch saw it, with the stamp that says so, and one a
// writer held or changed during the batch is read anew.
func TestBeginReads(t *testing.T) {
	withCounted(t, func(s *Store, cc *count.Comm) error {
		short, err := acquire(s, 0, 1) // a checked block
		if err != nil {
			return err
		}
		if err := s.write(&Plan{Kind: Vertex, Holder: short[0], Chain: short, Image: Parts{Head: pattern(50, 1), Refs: -1}, Stamped: true}, 3); err != nil {
			return err
		}
		long, _ := mustPut(t, s, Vertex, pattern(firstBytes+2*contBytes, 2))
		held, _ := mustPut(t, s, Vertex, pattern(60, 3))
		changed, _ := mustPut(t, s, Vertex, pattern(70, 4))
		during, _ := mustPut(t, s, Vertex, pattern(80, 6))
		ps := []bgdl.DPtr{short[0], long[0], held[0], changed[0], during[0], bgdl.Null}
		rqs := make([]Request, len(ps))
		for i := range rqs {
			rqs[i].Mode = Whole
		}
		rqs[0].Mode = Prefix | Checked
		want := make([]Image, len(ps))
		for i, p := range ps[:5] {
			want[i] = mustRead(t, s, p, rqs[i])
		}
		// A writer changes one holder between the batch's gets and its
		// second look at the lock words.
		var rewriting count.Counts
		testHookBegun = func() {
			before := cc.Counts()
			defer func() { rewriting = cc.Counts().Sub(before) }()
			v, err := rewrite(s, Vertex, during, Parts{Head: pattern(80, 7), Refs: -1})
			if err != nil {
				t.Error(err)
			}
			want[4] = Image{Bytes: pattern(80, 7), Version: v}
		}
		defer func() { testHookBegun = nil }()
		writer := txn.NewLockSet(s.locks)
		if err := writer.Lock(1, s.LockAddr(held[0]), txn.Write); err != nil {
			return err
		}
		begun := make([]Begun, len(ps))
		before := cc.Counts()
		if err := s.BeginReads(ps, rqs, begun); err != nil {
			return err
		}
		testHookBegun = nil
		// No lock word of the checked block is read.
		if d := cc.Counts().Sub(before).Sub(rewriting); d.Gets != 4 || d.MPI != (4+1)+(4+1)+(4+1) {
			return fmt.Errorf("5 reads begun: %+v; want 4 gets (not of the held holder) and 15 MPI calls", d)
		}
		defer s.EndReads(begun)
		if err := writer.ReleaseAll(); err != nil {
			return err
		}
		if _, err := rewrite(s, Vertex, changed, Parts{Head: pattern(70, 5), Refs: -1}); err != nil {
			return err
		}
		for i, c := range []struct {
			name  string
			calls uint64
		}{{"short, in a checked block", 0}, {"long, read whole", 5}, {"held during the batch", 4}, {"changed after the batch", 0}, {"changed during the batch", 5}} {
			var img Image
			rq := rqs[i]
			rq.Begun = &begun[i]
			before := cc.Counts()
			ok, err := s.Read(ps[i], &rq, &img)
			if err != nil || !ok {
				return fmt.Errorf("%s: Read = %v, %v", c.name, ok, err)
			}
			if n := cc.Counts().Sub(before).Calls(); n != c.calls {
				return fmt.Errorf("%s: Read after the batch made %d calls, want %d", c.name, n, c.calls)
			}
			if !bytes.Equal(img.Bytes, want[i].Bytes) || img.Version != want[i].Version || !img.Stamped {
				return fmt.Errorf("%s: read %d bytes, version %v, stamped %v; want the image read alone", c.name, len(img.Bytes), img.Version, img.Stamped)
			}
			if valid, err := s.StillValid(ps[i], img.Stamp); err != nil || valid != (i != 3) {
				return fmt.Errorf("%s: the stamp read is valid %v (%v), want %v", c.name, valid, err, i != 3)
			}
		}
		return nil
	})
}
