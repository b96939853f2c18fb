package bgdl

import (
	"errors"
	"fmt"
)

// DPtr is a distributed pointer: the rank in the top 16 bits and a byte
// offset into that rank's part of a window in the low 48 bits. The zero
// DPtr is Null.
type DPtr uint64

// Null points nowhere.
const Null DPtr = 0

const (
	offsetBits = 48
	offsetMask = 1<<offsetBits - 1
	// MaxRank is the largest rank a DPtr can name.
	MaxRank = 1<<16 - 1
	// MaxOffset is the largest offset a DPtr can hold.
	MaxOffset = offsetMask
)

// ErrDPtr reports a rank or offset that does not fit a DPtr.
var ErrDPtr = errors.New("bgdl: rank or offset does not fit a DPtr")

// MakeDPtr returns the DPtr of offset on rank.
func MakeDPtr(rank, offset int) (DPtr, error) {
	if rank < 0 || rank > MaxRank || offset < 0 || offset > MaxOffset {
		return Null, fmt.Errorf("%w: rank %d, offset %d", ErrDPtr, rank, offset)
	}
	return dptr(rank, offset), nil
}

// dptr builds a DPtr from values already known to fit.
func dptr(rank, offset int) DPtr {
	return DPtr(uint64(rank)<<offsetBits | uint64(offset))
}

// Rank is the rank p points into.
func (p DPtr) Rank() int { return int(p >> offsetBits) }

// Offset is the byte offset p points to.
func (p DPtr) Offset() int { return int(p & offsetMask) }

// IsNull reports whether p is Null.
func (p DPtr) IsNull() bool { return p == Null }

// String formats p as rank:0xoffset, or "null".
func (p DPtr) String() string {
	if p.IsNull() {
		return "null"
	}
	return fmt.Sprintf("%d:%#x", p.Rank(), p.Offset())
}
