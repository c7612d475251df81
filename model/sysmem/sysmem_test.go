package sysmem

import (
	"runtime"
	"testing"
)

// The peak resident memory is at least the current one, and both count
// at least the memory this test keeps alive.
func TestRSS(t *testing.T) {
	keep := make([]byte, 8<<20)
	for i := range keep {
		keep[i] = 1
	}
	cur, peak := CurrentRSS(), PeakRSS()
	runtime.KeepAlive(keep)
	if cur < 8<<20 || peak < cur {
		t.Errorf("CurrentRSS %d, PeakRSS %d: want 8 MiB <= current <= peak", cur, peak)
	}
}
