package measure

import "math"

// Stat is a mean over replications with the half-width of its 95%
// confidence interval (Student's t; 0 with one replication).
type Stat struct {
	Mean float64 `json:"mean"`
	Half float64 `json:"ci95"`
}

// Lo and Hi are the ends of the confidence interval.
func (s Stat) Lo() float64 { return s.Mean - s.Half }

// Hi is the upper end of the confidence interval.
func (s Stat) Hi() float64 { return s.Mean + s.Half }

// t975 are the 97.5% quantiles of Student's t for 1..30 degrees of freedom.
var t975 = []float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}

// statOf is the mean of xs (NaN values, replications without a sample,
// are skipped) with its 95% confidence interval.
func statOf(xs []float64) Stat {
	var sum float64
	n := 0
	for _, x := range xs {
		if !math.IsNaN(x) {
			sum += x
			n++
		}
	}
	if n == 0 {
		return Stat{Mean: math.NaN(), Half: math.NaN()}
	}
	mean := sum / float64(n)
	if n == 1 {
		return Stat{Mean: mean}
	}
	var ss float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			ss += (x - mean) * (x - mean)
		}
	}
	df := n - 1
	t := 1.96
	if df <= len(t975) {
		t = t975[df-1]
	}
	half := t * math.Sqrt(ss/float64(df)/float64(n))
	if half < 1e-9*max(1, math.Abs(mean)) { // rounding noise of equal samples
		half = 0
	}
	return Stat{Mean: mean, Half: half}
}
