package simulate_test

import (
	"context"
	"syscall"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/invariants"
)

// BenchmarkSuzukiKasami16 measures the simulation rate on Suzuki-Kasami at
// N=16, R=4 with every property checked, on two workers; it reports
// steps/s (the acceptance target is 1e6 on 2 cores).
func BenchmarkSuzukiKasami16(b *testing.B) { benchSuzukiKasami(b, 16, 4, 100, 100000) }

// benchSuzukiKasami runs walks of Suzuki-Kasami with n processes and r
// requests each, every property checked at every step, on two workers, and
// reports steps/s and steps per CPU-second. On a shared machine wall time
// depends on the neighbours; steps per CPU-second times 2 is what 2
// dedicated cores would do (the runs are independent, so they scale).
func benchSuzukiKasami(b *testing.B, n, r, runs, steps int) {
	p, err := suzukikasami.New(suzukikasami.Default, n, r)
	if err != nil {
		b.Fatal(err)
	}
	sys := p.System()
	props := invariants.Applicable(invariants.With(suzukikasami.Properties()...), sys.Info())
	var fired int64
	var secs float64
	cpu0 := cpuSeconds()
	for b.Loop() {
		res, err := simulate.Run(context.Background(), sys, simulate.Options{Properties: props, Runs: runs, Steps: steps, Seed: 1, Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		if res.Violation != nil {
			b.Fatalf("violation of %s", res.Violation.Property.Name)
		}
		fired += res.Steps
		secs += res.Elapsed.Seconds()
	}
	b.ReportMetric(float64(fired)/secs, "steps/s")
	b.ReportMetric(float64(fired)/(cpuSeconds()-cpu0), "steps/cpu-s")
}

// cpuSeconds returns the user+system CPU time of this process.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// BenchmarkSuzukiKasami64 is the same at N=64, R=2: thousands of REQ
// messages in transit, each decoded several times per step.
func BenchmarkSuzukiKasami64(b *testing.B) {
	p, err := suzukikasami.New(suzukikasami.Default, 64, 2)
	if err != nil {
		b.Fatal(err)
	}
	sys := p.System()
	props := invariants.Applicable(invariants.With(suzukikasami.Properties()...), sys.Info())
	var steps int64
	var secs float64
	for b.Loop() {
		res, err := simulate.Run(context.Background(), sys, simulate.Options{Properties: props, Runs: 2, Steps: 10000, Seed: 1, Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		steps += res.Steps
		secs += res.Elapsed.Seconds()
	}
	b.ReportMetric(float64(steps)/secs, "steps/s")
}

// BenchmarkSuzukiKasami64R1000 is the acceptance configuration of the
// simulation rate: Suzuki-Kasami at N=64, R=1000, every property checked
// at every step, on two workers (the target is 1e6 steps/s), with the CLI's
// default run length (10,000 steps).
func BenchmarkSuzukiKasami64R1000(b *testing.B) { benchSuzukiKasami(b, 64, 1000, 40, 10000) }
