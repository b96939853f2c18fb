package store

import (
	"encoding/binary"
	"hash/crc32"

	"github.com/gdi-go/gdi/bgdl"
)

// Checked blocks. A read without a lock costs three round trips: the lock
// word, the block, the lock word again (Read). Most holders fit in their
// primary block, and for them one access can do: the writer of such an
// image, holding the holder's lock, puts into the block
//
//   - in the high half of the length word, a check: a CRC-32C of the
//     block's bytes up to the end of the image, taken with the check
//     itself zero (0 stands for no check, so a CRC of 0 is stored as 1);
//   - in the next word, which names no block for such an image, the
//     stamp: the lock word the writer leaves when it lets the lock go
//     (txn.Released of the word it took it from).
//
// A reader that gets the block and finds the check right holds an image
// that was committed whole (a writer installs only what its commit has
// decided, so an image installed under a lock still held is committed),
// and the lock word under which it is current: it takes that as its
// stamp, as if it had read the lock word before and after. It does not
// wait for a writer that holds the lock, as the long way does; where
// writers contend, that costs validations, and the holders concerned are
// read the long way for a while (hints.go). A torn copy fails the check (but for a chance of 2^-32), and so
// does a block written over in place (patchHead, patchBlocks), whose
// version at least changed: such reads go the long way until the block
// is written whole again.
//
// The stamp may be stale: a writer that took the lock and let it go
// without writing moves the lock word but not the block. A stale stamp
// only fails validations that compare lock words; the caller then
// compares versions (package gdirma), which decide correctly either way.

// lengthMask is the length's half of the length word.
const lengthMask = 1<<32 - 1

// castagnoli is the CRC-32C table (hardware-accelerated where the CPU has
// it).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// noCheck is the four bytes of a check taken as zero. (A package
// variable: a local array would escape to the heap through crc32.)
var noCheck [4]byte

// checkOf computes the check of blk, the bytes of a primary block up to
// the end of its image: the CRC of blk with the check's four bytes taken
// as zero, never 0.
func checkOf(blk []byte) uint32 {
	c := crc32.Update(0, castagnoli, blk[:lengthWord+4])
	c = crc32.Update(c, castagnoli, noCheck[:])
	c = crc32.Update(c, castagnoli, blk[lengthWord+8:])
	return max(c, 1)
}

// setCheck makes blk, a primary block holding a whole image of length
// size (up to its end), checked with stamp: see above.
func setCheck(blk []byte, size int, stamp uint64) {
	binary.LittleEndian.PutUint64(blk[nextWord:], stamp)
	binary.LittleEndian.PutUint64(blk[lengthWord:], uint64(size))
	binary.LittleEndian.PutUint32(blk[lengthWord+4:], checkOf(blk))
}

// checkHolds returns, if blk (a primary block read from its start up to
// the end of the image it holds whole) has a right check, its stamp.
func checkHolds(blk []byte) (stamp uint64, ok bool) {
	check := binary.LittleEndian.Uint32(blk[lengthWord+4:])
	if check == 0 || checkOf(blk) != check {
		return 0, false
	}
	return binary.LittleEndian.Uint64(blk[nextWord:]), true
}

// readChecked is the read of a checked block (above): one access, two if
// the image goes on past the lead of a prefix read. done is false if the
// block is no checked one, or the copy failed the check; the caller then
// reads the holder the long way.
func (s *Store) readChecked(p bgdl.DPtr, rq *Request, img *Image) (done bool, err error) {
	bp := s.BlockBuf()
	blk := *bp
	defer s.PutBlockBuf(bp)
	lead := s.leadOf(p, rq)
	if err := s.Get(blk[:lead], p, 0); err != nil {
		return false, err
	}
	k, v, length, ok := PrimaryOf(blk)
	if !ok {
		return false, nil
	}
	s.sawLength(p, length)
	end := PrimaryHeader + length
	if end > s.bs {
		return false, nil // the image spans blocks: no check
	}
	if end > lead {
		if err := s.Get(blk[lead:end], p, lead); err != nil {
			return false, err
		}
	}
	stamp, ok := checkHolds(blk[:end])
	if !ok {
		return false, nil
	}
	*img = Image{Kind: k, Version: v, Length: length, Single: true, Stamp: stamp, Stamped: true}
	if rq.Mode&Chain != 0 {
		img.Chain = append(rq.Chain[:0], p)
	}
	img.Bytes = s.imageBuf(length, rq)
	copy(img.Bytes, blk[PrimaryHeader:end])
	return true, nil
}
