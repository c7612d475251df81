package live_test

import (
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/cmd/internal/live"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// A model whose Exit appends the waiting ids in any order
// (suzuki-kasami/any-order, protocol.Ctx.Choose) runs with a random order
// drawn from the run's seed: some runs append in another order than
// ascending, which the default model (ascending) rejects at that Exit's
// token send, and every log is a behaviour of the model it ran.
func TestRunsTakeEveryAlternative(t *testing.T) {
	params := map[string]int{"n": 4, "r": 2}
	anyOrder := build(t, "suzuki-kasami/any-order", params)
	plain := build(t, "suzuki-kasami", params)
	other := 0
	for seed := uint64(1); seed <= 8; seed++ {
		l, st := runLog(t, "suzuki-kasami/any-order", params, anyOrder, live.Chan, seed, 0)
		if !st.Completed || st.Entries != 8 {
			t.Fatalf("seed %d: the run did not serve every request: %+v", seed, st)
		}
		if res := eventlog.Validate(anyOrder, l); !res.OK {
			t.Fatalf("seed %d: the log is not a behaviour of any-order: %v: %s", seed, res.Failed, res.Reason)
		}
		res := eventlog.Validate(plain, l)
		if res.OK {
			continue
		}
		// The ascending model explains every step before it: the step
		// it rejects is an Exit whose token carries another order.
		if res.Failed == nil || res.Failed.Kind != eventlog.KindSend || !strings.HasPrefix(res.Failed.Msg, "TOKEN(") ||
			!strings.Contains(res.Reason, "the model's step Exit(") {
			t.Fatalf("seed %d: against suzuki-kasami: %v: %s", seed, res.Failed, res.Reason)
		}
		other++
	}
	if other == 0 {
		t.Fatal("no run of 8 appended the waiting ids in another order than ascending")
	}
	t.Logf("%d of 8 runs appended in another order than ascending", other)
}
