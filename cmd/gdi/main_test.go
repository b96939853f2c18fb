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

func TestProcsPerProcess(t *testing.T) {
	for _, c := range []struct{ cpus, local, want int }{
		{2, 1, 2}, {2, 2, 1}, {2, 4, 1}, {8, 2, 4}, {8, 3, 2}, {1, 0, 1}, {16, 0, 16},
	} {
		if got := procsPerProcess(c.cpus, c.local); got != c.want {
			t.Errorf("procsPerProcess(%d CPUs, %d processes) = %d, want %d", c.cpus, c.local, got, c.want)
		}
	}
	t.Setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "3")
	if n := localProcesses(); n != 3 {
		t.Errorf("localProcesses() = %d with OMPI_COMM_WORLD_LOCAL_SIZE=3", n)
	}
	t.Setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "x")
	if n := localProcesses(); n != 1 {
		t.Errorf("localProcesses() = %d with OMPI_COMM_WORLD_LOCAL_SIZE=x, want 1", n)
	}
}
