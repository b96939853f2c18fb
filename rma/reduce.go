package rma

import "fmt"

// Number is the element type of a reduction.
type Number interface{ ~int64 | ~uint64 | ~float64 }

// Allreduce reduces buf in place across all ranks of c under op. It picks the
// Comm method for T, so generic code need not switch on the element type.
func Allreduce[T Number](c Comm, buf []T, op Op) error {
	switch b := any(buf).(type) {
	case []int64:
		return c.AllreduceInt64(b, op)
	case []uint64:
		return c.AllreduceUint64(b, op)
	case []float64:
		return c.AllreduceFloat64(b, op)
	}
	return fmt.Errorf("%w: Allreduce of %T needs a plain int64, uint64 or float64 slice", ErrArgument, buf)
}

// Reduce combines src into dst element by element under op. Backends that
// reduce in Go use it, so every backend agrees on the arithmetic.
func Reduce[T Number](dst, src []T, op Op) error {
	if len(dst) != len(src) {
		return fmt.Errorf("%w: reduce lengths %d and %d", ErrArgument, len(dst), len(src))
	}
	switch op {
	case OpSum:
		for i, v := range src {
			dst[i] += v
		}
	case OpMin:
		for i, v := range src {
			dst[i] = min(dst[i], v)
		}
	case OpMax:
		for i, v := range src {
			dst[i] = max(dst[i], v)
		}
	default:
		return fmt.Errorf("%w: unknown reduction %d", ErrArgument, int(op))
	}
	return nil
}
