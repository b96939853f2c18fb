package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestDemo(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"demo", "-ranks", "3", "-keys", "3000"}, &out, &errs); code != 0 {
		t.Fatalf("gdi demo exited %d: %s", code, errs.String())
	}
	for _, want := range []string{"3 ranks (local backend), 3000 application IDs", "inserted 3000 IDs", "checked 3000 IDs", "blocks in use: 3000 of"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{nil, {"nosuch"}, {"demo", "-ranks", "0"}, {"demo", "-bogus"}} {
		var out, errs bytes.Buffer
		if code := run(args, &out, &errs); code == 0 {
			t.Errorf("gdi %v exited 0", args)
		}
	}
}
