package algorithms

import (
	"math"
	"testing"

	"github.com/tokenmc/tokenmc/explore/measure"
)

// Each load of the torus is compared with its own published figure
// (Neamatollahi et al. §5): at N = 9 (d = 3), heavy load with every
// process requesting: (2N+d+1)/N = 22/9; medium load, d = 3 requesters
// (--requesters, a mask of 3 processes): (3d+1)/d = 10/3 (same row) to
// (2N+d+1)/d = 22/3 (different rows); another number of requesters: no
// published figure; light load: 2d+1 .. 3d+1 = 7 .. 10 whatever the mask;
// a rate: none.
func TestTorusLoadsHaveTheirOwnFigures(t *testing.T) {
	cfg := func(load measure.Load, mask int) *measure.Config {
		return &measure.Config{Algo: "torus", N: 9, Load: load, Params: map[string]int{"requesters": mask}, Facts: torusMeasure}
	}
	for _, c := range []struct {
		name   string
		cfg    *measure.Config
		ok     bool
		lo, hi float64
	}{
		{"heavy, all", cfg(measure.Load{Kind: "heavy"}, 0), true, 22.0 / 9, 22.0 / 9},
		{"heavy, all by mask", cfg(measure.Load{Kind: "heavy"}, 1<<9-1), true, 22.0 / 9, 22.0 / 9},
		{"medium: 3 requesters", cfg(measure.Load{Kind: "heavy"}, 0b111), true, 10.0 / 3, 22.0 / 3},
		{"medium: 3 requesters in 3 rows", cfg(measure.Load{Kind: "heavy"}, 0b1001001), true, 10.0 / 3, 22.0 / 3},
		{"4 requesters", cfg(measure.Load{Kind: "heavy"}, 0b1111), false, 0, 0},
		{"light, 3 requesters", cfg(measure.Load{Kind: "light"}, 0b111), true, 7, 10},
		{"a rate", cfg(measure.Load{Kind: "rate", Lambda: 1}, 0), false, 0, 0},
	} {
		cl, ok := c.cfg.Published()
		if ok != c.ok || ok && (math.Abs(cl.Lo-c.lo) > 1e-12 || math.Abs(cl.Hi-c.hi) > 1e-12) {
			t.Errorf("%s: claim %+v (%v), want %v..%v (%v)", c.name, cl, ok, c.lo, c.hi, c.ok)
		}
	}
}
