package explore_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// hookAllocCases are models whose per-state work runs outside the protocol
// layer's own allocation-free loop: a Normalize hook (coord-ring and
// banerjee cyclic renumber every successor), a whole-state Guard that reads
// the network through View.Messages (banerjee cyclic, banerjee-rec, drs-gme
// timers), an algorithm's own invariant that decodes every message in
// transit (drs-gme's single-token counts live tokens), a decoder of
// messages that carry slices (drs-gme's tokens), FIFO channels and a
// requester restriction (torus). The counts are those of the search before
// the hooks stopped allocating (they must not change).
var hookAllocCases = []struct {
	algo                string
	params              map[string]int
	states, transitions int64
}{
	{"coord-ring", map[string]int{"n": 4, "cyclic": 1}, 10277, 30983},
	{"banerjee", map[string]int{"cyclic": 1}, 161790, 750258},
	{"drs-gme", map[string]int{"timers": 2}, 65201, 231476},
	{"banerjee-rec", nil, 9644, 50157}, // 9646, 50165 before the HAD-first reading of ENQUIRY replies
	{"torus", map[string]int{"fifo": 1}, 13144, 34558},
	{"torus", map[string]int{"n": 9, "requesters": 7}, 56613, 167415},
}

// maxAllocsPerState bounds the allocations of a whole search divided by its
// states. A search makes a fixed number of allocations (seen-set tables,
// level buffers, worker set-up, a counterexample: about 2,500 to 4,000 on
// these models, under 0.3 per state on the smallest, torus fifo=1), plus
// some per level and block. A hook, guard, property or decoder that
// allocates once per call runs at least once per state (properties) or per
// transition (Normalize, Guard, decoders), so it adds at least 1 per state
// and the search fails the bound; before this test the models above made
// 4 (banerjee cyclic), 6.3 (coord-ring cyclic) and 70.7 (drs-gme) per state.
const maxAllocsPerState = 0.5

// TestHookedSearchesDoNotAllocatePerState: explore.Check with one worker
// on models with protocol hooks allocates less than maxAllocsPerState per
// state, and the same search with two workers (hooks and decoders running
// concurrently, each worker with its own scratch) finds the same counts.
func TestHookedSearchesDoNotAllocatePerState(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("heavy (large hooked searches; TestSearchDoesNotAllocatePerState stays): set TOKENMC_HEAVY=1")
	}
	for _, c := range hookAllocCases {
		name := fmt.Sprint(c.algo, c.params)
		a, v, err := algorithms.Lookup(c.algo)
		if err != nil {
			t.Fatal(err)
		}
		sys, extra, err := a.Build(v.Name, c.params)
		if err != nil {
			t.Fatal(name, err)
		}
		props, err := invariants.Select(invariants.With(extra...), sys.Info(), "")
		if err != nil {
			t.Fatal(name, err)
		}
		for _, workers := range []int{1, 2} {
			var res *explore.Result
			start := time.Now()
			allocs := testing.AllocsPerRun(1, func() {
				res, err = explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: workers})
			})
			if err != nil {
				t.Fatalf("%s workers=%d: %v", name, workers, err)
			}
			if res.States != c.states || res.Transitions != c.transitions {
				t.Errorf("%s workers=%d: %d states, %d transitions, want %d, %d", name, workers, res.States, res.Transitions, c.states, c.transitions)
			}
			perState := allocs / float64(res.States)
			t.Logf("%s workers=%d: %d states, %.0f allocations (%.3f per state), %v", name, workers, res.States, allocs, perState, time.Since(start).Round(time.Millisecond))
			if workers == 1 && perState > maxAllocsPerState {
				t.Errorf("%s: %.0f allocations for %d states (%.2f per state), want at most %.1f per state", name, allocs, res.States, perState, maxAllocsPerState)
			}
		}
	}
}
