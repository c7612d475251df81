package explore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model/sysmem"
)

// livenessRSSChildEnv names the environment variable that makes the test
// binary run one starvation-freedom check as a child of
// BenchmarkLivenessRSS and print its result.
const livenessRSSChildEnv = "TOKENMC_LIVENESS_RSS_CHILD"

// BenchmarkLivenessRSS measures the peak resident memory per state of a
// whole process that checks starvation-freedom (graph construction and
// analysis), in a child process as BenchmarkExploreRSS does for the
// safety search, and the time against that of the safety search of the
// same model with all cores (x_safety; issue 24 asks for at most 40
// bytes a state and 2x on the repaired torus d=2 r=2).
//
//	go test -run '^$' -bench LivenessRSS -benchtime 1x ./explore/
func BenchmarkLivenessRSS(b *testing.B) {
	for _, m := range []struct {
		algo string
		n, r int
	}{
		{"torus", 4, 1},
		{"torus", 4, 2},
	} {
		b.Run(fmt.Sprintf("%s/n=%d/r=%d", m.algo, m.n, m.r), func(b *testing.B) {
			var states, secs, rss, safety float64
			for b.Loop() {
				run := livenessRSSChild(b, m.algo, m.n, m.r)
				states += float64(run.States)
				secs += run.Seconds
				rss += float64(run.PeakRSS)
				safety += rssChild(b, m.algo, m.n, m.r, runtime.NumCPU()).Seconds
			}
			b.ReportMetric(states/secs, "states/s")
			b.ReportMetric(rss/states, "RSS_B/state")
			b.ReportMetric(secs/safety, "x_safety")
		})
	}
}

func livenessRSSChild(b *testing.B, algo string, n, r int) rssRun {
	return runRSSChild(b, "TestLivenessRSSChild", livenessRSSChildEnv, fmt.Sprintf("%s,%d,%d", algo, n, r))
}

// TestLivenessRSSChild is the child process of BenchmarkLivenessRSS; it
// does nothing unless TOKENMC_LIVENESS_RSS_CHILD is set.
func TestLivenessRSSChild(t *testing.T) {
	spec := os.Getenv(livenessRSSChildEnv)
	if spec == "" {
		t.Skip("child of BenchmarkLivenessRSS only")
	}
	f := splitComma(spec)
	if len(f) != 3 {
		t.Fatalf("%s=%q: want algo,n,r", livenessRSSChildEnv, spec)
	}
	n, _ := strconv.Atoi(f[1])
	r, _ := strconv.Atoi(f[2])
	sys := buildAlgo(t, f[0], map[string]int{"n": n, "r": r})
	res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true})
	if err != nil || res.Verdict != explore.OK {
		t.Fatalf("%v %v", err, res.Verdict)
	}
	out, _ := json.Marshal(rssRun{States: res.States, Transitions: res.Transitions, Depth: res.Depth,
		Seconds: res.Elapsed.Seconds(), PeakRSS: sysmem.PeakRSS(), SeenBytes: res.GraphBytes})
	fmt.Println(string(out))
}
