package txn

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdi-go/gdi/rma"
)

// TestPauseWaitsItsTime checks that every wait of pause, spun or slept,
// lasts at least the time it stands for.
func TestPauseWaitsItsTime(t *testing.T) {
	for i := range 12 {
		want := time.Duration(1<<min(i, 10)) * time.Microsecond
		start := time.Now()
		pause(nil, i)
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
		pause(nil, i)
	}
	if !ran.Load() {
		t.Fatal("the spun waits of pause never let another goroutine of the P run")
	}
}

// idlingWindow is a window that records the waits handed to it.
type idlingWindow struct {
	rma.Window
	waits []time.Duration
}

func (w *idlingWindow) Idle(d time.Duration) bool {
	w.waits = append(w.waits, d)
	return true
}

// TestPauseIdlesOnIdler checks that on a window whose ranks serve each
// other's operations (rma.Idler) every wait of pause goes to Idle,
// the long ones too, rather than to a sleep that would stall the ranks
// waiting on this one.
func TestPauseIdlesOnIdler(t *testing.T) {
	w := &idlingWindow{}
	for i := range 12 {
		pause(w, i)
	}
	if len(w.waits) != 12 {
		t.Fatalf("pause called Idle %d times in 12 waits, want 12", len(w.waits))
	}
	for i, d := range w.waits {
		if want := time.Duration(1<<min(i, 10)) * time.Microsecond; d != want {
			t.Errorf("wait %d idled %v, want %v", i, d, want)
		}
	}
}
