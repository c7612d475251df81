package banerjee

import (
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"
	"github.com/tokenmc/tokenmc/explore"
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
