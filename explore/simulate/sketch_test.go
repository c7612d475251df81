package simulate

import (
	"encoding/binary"
	"testing"
)

// TestSketch: the HyperLogLog estimate is within 5% of the true number of
// distinct values, from tiny to large sets, with repeats, and merging two
// sketches estimates their union.
func TestSketch(t *testing.T) {
	var b [8]byte
	key := func(i int) uint64 {
		binary.LittleEndian.PutUint64(b[:], uint64(i))
		return hashState(b[:])
	}
	for _, n := range []int{1, 10, 1000, 20000, 300000} {
		var s sketch
		for range 3 {
			for i := range n {
				s.add(key(i)) // every value three times
			}
		}
		if e := s.estimate(); float64(e) < float64(n)*0.95-1 || float64(e) > float64(n)*1.05+1 {
			t.Errorf("n=%d: estimate %d", n, e)
		}
	}
	var x, y sketch
	for i := range 50000 {
		x.add(key(i))
		y.add(key(i + 25000))
	}
	x.merge(&y)
	if e := x.estimate(); e < 71250 || e > 78750 {
		t.Errorf("union of 75000: estimate %d", e)
	}
}
