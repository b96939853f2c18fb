package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/pkg/profile"
)

// startProfile starts the profile a -profile flag names (cpu or mem, or
// none for "") into the current directory, and returns the function that
// stops it, writes the file and says on w where.
func startProfile(kind string, w io.Writer) (stop func(), err error) {
	var mode func(*profile.Profile)
	switch kind {
	case "":
		return func() {}, nil
	case "cpu":
		mode = profile.CPUProfile
	case "mem":
		mode = profile.MemProfile
	default:
		return nil, fmt.Errorf("-profile must be cpu or mem, not %q", kind)
	}
	p := profile.Start(mode, profile.ProfilePath("."), profile.Quiet)
	return func() {
		p.Stop()
		path, err := filepath.Abs(kind + ".pprof")
		if err == nil {
			fmt.Fprintf(w, "profile: wrote %s (go tool pprof %s)\n", path, path)
		}
	}, nil
}
