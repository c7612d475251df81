package explore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// BenchmarkLivenessVsSafety compares, on the same models, the exhaustive
// safety search (every applicable generic property, default workers) with
// the starvation-freedom search (graph construction plus one fair-cycle
// analysis per process, sequential). The acceptance bound of issue 4 is
// starvation <= 5 x safety.
//
//	go test -run '^$' -bench LivenessVsSafety -benchtime 3x ./explore/
func BenchmarkLivenessVsSafety(b *testing.B) {
	for _, m := range []struct {
		algo string
		n, r int
	}{
		{"suzuki-kasami", 3, 2},
		{"torus/literal", 4, 1},
		{"torus", 4, 1},
		{"suzuki-kasami", 4, 1},
	} {
		sys := buildAlgo(b, m.algo, map[string]int{"n": m.n, "r": m.r})
		name := fmt.Sprintf("%s/n=%d/r=%d", m.algo, m.n, m.r)
		b.Run(name+"/safety", func(b *testing.B) {
			props := invariants.Applicable(invariants.Standard(), sys.Info())
			var states float64
			for b.Loop() {
				res, err := explore.Check(context.Background(), sys, explore.Options{Properties: props})
				if err != nil || res.Verdict != explore.OK {
					b.Fatalf("%v %v", err, res.Verdict)
				}
				states = float64(res.States)
			}
			b.ReportMetric(states, "states")
		})
		b.Run(name+"/starvation", func(b *testing.B) {
			var states, bytes float64
			for b.Loop() {
				res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true})
				if err != nil {
					b.Fatal(err)
				}
				states, bytes = float64(res.States), float64(res.GraphBytes)
			}
			b.ReportMetric(states, "states")
			b.ReportMetric(bytes/states, "graph_B/state")
		})
	}
}
