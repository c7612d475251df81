package banerjee

import (
	"os"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/traces"
)

// A11 under the oracle timers (algorithms.md §6.5 "--timers oracle", §10.5):
// the notes predict that the timers-any counterexample is impossible. It
// is: replayed on banerjee-rec/timers-oracle, the shipped 7-step mutex
// trace stops at step 6, its premature timeout (P1's token timeout,
// Timer(P1, t=3), while P0 holds the token in its CS), and with no message lost the whole model keeps
// every property at N = 2 (and at N = 3 with TOKENMC_HEAVY=1).
func TestTimersOracleRefusesPrematureTimeout(t *testing.T) {
	sys := mustSystem(t, TimersOracle, Options{N: 3, R: 1})
	tr, err := traces.ReadFile("testdata/rec-any-n3-f0.mutex.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Algorithm != TimersAny || len(tr.Steps) != 7 {
		t.Fatalf("shipped trace of %s with %d steps, want %s with 7", tr.Algorithm, len(tr.Steps), TimersAny)
	}
	// the same trace, claimed of the oracle model
	tr.Algorithm = sys.Info().Name
	res, err := traces.Replay(sys, invariants.With(Properties(TimersOracle)...), tr)
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || res.DivergedAt != 6 || !strings.Contains(res.Reason, "Timer(P1, t=3)") {
		t.Fatalf("the timers-any trace replays on the oracle model: %+v", res)
	}
	// the control: it replays on timers-any itself
	any := mustSystem(t, TimersAny, Options{N: 3, R: 1})
	tr.Algorithm = any.Info().Name
	if r, err := traces.Replay(any, invariants.With(Properties(TimersAny)...), tr); err != nil || !r.OK {
		t.Fatalf("the shipped trace does not replay on timers-any: %+v %v", r, err)
	}

	n2 := mustSystem(t, TimersOracle, Options{N: 2, R: 1})
	if res := check(t, n2, props(t, n2, TimersOracle, "")); res.Verdict != explore.OK || res.States != 782 {
		t.Fatalf("N=2 F=0: %s on %d states, want ok on 782", res.Verdict, res.States)
	}
}

// N = 3, F = 0: ok on 1,144,646 states (the quiescent default: 1,408,512;
// timers-any: a 7-step mutex violation).
func TestTimersOracleN3(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("set TOKENMC_HEAVY=1: 1.1 million states")
	}
	sys := mustSystem(t, TimersOracle, Options{N: 3, R: 1})
	if res := check(t, sys, props(t, sys, TimersOracle, "")); res.Verdict != explore.OK || res.States != 1144646 {
		t.Fatalf("verdict %s on %d states, want ok on 1144646", res.Verdict, res.States)
	}
}

// With one lost message, oracle timers do not save mutex: at N = 3, F = 1
// the shortest violation has 29 steps (5,592,964 states searched, 23 s;
// the quiescent default: 9 steps). The shipped trace replays.
func TestTimersOracleLossBreaksMutex(t *testing.T) {
	sys := mustSystem(t, TimersOracle, Options{N: 3, R: 1, Faults: 1})
	algotest.ReplayShipped(t, sys, Properties(TimersOracle), "testdata/rec-oracle-n3-f1.mutex.trace.json", "mutex", 29)
}
