// Package agree makes the ranks of a collective call return the same
// outcome: Errors gives every rank an error if any rank had one.
package agree

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Errors makes every rank return an error if any rank's local is not nil:
// its own, or the class and message of the first rank that failed (so
// that a message naming a file or a line reaches every rank). It is
// collective (Allgatherv) and synchronises the ranks.
func Errors(c rma.Comm, local error) error {
	var msg []byte
	if local != nil {
		msg = binary.LittleEndian.AppendUint64(nil, uint64(gdi.ErrorClass(local)))
		var ge *gdi.Error
		if errors.As(local, &ge) {
			msg = append(msg, ge.Msg...)
		} else {
			msg = append(msg, local.Error()...)
		}
	}
	all, err := c.Allgatherv(msg)
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "agreement: %v", err)
	}
	if local != nil {
		return local
	}
	for r, m := range all {
		if len(m) >= 8 {
			return &gdi.Error{Code: gdi.Code(binary.LittleEndian.Uint64(m)), Msg: fmt.Sprintf("on rank %d: %s", r, m[8:])}
		}
	}
	return nil
}
