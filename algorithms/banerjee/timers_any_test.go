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

// A11 (algorithms.md §10.5 mode "any", companion §6.4): with recovery
// timeouts that may fire while the token is still in transit, banerjee-rec
// breaks mutex at N = 3 with no message lost. The shortest counterexample
// has 7 steps: P0 schedules Q = [0,1] and enters, P1 learns it is scheduled,
// times out at once (ENQUIRY to P0), its enquiry times out without a reply,
// and it regenerates the token and enters while P0 is still in its CS.
// Under the default quiescent timers the same configuration is safe
// (TestRecQuiescentNoLoss, 1,405,984 states, runs with TOKENMC_HEAVY=1;
// 1,408,512 under the waiting-first reading).
func TestTimersAnyBreaksMutexWithoutLoss(t *testing.T) {
	sys := mustSystem(t, TimersAny, Options{N: 3, R: 1})
	res := check(t, sys, props(t, sys, TimersAny, "mutex"))
	if res.Verdict != explore.Violated || res.Violation.Property.Name != "mutex" || res.Violation.Len() != 7 {
		t.Fatalf("verdict %s, want a 7-step mutex violation", res.Verdict)
	}
	algotest.ReplayShipped(t, sys, Properties(TimersAny), "testdata/rec-any-n3-f0.mutex.trace.json", "mutex", 7)
}

func TestRecQuiescentNoLoss(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("set TOKENMC_HEAVY=1: 1.4 million states")
	}
	sys := mustSystem(t, Rec, Options{N: 3, R: 1})
	res := check(t, sys, props(t, sys, Rec, "mutex"))
	if res.Verdict != explore.OK || res.States != 1405984 {
		t.Fatalf("verdict %s on %d states, want ok on 1405984", res.Verdict, res.States)
	}
}

// With the default quiescent timers and no message lost, banerjee-rec is
// safe at R = 1 (TestRecQuiescentNoLoss) but not at R = 2, under either
// reading of the ENQUIRY replies. banerjee-rec/waiting-first (HAVE, then
// WAITING, then HAD): the arbiter's recovery timer fires while the network
// is quiet and P0 is in its CS (ENQUIRY to P0 and P1); P0 exits, passes the
// token to P1 and requests again, so both answer WAITING before P1
// receives the token; the arbiter concludes the token is lost and
// regenerates it for P0, while P1 enters with the real one. 17 steps
// (750,175 states); found by measure's simulation of the hooked model,
// confirmed by this exhaustive search.
func TestRecQuiescentTwoRequestsBreaksMutexWithoutLoss(t *testing.T) {
	sys := mustSystem(t, WaitingFirst, Options{N: 3, R: 2})
	algotest.ReplayShipped(t, sys, Properties(WaitingFirst), "testdata/rec-n3-r2-f0.mutex.trace.json", "mutex", 17)
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("heavy (the exhaustive search that finds the shipped trace, 750,175 states): set TOKENMC_HEAVY=1")
	}
	res := check(t, sys, props(t, sys, WaitingFirst, "mutex"))
	if res.Verdict != explore.Violated || res.Violation.Property.Name != "mutex" || res.Violation.Len() != 17 {
		t.Fatalf("verdict %s, want a 17-step mutex violation", res.Verdict)
	}
}

// The faithful reading (seed 003 §6, algorithms.md §6.5 step 4: HAVE, then
// HAD, then WAITING) records that P0 has executed its CS with the token of
// its schedule when it exits at step 10 of the waiting-first trace (had),
// so that it answers HAD at step 12: the trace does not replay on
// banerjee-rec, from step 10. banerjee-rec still breaks mutex at N = 3,
// R = 2 with no message lost, in 22 steps (13,500,913 states;
// TestRecHadFirstSearch, TOKENMC_HEAVY=1): a WARNING of round 1 reaches
// P2 after it launched round 2 and sent the token to P0; P0, which
// executed its CS in round 1 and requested again, answers HAD while the
// round-2 token is in transit to it, nobody answers HAVE, and P2
// regenerates the token for itself while P0 enters with the real one.
func TestRecHadFirstReading(t *testing.T) {
	sys := mustSystem(t, Rec, Options{N: 3, R: 2})
	tr, err := traces.ReadFile("testdata/rec-n3-r2-f0.mutex.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	tr.Algorithm = Rec
	res, err := traces.Replay(sys, invariants.With(Properties(Rec)...), tr)
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || res.DivergedAt != 10 || !strings.Contains(res.Reason, "P0: had is absent from the trace and true in the replay") {
		t.Errorf("the waiting-first trace on banerjee-rec: %+v; want a divergence at step 10, where P0 has had the token", res)
	}
	algotest.ReplayShipped(t, sys, Properties(Rec), "testdata/rec-n3-r2-f0-had-first.mutex.trace.json", "mutex", 22)
}

func TestRecHadFirstSearch(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("set TOKENMC_HEAVY=1: 13.5 million states")
	}
	sys := mustSystem(t, Rec, Options{N: 3, R: 2})
	res := check(t, sys, props(t, sys, Rec, "mutex"))
	if res.Verdict != explore.Violated || res.Violation.Len() != 22 {
		t.Fatalf("verdict %s, want a 22-step mutex violation", res.Verdict)
	}
}
