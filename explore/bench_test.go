package explore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// Benchmarks of exhaustive BFS on the reference models, checking every
// applicable generic property. Each iteration is one full search; the
// reported metrics are distinct states per second and bytes of the
// visited-state set per distinct state (link_B/state: predecessor links).
//
//	go test -run '^$' -bench . -benchtime 1x ./explore/
//
// torus/literal d=2 R=2 has 8,128,710 states (about 2 minutes of bench time
// with both worker counts); compare runs with benchstat.
func BenchmarkExplore(b *testing.B) {
	for _, m := range []struct {
		algo string
		n, r int
	}{
		{"suzuki-kasami", 3, 2},
		{"suzuki-kasami", 3, 3}, // 3,325,838 states, as bench/run.sh
		{"suzuki-kasami", 4, 1},
		{"torus/literal", 4, 1},
		{"torus/literal", 4, 2},
	} {
		for _, workers := range []int{1, 2} {
			for _, exact := range []bool{false, true} {
				if exact && (m.r == 2 && m.algo != "suzuki-kasami" || m.r == 3) {
					continue // exact mode at millions of states is a memory benchmark, not a speed one
				}
				mode := "fp"
				if exact {
					mode = "exact"
				}
				name := fmt.Sprintf("%s/n=%d/r=%d/workers=%d/%s", m.algo, m.n, m.r, workers, mode)
				b.Run(name, func(b *testing.B) {
					a, v, err := algorithms.Lookup(m.algo)
					if err != nil {
						b.Fatal(err)
					}
					sys, _, err := a.Build(v.Name, map[string]int{"n": m.n, "r": m.r})
					if err != nil {
						b.Fatal(err)
					}
					props := invariants.Applicable(invariants.Standard(), sys.Info())
					var states, secs, seen, links float64
					b.ReportAllocs()
					cpu0 := cpuTime()
					for b.Loop() {
						res, err := explore.Check(context.Background(), sys, explore.Options{Workers: workers, Exact: exact, Properties: props})
						if err != nil || res.Verdict != explore.OK {
							b.Fatalf("%v %v", err, res.Verdict)
						}
						states += float64(res.States)
						secs += res.Elapsed.Seconds()
						seen += float64(res.SeenBytes)
						links += float64(res.LinkBytes)
					}
					b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
					b.ReportMetric(states/secs, "states/s")
					b.ReportMetric(seen/states, "B/state")
					b.ReportMetric(links/states, "link_B/state")
				})
			}
		}
	}
}
