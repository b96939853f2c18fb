package refdb

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// A collective call of refdb goes through agree: every rank describes the
// call with its arguments (handles by object number, which is the same on
// every rank) and gives its own verdict on it. The exchange is an
// Allgatherv, so no rank leaves before all have entered: it is also the
// barrier of the calls that have one.

// agree returns on every rank the same outcome for a collective call:
// ErrNotSame if the ranks describe the call differently; otherwise nil if
// no rank's verdict is a failure, and a failure on every rank if one is:
// its own verdict on a rank that failed, an error of the first failing
// rank's class on the others.
func agree(comm rma.Comm, call string, verdict error) error {
	if !gdi.Failed(verdict) {
		verdict = nil
	}
	all, err := comm.Allgatherv(encodeOutcome(call, verdict))
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "%s: exchange between ranks: %w", call, err)
	}
	for r, msg := range all {
		if code, what := decodeOutcome(msg); what != call {
			return gdi.Errorf(gdi.ErrNotSame, "%s: rank %d called %s", call, r, what)
		} else if code.IsError() && verdict == nil {
			verdict = gdi.Errorf(code, "%s failed on rank %d", call, r)
		}
	}
	return verdict
}

// fromRoot returns on every rank the outcome that rank 0 had (warnings
// included): its own on rank 0, one of the same class and message
// elsewhere. Like agree it waits for every rank.
func fromRoot(comm rma.Comm, call string, outcome error) error {
	msg := ""
	if outcome != nil {
		msg = outcome.Error()
	}
	all, err := comm.Allgatherv(encodeOutcome(msg, outcome))
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "%s: exchange between ranks: %w", call, err)
	}
	if comm.Rank() == 0 {
		return outcome
	}
	code, msg := decodeOutcome(all[0])
	if code == gdi.Success {
		return nil
	}
	return gdi.Errorf(code, "%s on rank 0: %s", call, msg)
}

// encodeOutcome packs the class of err and a text into a message.
func encodeOutcome(text string, err error) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.LittleEndian, int64(gdi.ErrorClass(err)))
	b.WriteString(text)
	return b.Bytes()
}

func decodeOutcome(msg []byte) (gdi.Code, string) {
	if len(msg) < 8 {
		return gdi.ErrIntern, fmt.Sprintf("a message of %d bytes", len(msg))
	}
	return gdi.Code(binary.LittleEndian.Uint64(msg)), string(msg[8:])
}
