package wire

import (
	"bytes"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var b []byte
	b = AppendString(b, "")
	b = AppendString(b, "Person\x00933")
	b = append(b, 0xac, 0x02) // 300 as a uvarint
	s, rest, ok := Bytes(b)
	if !ok || len(s) != 0 {
		t.Fatalf("empty string: %q, %v", s, ok)
	}
	s, rest, ok = Bytes(rest)
	if !ok || !bytes.Equal(s, []byte("Person\x00933")) {
		t.Fatalf("string: %q, %v", s, ok)
	}
	x, rest, ok := Uvarint(rest)
	if !ok || x != 300 || len(rest) != 0 {
		t.Fatalf("uvarint: %d, %d bytes left, %v", x, len(rest), ok)
	}
}

func TestTruncated(t *testing.T) {
	b := AppendString(nil, "abc")
	for i := range len(b) {
		if _, _, ok := Bytes(b[:i]); ok {
			t.Errorf("Bytes accepted %d of %d bytes", i, len(b))
		}
	}
	if _, _, ok := Uvarint([]byte{0x80}); ok {
		t.Error("Uvarint accepted an unfinished uvarint")
	}
	if _, _, ok := Bytes([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}); ok {
		t.Error("Bytes accepted a length past the buffer")
	}
}
