package measure

import (
	"math"
	"testing"
)

// The per-kind figures split the total: messages per CS by kind sum to
// messages per CS, in a run where requests are forwarded (Banerjee-
// Chrysanthis at N=10 and 0.1 requests per unit of time forwards about 1%
// of them; a forwarded REQUEST is one message of kind REQUEST, counted
// once), and the forwarded ones are among the REQUESTs.
func TestPerKindFiguresSumToTheTotal(t *testing.T) {
	r := small(t, Config{Algo: "banerjee", N: 10, Load: rateLoad(0.1), Timers: []float64{0.1, 0.1, 0}, Entries: 400, Warmup: 50, Replications: 2})
	if r.Forwarded.Mean <= 0 {
		t.Fatalf("no request was forwarded (%.4f per CS): the run cannot show how forwarded requests are counted", r.Forwarded.Mean)
	}
	sum, requests := 0.0, 0.0
	for k, s := range r.ByKind {
		sum += s.Mean
		if k == "REQUEST" {
			requests = s.Mean
		}
	}
	if math.Abs(sum-r.MessagesPerCS.Mean) > 1e-9*r.MessagesPerCS.Mean {
		t.Errorf("messages per CS by kind sum to %.6f, but messages per CS are %.6f", sum, r.MessagesPerCS.Mean)
	}
	if r.Forwarded.Mean > requests {
		t.Errorf("%.4f forwarded requests per CS, more than the %.4f REQUESTs per CS", r.Forwarded.Mean, requests)
	}
}
