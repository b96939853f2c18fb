package store

import "github.com/gdi-go/gdi/bgdl"

// ScanPrimaries calls fn with every block of rank, up to its high-water
// mark, whose marker says it is the primary block of a holder of kind k.
// It reads the blocks a megabyte at a time, without locks: fn reads the
// holder it is given as any reader does.
func (s *Store) ScanPrimaries(rank int, k Kind, fn func(p bgdl.DPtr) error) error {
	const chunk = 1 << 20
	hw, err := s.HighWater(rank)
	if err != nil {
		return err
	}
	per := max(1, chunk/s.bs)
	buf := make([]byte, per*s.bs)
	for b0 := 1; b0 <= hw; b0 += per {
		cnt := min(per, hw-b0+1)
		if err := s.data.Get(buf[:cnt*s.bs], rank, b0*s.bs); err != nil {
			return Internal(err)
		}
		if err := s.data.Flush(rank); err != nil {
			return Internal(err)
		}
		for i := range cnt {
			if IsPrimary(buf[i*s.bs:], k) {
				if err := fn(s.BlockAt(rank, b0+i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
