package txn

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestPauseWaitsItsTime checks that every wait of pause, spun or slept,
// lasts at least the time it stands for.
func TestPauseWaitsItsTime(t *testing.T) {
	for i := range 12 {
		want := time.Duration(1<<min(i, 10)) * time.Microsecond
		start := time.Now()
		pause(i)
		if got := time.Since(start); got < want {
			t.Errorf("pause(%d) returned after %v, want at least %v", i, got, want)
		}
	}
}

// TestPauseSpinYields checks that a spun wait lets other goroutines of
// its P run: with one P, the holder of a lock may be one of them, and it
// must be able to release the lock while the waiter spins.
func TestPauseSpinYields(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var ran atomic.Bool
	go ran.Store(true)
	for i := 0; time.Duration(1<<i)*time.Microsecond < spinBelow; i++ {
		pause(i)
	}
	if !ran.Load() {
		t.Fatal("the spun waits of pause never let another goroutine of the P run")
	}
}
