// Package wire encodes the fields of the messages ranks exchange in
// collectives (Alltoallv): unsigned integers as uvarints and byte strings
// as a uvarint length followed by the bytes. Readers return the rest of
// the buffer and report, rather than panic on, a field that runs off it:
// a message is only as well-formed as the rank that sent it.
package wire

import "encoding/binary"

// AppendString appends s, its length first, to b.
func AppendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Uvarint reads an unsigned integer off buf.
func Uvarint(buf []byte) (x uint64, rest []byte, ok bool) {
	x, n := binary.Uvarint(buf)
	if n <= 0 {
		return 0, nil, false
	}
	return x, buf[n:], true
}

// Bytes reads a string written by AppendString off buf; s aliases buf.
func Bytes(buf []byte) (s, rest []byte, ok bool) {
	n, rest, ok := Uvarint(buf)
	if !ok || uint64(len(rest)) < n {
		return nil, nil, false
	}
	return rest[:n], rest[n:], true
}
