package ticker

import (
	"sync/atomic"
	"testing"
	"time"
)

// Ticks come while the ticker runs and none after stop returns.
func TestEveryStops(t *testing.T) {
	var n atomic.Int64
	stop := Every(time.Millisecond, func() { n.Add(1) })
	deadline := time.Now().Add(5 * time.Second)
	for n.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	stop()
	got := n.Load()
	if got < 3 {
		t.Fatalf("%d ticks in 5 s at 1 ms", got)
	}
	time.Sleep(20 * time.Millisecond)
	if n.Load() != got {
		t.Errorf("ticks after stop: %d then %d", got, n.Load())
	}
}
