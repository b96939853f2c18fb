//go:build !linux

package main

// limitMemory leaves the runtime's default memory limit on systems where
// the size of RAM is not read (see memlimit_linux.go).
func limitMemory() {}
