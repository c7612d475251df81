package measure

import (
	"context"
	"testing"
)

// BenchmarkMillionRequestsN64: one replication of a million CS entries of
// the torus at N = 64 and heavy load, with every safety property checked
// after each step (run with -benchtime=1x; the target is under a minute on
// 2 cores). It reports entries and events per second.
func BenchmarkMillionRequestsN64(b *testing.B) {
	for b.Loop() {
		r, err := run(context.Background(), Config{Algo: "torus", N: 64, Load: heavyLoad, Entries: 1_000_000, Warmup: -1, Replications: 1}, 1)
		if err != nil {
			b.Fatal(err)
		}
		if r.Entries != 1_000_000 || r.Violation != "" {
			b.Fatalf("%d entries, violation %q", r.Entries, r.Violation)
		}
		b.ReportMetric(float64(r.Entries)/r.Elapsed.Seconds(), "entries/s")
		b.ReportMetric(float64(r.Events)/r.Elapsed.Seconds(), "events/s")
		b.ReportMetric(r.Elapsed.Seconds(), "s/run")
	}
}

// BenchmarkBanerjeeN10 times the paper's own simulation size: N = 10 at
// heavy load, a million entries, with the collection and forwarding timers.
func BenchmarkBanerjeeN10(b *testing.B) {
	for b.Loop() {
		r, err := run(context.Background(), Config{Algo: "banerjee", N: 10, Load: heavyLoad, Entries: 1_000_000, Warmup: -1, Replications: 1}, 1)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.Entries)/r.Elapsed.Seconds(), "entries/s")
		b.ReportMetric(r.Elapsed.Seconds(), "s/run")
	}
}
