package main

import (
	"fmt"

	"github.com/pkg/profile"
)

// startProfile starts the profile a -profile flag names (cpu or mem, or
// none for "") into the current directory, and returns the function that
// stops it and writes the file.
func startProfile(kind string) (stop func(), err error) {
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
	return profile.Start(mode, profile.ProfilePath("."), profile.Quiet).Stop, nil
}
