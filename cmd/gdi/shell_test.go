package main

import (
	"bytes"
	"io"
	"testing"

	"golang.org/x/term"
)

// TestCtrlC: on a terminal, Ctrl-C drops the line being typed and the
// shell reads on; Ctrl-D on an empty line ends the input.
func TestCtrlC(t *testing.T) {
	in := &ctrlCReader{r: bytes.NewReader([]byte("MATCH (n\x03RETURN 1;\r\x04"))}
	var out bytes.Buffer
	rd := termReader{term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{in, &out}, ""), in}
	if _, err := rd.readLine("gdi> "); err != errInterrupt {
		t.Fatalf("Ctrl-C: %v, want errInterrupt", err)
	}
	if line, err := rd.readLine("gdi> "); err != nil || line != "RETURN 1;" {
		t.Fatalf("after Ctrl-C: %q, %v; want the next line", line, err)
	}
	if _, err := rd.readLine("gdi> "); err != io.EOF {
		t.Fatalf("Ctrl-D: %v, want io.EOF", err)
	}
}
