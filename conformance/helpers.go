package conformance

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// checkCoded returns an error if err is non-nil and carries no gdi Code:
// every error of a backend must have a class (gdi.ErrorClass).
func checkCoded(err error) error {
	if err == nil {
		return nil
	}
	var c gdi.Code
	if !errors.As(err, &c) {
		return fmt.Errorf("error %q carries no gdi.Code (every error of a backend must have a class)", err)
	}
	return nil
}

// is fails unless errors.Is(err, code) (and err carries a Code).
func is(err error, code gdi.Code, what string, args ...any) {
	if cerr := checkCoded(err); cerr != nil {
		fatal(1, "%s: %v", fmt.Sprintf(what, args...), cerr)
	}
	if !errors.Is(err, code) {
		fatal(1, "%s: got error %v, want %s", fmt.Sprintf(what, args...), err, codeName(code))
	}
}

// isOneOf fails unless err is one of codes.
func isOneOf(err error, codes []gdi.Code, what string, args ...any) {
	if cerr := checkCoded(err); cerr != nil {
		fatal(1, "%s: %v", fmt.Sprintf(what, args...), cerr)
	}
	for _, c := range codes {
		if errors.Is(err, c) {
			return
		}
	}
	var names []string
	for _, c := range codes {
		names = append(names, codeName(c))
	}
	fatal(1, "%s: got error %v, want one of %v", fmt.Sprintf(what, args...), err, names)
}

// critical fails unless err is transaction-critical.
func critical(err error, what string, args ...any) {
	if cerr := checkCoded(err); cerr != nil {
		fatal(1, "%s: %v", fmt.Sprintf(what, args...), cerr)
	}
	if !gdi.IsTransactionCritical(err) {
		fatal(1, "%s: got %v, want a transaction-critical error", fmt.Sprintf(what, args...), err)
	}
}

// failed fails unless err is a failure (not nil, not a warning).
func failed(err error, what string, args ...any) {
	if cerr := checkCoded(err); cerr != nil {
		fatal(1, "%s: %v", fmt.Sprintf(what, args...), cerr)
	}
	if !gdi.Failed(err) {
		fatal(1, "%s: got %v, want an error", fmt.Sprintf(what, args...), err)
	}
}

// okf is check with a description.
func okf(err error, what string, args ...any) {
	if cerr := checkCoded(err); cerr != nil {
		fatal(1, "%s: %v", fmt.Sprintf(what, args...), cerr)
	}
	if gdi.Failed(err) {
		fatal(1, "%s: unexpected error: %v", fmt.Sprintf(what, args...), err)
	}
}

// noErr fails unless err is nil (not even a warning).
func noErr(err error, what string, args ...any) {
	if err != nil {
		fatal(1, "%s: got %v, want no error", fmt.Sprintf(what, args...), err)
	}
}

// failf stops the case with a message naming the caller's line.
func failf(format string, args ...any) {
	fatal(1, format, args...)
}

func codeName(c gdi.Code) string {
	if n, ok := codeIdent[c]; ok {
		return n
	}
	return c.Error()
}

// must returns v, and stops the case if err is a failure (or carries no
// Code); the message names the line of the call.
func must[T any](v T, err error) T {
	if cerr := checkCoded(err); cerr != nil {
		fatal(1, "%v", cerr)
	}
	if gdi.Failed(err) {
		fatal(1, "unexpected error: %v", err)
	}
	return v
}

// must2 is must for calls with two results.
func must2[T, U any](v T, w U, err error) (T, U) {
	if cerr := checkCoded(err); cerr != nil {
		fatal(1, "%v", cerr)
	}
	if gdi.Failed(err) {
		fatal(1, "unexpected error: %v", err)
	}
	return v, w
}

// check stops the case if err is a failure (or carries no Code).
func check(err error) {
	if cerr := checkCoded(err); cerr != nil {
		fatal(1, "%v", cerr)
	}
	if gdi.Failed(err) {
		fatal(1, "unexpected error: %v", err)
	}
}

// fatal stops the case with a message prefixed by the file and line of the
// caller skip levels above fatal's caller.
func fatal(skip int, format string, args ...any) {
	_, file, line, _ := runtime.Caller(skip + 1)
	critical := false
	for _, a := range args {
		if err, ok := a.(error); ok && gdi.IsTransactionCritical(err) {
			critical = true
		}
	}
	panic(failure{fmt.Errorf("%s:%d: %s", filepath.Base(file), line, fmt.Sprintf(format, args...)), critical})
}

// barrier synchronises the ranks.
func (e *Env) barrier() {
	if err := e.Comm.Barrier(); err != nil {
		e.Fatalf("Barrier: %v", err)
	}
}

// agree returns the number of ranks on which b is true.
func (e *Env) count(b bool) int {
	buf := []int64{0}
	if b {
		buf[0] = 1
	}
	if err := e.Comm.AllreduceInt64(buf, rma.OpSum); err != nil {
		e.Fatalf("Allreduce: %v", err)
	}
	return int(buf[0])
}

// sum returns the sum of x over all ranks.
func (e *Env) sum(x int) int {
	buf := []int64{int64(x)}
	if err := e.Comm.AllreduceInt64(buf, rma.OpSum); err != nil {
		e.Fatalf("Allreduce: %v", err)
	}
	return int(buf[0])
}

// sameOnAllRanks fails unless x is equal on all ranks.
func (e *Env) sameOnAllRanks(x uint64, what string) {
	lo := []uint64{x}
	hi := []uint64{x}
	if err := e.Comm.AllreduceUint64(lo, rma.OpMin); err != nil {
		e.Fatalf("Allreduce: %v", err)
	}
	if err := e.Comm.AllreduceUint64(hi, rma.OpMax); err != nil {
		e.Fatalf("Allreduce: %v", err)
	}
	if lo[0] != hi[0] {
		e.Fatalf("%s differs between ranks: min %d, max %d", what, lo[0], hi[0])
	}
}
