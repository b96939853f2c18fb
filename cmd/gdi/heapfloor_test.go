package main

import (
	"runtime"
	"runtime/metrics"
	"testing"
)

// heapGoal returns the collector's heap goal after a collection.
func heapGoal() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestFloorHeap checks that the ballast lifts the heap goal by at least
// the floor, and that a GOGC of the user's is left alone.
func TestFloorHeap(t *testing.T) {
	defer func() { ballast = nil }()
	t.Setenv("GOGC", "100")
	floorHeap()
	if ballast != nil {
		t.Fatal("floorHeap allocated a ballast although GOGC is set")
	}
	without := heapGoal()
	t.Setenv("GOGC", "")
	floorHeap()
	if with := heapGoal(); with < without+heapFloor {
		t.Errorf("heap goal %d bytes with the ballast and %d without, want at least %d more", with, without, heapFloor)
	}
}
