package rma

import "fmt"

// Agree makes a local outcome collective: it returns local on the ranks
// where it is not nil, an error naming how many ranks failed on the others,
// and nil everywhere only if every rank passed nil. Code that must leave a
// collective algorithm together on all ranks calls it after each step that
// can fail on some ranks only. It is collective (one AllreduceInt64).
func Agree(c Comm, local error) error {
	failed := []int64{0}
	if local != nil {
		failed[0] = 1
	}
	if err := c.AllreduceInt64(failed, OpSum); err != nil {
		return err
	}
	switch {
	case local != nil:
		return local
	case failed[0] > 0:
		return fmt.Errorf("%w: failed on %d other rank(s)", ErrAborted, failed[0])
	}
	return nil
}
