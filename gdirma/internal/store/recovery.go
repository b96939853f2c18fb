package store

import (
	"encoding/binary"

	"github.com/gdi-go/gdi/gdi"
)

// Recovery. After a restore and the replay of the redo log, the holders
// are all that is known to be right: the free lists, high-water marks and
// commit counters are rebuilt from them. UsedBlocks walks this rank's
// primary blocks; their chains name blocks on every rank, which the
// caller sends to their ranks (an Alltoallv); RebuildPool takes what this
// rank was sent.

// UsedBlocks walks this rank's primary blocks and returns, per rank, the
// numbers of the blocks of their chains (a little-endian uint32 each), and
// per rank the highest commit count among the versions of the holders.
// The database must be quiet.
func (s *Store) UsedBlocks() (used [][]byte, maxCount []uint64, err error) {
	used, maxCount = make([][]byte, s.size), make([]uint64, s.size)
	buf := make([]byte, PrimaryHeader)
	var img Image
	for b := 1; b <= s.pool.Blocks(); b++ {
		p := s.BlockAt(s.rank, b)
		if err := s.Get(buf, p, 0); err != nil {
			return nil, nil, err
		}
		_, v, _, ok := PrimaryOf(buf)
		if !ok {
			continue
		}
		if r := v.Rank(); r < s.size {
			maxCount[r] = max(maxCount[r], v.Count())
		}
		if ok, err := s.Read(p, &Request{Mode: Chain}, &img); err != nil || !ok {
			return nil, nil, gdi.Errorf(gdi.ErrIntern, "gdirma: recovery: holder %v: %v", p, err)
		}
		for _, c := range img.Chain {
			used[c.Rank()] = binary.LittleEndian.AppendUint32(used[c.Rank()], uint32(s.BlockIndex(c)))
		}
	}
	return used, maxCount, nil
}

// RebuildPool rebuilds this rank's free list and high-water mark from the
// lists of its blocks in use that every rank's UsedBlocks gave (recv).
func (s *Store) RebuildPool(recv [][]byte) error {
	blocks := s.pool.Blocks()
	inUse := make([]bool, blocks+1)
	hw := 0
	for _, b := range recv {
		for i := 0; i+4 <= len(b); i += 4 {
			x := int(binary.LittleEndian.Uint32(b[i:]))
			if x >= 1 && x <= blocks {
				inUse[x] = true
				hw = max(hw, x)
			}
		}
	}
	if _, err := s.pool.Rebuild(func(b int) bool { return inUse[b] }); err != nil {
		return err
	}
	return s.SetHighWater(hw)
}
