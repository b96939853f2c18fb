package store

import (
	"encoding/binary"

	"github.com/cespare/xxhash/v2"

	"github.com/gdi-go/gdi/bgdl"
)

// Chain sums. The blocks of a long image are found by walking its chain,
// one dependent read a block. A reader that remembers a holder's chain
// (package gdirma remembers those of hubs) can skip the walk if it can
// tell that the chain is still the one it remembers, and the primary
// block says so: the writer of an image that spans blocks puts a sum of
// the chain's blocks, primary first, in the high half of the length word,
// which such an image leaves free (a single-block image keeps its check
// there, checked.go). Every write of a long image goes through write,
// which knows the whole chain, so the sum is never out of date; a chain
// that differs has another sum but for a chance of 2^-32.
//
// The sum proves which blocks are the holder's, not what they hold: a
// reader still reads what it uses from them, and checks its copy against
// the lock word as for any read without a lock.

// ChainSum is the sum of a chain of blocks, primary first, never 0.
func ChainSum(chain []bgdl.DPtr) uint32 {
	var d xxhash.Digest
	d.Reset()
	var b [8]byte
	for _, p := range chain {
		binary.LittleEndian.PutUint64(b[:], uint64(p))
		_, _ = d.Write(b[:])
	}
	return max(uint32(d.Sum64()), 1)
}

// chainSumOf is the chain sum in blk, a primary block read from its
// start, 0 if it has none: the image fits in the block, or was written
// before chains had sums.
func (s *Store) chainSumOf(blk []byte, length int) uint32 {
	if length <= s.bs-PrimaryHeader {
		return 0
	}
	return binary.LittleEndian.Uint32(blk[lengthWord+4:])
}
