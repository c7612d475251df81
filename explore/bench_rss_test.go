package explore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// rssChildEnv names the environment variable that makes the test binary
// run one search as a child of BenchmarkExploreRSS and print its result.
const rssChildEnv = "TOKENMC_RSS_CHILD"

// rssRun is what the child reports.
type rssRun struct {
	States, Transitions int64
	Depth               int
	Seconds             float64
	PeakRSS, Spilled    int64
	SeenBytes           int64
}

// BenchmarkExploreRSS measures the peak resident memory of a whole process
// per distinct state, which an in-process benchmark cannot (the benchmark
// harness and earlier runs share the process). Each iteration re-executes
// the test binary as a child that runs one search and reports the kernel's
// VmHWM.
//
//	go test -run '^$' -bench ExploreRSS -benchtime 1x ./explore/
func BenchmarkExploreRSS(b *testing.B) {
	for _, m := range []struct {
		algo string
		n, r int
	}{
		{"suzuki-kasami", 3, 2},
		{"torus/literal", 4, 2},
	} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/n=%d/r=%d/workers=%d", m.algo, m.n, m.r, workers), func(b *testing.B) {
				var states, secs, rss float64
				for b.Loop() {
					run := rssChild(b, m.algo, m.n, m.r, workers)
					states += float64(run.States)
					secs += run.Seconds
					rss += float64(run.PeakRSS)
				}
				b.ReportMetric(states/secs, "states/s")
				b.ReportMetric(rss/states, "RSS_B/state")
			})
		}
	}
}

func rssChild(b *testing.B, algo string, n, r, workers int) rssRun {
	return runRSSChild(b, "TestRSSChild", rssChildEnv, fmt.Sprintf("%s,%d,%d,%d", algo, n, r, workers))
}

// runRSSChild re-executes the test binary to run only the test named
// test, with env set to spec, and returns the result it prints.
func runRSSChild(b *testing.B, test, env, spec string) rssRun {
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v=false")
	cmd.Env = append(os.Environ(), env+"="+spec)
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("child: %v\n%s", err, out)
	}
	var run rssRun
	for line := range splitLines(out) {
		if json.Unmarshal(line, &run) == nil && run.States > 0 {
			return run
		}
	}
	b.Fatalf("child printed no result:\n%s", out)
	return run
}

func splitLines(b []byte) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for len(b) > 0 {
			i := 0
			for i < len(b) && b[i] != '\n' {
				i++
			}
			if !yield(b[:i]) {
				return
			}
			if i < len(b) {
				i++
			}
			b = b[i:]
		}
	}
}

// TestRSSChild is the child process of BenchmarkExploreRSS; it does
// nothing unless TOKENMC_RSS_CHILD is set.
func TestRSSChild(t *testing.T) {
	spec := os.Getenv(rssChildEnv)
	if spec == "" {
		t.Skip("child of BenchmarkExploreRSS only")
	}
	var algo string
	var n, r, workers int
	for i, f := range splitComma(spec) {
		switch i {
		case 0:
			algo = f
		case 1:
			n, _ = strconv.Atoi(f)
		case 2:
			r, _ = strconv.Atoi(f)
		case 3:
			workers, _ = strconv.Atoi(f)
		}
	}
	a, v, err := algorithms.Lookup(algo)
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.Build(v.Name, map[string]int{"n": n, "r": r})
	if err != nil {
		t.Fatal(err)
	}
	props := invariants.Applicable(invariants.Standard(), sys.Info())
	opts := explore.Options{Workers: workers, Properties: props}
	if s := os.Getenv("TOKENMC_RSS_SPILL"); s != "" { // in bytes
		opts.SpillAbove, _ = strconv.ParseInt(s, 10, 64)
	}
	res, err := explore.Check(context.Background(), sys, opts)
	if err != nil || res.Verdict != explore.OK {
		t.Fatalf("%v %v", err, res.Verdict)
	}
	out, _ := json.Marshal(rssRun{States: res.States, Transitions: res.Transitions, Depth: res.Depth,
		Seconds: res.Elapsed.Seconds(), PeakRSS: res.PeakRSS, Spilled: res.SpilledBytes, SeenBytes: res.SeenBytes})
	fmt.Println(string(out))
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}
