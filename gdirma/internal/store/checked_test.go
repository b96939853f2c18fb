package store

import (
	"bytes"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gdi-go/gdi/bgdl"

	"github.com/gdi-go/gdi/rma/count"
)

// TestCheckedRead: an image its primary block holds whole, written with a
// stamp, is read in one access (by a reader that takes checked blocks)
// and comes with that stamp; a multi-block
// image, an unstamped one, a block changed in place and a block with a
// byte flipped are not, and Read then reads them the long way.
func TestCheckedRead(t *testing.T) {
	withCounted(t, func(s *Store, cc *count.Comm) error {
		chain, err := acquire(s, 0, 3)
		if err != nil {
			return err
		}
		p := chain[0]
		write := func(img []byte, blocks int, stamped bool) error {
			return s.write(&Plan{Kind: Vertex, Holder: p, Chain: chain[:blocks], Image: Parts{Head: img, Refs: -1}, Stamp: 7 << 32, Stamped: stamped}, 3)
		}
		checkedRead := func() (Image, bool, error) {
			var img Image
			ok, err := s.readChecked(p, &Request{}, &img)
			return img, ok, err
		}
		short := pattern(100, 1)
		if err := write(short, 1, true); err != nil {
			return err
		}
		before := cc.Counts()
		img, ok, err := readImg(s, p, &Request{Mode: Checked})
		if got := cc.Counts().Sub(before); err != nil || !ok || !bytes.Equal(img.Bytes, short) || img.Stamp != 7<<32 || !img.Stamped || got.Atomics != 0 || got.Gets != 1 {
			return fmt.Errorf("a checked block: ok %v, %v, image right %v, stamp %x (%v), calls %+v; want the image, stamp %x, one get and no atomic",
				ok, err, bytes.Equal(img.Bytes, short), img.Stamp, img.Stamped, got, uint64(7<<32))
		}
		for _, c := range []struct {
			name  string
			setup func() error
		}{
			{"unstamped", func() error { return write(short, 1, false) }},
			{"multi-block", func() error { return write(pattern(firstBytes+10, 2), 2, true) }},
			{"written over in place", func() error {
				if err := write(short, 1, true); err != nil {
					return err
				}
				return s.patchHead(p, 4, []byte{9})
			}},
			{"a byte flipped", func() error {
				if err := write(short, 1, true); err != nil {
					return err
				}
				return s.Put([]byte{0xff}, p, PrimaryHeader+50)
			}},
		} {
			if err := c.setup(); err != nil {
				return err
			}
			if _, ok, err := checkedRead(); ok || err != nil {
				return fmt.Errorf("%s: read as checked (%v)", c.name, err)
			}
			if _, ok, err := readImg(s, p, &Request{Mode: Checked}); !ok || err != nil {
				return fmt.Errorf("%s: the long read failed: %v, %v", c.name, ok, err)
			}
		}
		return nil
	})
}

// TestCheckedReadsNotTorn: a writer rewrites a holder, without a lock,
// with images of one byte repeated (each value its own length, all within
// the primary block), while readers copy it in one access. Every copy
// that passes the check must be one image whole.
func TestCheckedReadsNotTorn(t *testing.T) {
	withCounted(t, func(s *Store, _ *count.Comm) error {
		chain, err := acquire(s, 0, 1)
		if err != nil {
			return err
		}
		p := chain[0]
		image := func(b byte) []byte { return bytes.Repeat([]byte{b}, 20+int(b)%200) }
		put := func(b byte) error {
			return s.write(&Plan{Kind: Vertex, Holder: p, Chain: chain, Image: Parts{Head: image(b), Refs: -1}, Stamp: uint64(b) << 32, Stamped: true}, Version(b)+1)
		}
		if err := put(0); err != nil {
			return err
		}
		var done atomic.Bool
		var checked atomic.Int64
		var wg sync.WaitGroup
		errs := make(chan error, 3)
		wg.Go(func() {
			defer done.Store(true)
			for i := range 20000 {
				if err := put(byte(i)); err != nil {
					errs <- err
					return
				}
			}
		})
		for range 2 {
			wg.Go(func() {
				for !done.Load() {
					var img Image
					ok, err := s.readChecked(p, &Request{Mode: Prefix}, &img)
					if err != nil {
						errs <- err
						return
					}
					if !ok {
						continue
					}
					checked.Add(1)
					if b := img.Bytes[0]; !bytes.Equal(img.Bytes, image(b)) || img.Stamp != uint64(b)<<32 || img.Version != Version(b)+1 {
						errs <- fmt.Errorf("a torn copy passed the check: %d bytes of %d, stamp %x, version %d", len(img.Bytes), b, img.Stamp, img.Version)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			return err
		}
		if checked.Load() == 0 {
			return fmt.Errorf("no copy passed the check")
		}
		return nil
	})
}

// TestLongHint: a holder that spans blocks costs its first reader a get in
// vain, and no reader after that; once it fits its primary block again,
// the read that finds so is the last the long way.
func TestLongHint(t *testing.T) {
	withCounted(t, func(s *Store, cc *count.Comm) error {
		chain, err := acquire(s, 0, 2)
		if err != nil {
			return err
		}
		p := chain[0]
		write := func(n, blocks int) error {
			return s.write(&Plan{Kind: Vertex, Holder: p, Chain: chain[:blocks], Image: Parts{Head: pattern(n, 5), Refs: -1}, Stamped: true}, 3)
		}
		gets := func() (string, error) {
			before := cc.Counts()
			_, ok, err := readImg(s, p, &Request{Mode: Checked})
			if err == nil && !ok {
				err = fmt.Errorf("holder not found")
			}
			got := cc.Counts().Sub(before)
			return fmt.Sprintf("%d/%d", got.Gets, got.Atomics), err
		}
		if err := write(firstBytes+10, 2); err != nil {
			return err
		}
		var got []string
		for range 2 {
			n, err := gets()
			if err != nil {
				return err
			}
			got = append(got, n)
		}
		if err := write(50, 1); err != nil {
			return err
		}
		for range 2 {
			n, err := gets()
			if err != nil {
				return err
			}
			got = append(got, n)
		}
		// Gets/atomics. Two blocks: a get in vain, then the long way (the
		// lock word, two blocks, the lock word), then the long way at once.
		// One block: the long way once more, then checked.
		if want := []string{"3/2", "2/2", "1/2", "1/0"}; fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("gets/atomics of four reads = %v, want %v", got, want)
		}
		return nil
	})
}

// TestWideHint: a prefix read of a holder whose image fits its primary
// block but not the lead gets the rest in a second access the first
// time, and the whole block at once after that; once the image fits the
// lead again, the read that finds so is the last to get the whole block.
func TestWideHint(t *testing.T) {
	cfg := testConfig
	cfg.BlockSize = 4 * PrefixLead
	withCountedConfig(t, cfg, func(s *Store, cc *count.Comm) error {
		chain, err := acquire(s, 0, 1)
		if err != nil {
			return err
		}
		p := chain[0]
		write := func(n int) error {
			return s.write(&Plan{Kind: Vertex, Holder: p, Chain: chain, Image: Parts{Head: pattern(n, 7), Refs: -1}, Stamped: true}, 3)
		}
		var got []string
		reads := func(k, n int) error {
			for range k {
				before := cc.Counts()
				img, ok, err := readImg(s, p, &Request{Mode: Prefix | Checked})
				if err == nil && (!ok || !img.Single || img.Length != n) {
					err = fmt.Errorf("a prefix read of a holder of %d bytes in one block: found %v, Single %v, length %d", n, ok, img.Single, img.Length)
				}
				if err != nil {
					return err
				}
				d := cc.Counts().Sub(before)
				got = append(got, fmt.Sprintf("%d/%d", d.Gets, d.Bytes))
			}
			return nil
		}
		wide, narrow := 3*PrefixLead, PrefixLead/2
		if err := write(wide); err != nil {
			return err
		}
		if err := reads(2, wide); err != nil {
			return err
		}
		if err := write(narrow); err != nil {
			return err
		}
		if err := reads(2, narrow); err != nil {
			return err
		}
		// Gets/bytes: the lead and the rest of the image, then the block;
		// the block, then the lead.
		bs, end := cfg.BlockSize, PrimaryHeader+wide
		want := []string{fmt.Sprintf("2/%d", end), fmt.Sprintf("1/%d", bs), fmt.Sprintf("1/%d", bs), fmt.Sprintf("1/%d", PrefixLead)}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("gets/bytes of four prefix reads = %v, want %v", got, want)
		}
		return nil
	})
}

// TestWideHintOfLongImages: a prefix read of a vertex whose image spans
// blocks, and whose labels and properties do not fit in the lead, gets
// the rest of the primary block in a second access the first time, and
// the whole block at once after that; once they fit the lead again, the
// read that finds so is the last to get the whole block.
func TestWideHintOfLongImages(t *testing.T) {
	cfg := testConfig
	cfg.BlockSize = 4 * PrefixLead
	withCountedConfig(t, cfg, func(s *Store, cc *count.Comm) error {
		chain, err := acquire(s, 0, 4)
		if err != nil {
			return err
		}
		p := chain[0]
		var got []string
		step := func(propLen int) error {
			img, _ := vertexImage(s, p, propLen, 150, 0)
			if n := s.BlocksFor(len(img)); n < 2 || n > len(chain) {
				return fmt.Errorf("an image of %d bytes takes %d blocks", len(img), n)
			}
			if err := s.write(&Plan{Kind: Vertex, Holder: p, Chain: chain[:s.BlocksFor(len(img))], Image: Parts{Head: img, Refs: -1}}, 3); err != nil {
				return err
			}
			for range 2 {
				before := cc.Counts()
				if _, ok, err := readImg(s, p, &Request{Mode: Prefix}); err != nil || !ok {
					return fmt.Errorf("a prefix read: %v %v", ok, err)
				}
				d := cc.Counts().Sub(before)
				got = append(got, fmt.Sprintf("%d/%d", d.Gets, d.Bytes-8*d.Atomics)) // the bytes of the gets
			}
			return nil
		}
		if err := step(2 * PrefixLead); err != nil {
			return err
		}
		if err := step(8); err != nil {
			return err
		}
		bs := cfg.BlockSize
		want := []string{fmt.Sprintf("2/%d", bs), fmt.Sprintf("1/%d", bs), fmt.Sprintf("1/%d", bs), fmt.Sprintf("1/%d", PrefixLead)}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("gets/bytes of four prefix reads = %v, want %v", got, want)
		}
		return nil
	})
}

// TestBusyHint: a holder marked busy (a copy of it failed validation) is
// read the long way, waiting for writers, until busyDecay marks later.
func TestBusyHint(t *testing.T) {
	withCounted(t, func(s *Store, cc *count.Comm) error {
		chain, err := acquire(s, 0, 1)
		if err != nil {
			return err
		}
		p := chain[0]
		if err := s.write(&Plan{Kind: Vertex, Holder: p, Chain: chain, Image: Parts{Head: pattern(50, 6), Refs: -1}, Stamped: true}, 3); err != nil {
			return err
		}
		atomics := func() (uint64, error) {
			before := cc.Counts()
			_, ok, err := readImg(s, p, &Request{Mode: Checked})
			if err == nil && !ok {
				err = fmt.Errorf("holder not found")
			}
			return cc.Counts().Sub(before).Atomics, err
		}
		var got []uint64
		step := func() error {
			n, err := atomics()
			got = append(got, n)
			return err
		}
		if err := step(); err != nil {
			return err
		}
		s.MarkBusy(p)
		if err := step(); err != nil {
			return err
		}
		for range busyDecay - 1 {
			s.MarkBusy(bgdl.Null)
		}
		if err := step(); err != nil {
			return err
		}
		if want := []uint64{0, 2, 0}; fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("atomics of a read: before the mark, after, after the decay = %v, want %v", got, want)
		}
		return nil
	})
}
