package sysmem

import (
	"runtime"
	"testing"
)

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"1048576", 1 << 20},
		{"16GiB", 16 << 30},
		{"1500MiB", 1500 << 20},
		{"512M", 512 << 20},
		{"2g", 2 << 30},
		{" 1.5GiB ", 3 << 29},
		{"4 kb", 4 << 10},
		{"1TiB", 1 << 40},
		{"0", 0},
	} {
		if got, err := ParseSize(c.in); err != nil || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "GiB", "-1GiB", "12XB", "1.2.3M", "9999999TiB"} {
		if got, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", bad, got)
		}
	}
}

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
