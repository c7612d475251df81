package banerjee

import (
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/traces"
)

// A8 (algorithms.md §6.4, companion §6.3 "adaptive period"): §4.1 routes
// the token via the monitor when the broadcast counter *equals* the
// ceiling of the average Q size. With a window of one Q size carried by
// the token:
//   - at N = 3 the counter can pass N, after which equality never holds
//     and the monitor is never visited again: monitor-reachable is
//     violated. The state space at N = 3 exceeds 3 million states even at
//     R = 1, so the counterexample was found by random simulation
//     (tokenmc simulate, R = 6, shrunk to 29 steps) and is replayed here;
//   - at N = 2, R = 1 a Q-list of size one makes the period 1, so the
//     arbiter routes even an empty token to the monitor and a request
//     dropped meanwhile is never served: no-deadlock after 12 steps, where
//     the fixed period 2 of banerjee-sf is deadlock-free (137 states).
func TestAdaptivePeriodEquals(t *testing.T) {
	sys := mustSystem(t, AdaptiveEq, Options{N: 2, R: 1, Tau: 1})
	res := check(t, sys, props(t, sys, AdaptiveEq, ""))
	if res.Verdict != explore.Violated || res.Violation.Property.Name != "no-deadlock" || res.Violation.Len() != 12 || res.States > 826 {
		t.Fatalf("adaptive-eq n=2 r=1: %s, want no-deadlock after 12 steps", res.Verdict)
	}
	fixed := mustSystem(t, SF, Options{N: 2, R: 1, Tau: 1, Period: 2})
	if res := check(t, fixed, props(t, fixed, SF, "")); res.Verdict != explore.OK || res.States != 137 {
		t.Fatalf("banerjee-sf period 2 n=2 r=1: %s on %d states, want ok on 137", res.Verdict, res.States)
	}
	algotest.ReplayShipped(t, sys, Properties(AdaptiveEq), "testdata/adaptive-eq-n2.no-deadlock.trace.json", "no-deadlock", 12)
	big := mustSystem(t, AdaptiveEq, Options{N: 3, R: 6, Tau: 1})
	algotest.ReplayShipped(t, big, Properties(AdaptiveEq), "testdata/adaptive-eq-n3.monitor-reachable.trace.json", NameMonitorReachable, 29)
}

// A8 repaired (algorithms.md §6.4, §9.1 A8): with ">=" the token visits
// the monitor once the counter reaches the adaptive period, so the counter
// stays below N. At N = 2 every safety property and monitor-reachable hold
// on the whole graph (1,003 states); at N = 3, R = 1 the graph is larger
// than 20 million states, and a bounded BFS found no violation of them in
// the first 20,000,000 (depth 29; package doc). The literal reading's
// monitor-reachable trace (29 steps, N = 3, R = 6) does not replay on the
// repaired one: its last step is not enabled. Late requests are still dropped and a quiet system never
// resubmits them (A10): no-deadlock after 14 steps at N = 3, R = 1, the
// shipped trace.
func TestAdaptivePeriodReaches(t *testing.T) {
	n2 := mustSystem(t, AdaptiveGe, Options{N: 2, R: 1, Tau: 1})
	safety := props(t, n2, AdaptiveGe, "mutex,single-token,no-unrequested-entry,arbiter-self,monitor-reachable,token-at-head")
	if res := check(t, n2, safety); res.Verdict != explore.OK || res.States != 1003 {
		t.Fatalf("adaptive-ge n=2 r=1 safety: %s on %d states, want ok on 1003", res.Verdict, res.States)
	}
	sys := mustSystem(t, AdaptiveGe, Options{N: 3, R: 1, Tau: 1})
	res := check(t, sys, props(t, sys, AdaptiveGe, ""))
	if res.Verdict != explore.Violated || res.Violation.Property.Name != "no-deadlock" || res.Violation.Len() != 14 {
		t.Fatalf("adaptive-ge n=3 r=1: %s %v, want no-deadlock after 14 steps", res.Verdict, res.Violation)
	}
	algotest.ReplayShipped(t, sys, Properties(AdaptiveGe), "testdata/adaptive-ge-n3.no-deadlock.trace.json", "no-deadlock", 14)

	tr, err := traces.ReadFile("testdata/adaptive-eq-n3.monitor-reachable.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	big := mustSystem(t, AdaptiveGe, Options{N: 3, R: 6, Tau: 1})
	tr.Algorithm = big.Info().Name
	r, err := traces.Replay(big, invariants.With(Properties(AdaptiveGe)...), tr)
	if err != nil {
		t.Fatal(err)
	}
	// at its last step the literal arbiter P1 ends a collection although
	// the counter has passed the period; the repaired one must route the
	// token via the monitor (t=2) instead
	if r.OK || r.DivergedAt != 29 || !strings.Contains(r.Reason, `"Timer(P1, t=0)" is not enabled`) || !strings.Contains(r.Reason, "Timer(P1, t=2)") {
		t.Fatalf("the literal reading's monitor-reachable trace on %s: %+v, want a divergence at step 29", AdaptiveGe, r)
	}
}
