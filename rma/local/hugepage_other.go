//go:build !linux

package local

func adviseHugePages([]uint64) {}
