package explore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/traces"
)

// TestRecordedActionsGiveTheSameTraces: for every violation a search
// finds in the registry at its default parameters (breadth first with one
// and two workers, depth first), the trace built from the recorded
// actions (FromViolation) is byte for byte the one built by looking each
// transition up by its target (FromSteps with nil actions): a search records, for a state it
// reaches first, the first transition that reaches it, and FromSteps with nil actions takes
// the first. Measured under load: 173 violations, 4 s.
func TestRecordedActionsGiveTheSameTraces(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("heavy (every registry variant, three searches each): set TOKENMC_HEAVY=1")
	}
	n := 0
	for _, a := range algorithms.All() {
		for _, v := range a.Variants {
			sys, extra, err := a.Build(v.Name, registryParams(a, v))
			if err != nil {
				continue
			}
			props := invariants.Applicable(invariants.With(extra...), sys.Info())
			for _, o := range []explore.Options{{Workers: 1}, {Workers: 2}, {DFS: true}} {
				o.Properties = props
				o.MaxStates = 200_000
				res, err := explore.Check(context.Background(), sys, o)
				if err != nil || res.Violation == nil {
					continue
				}
				vi := res.Violation
				old, err1 := traces.FromSteps(sys.NewWorker(), traces.MetaOf(sys, vi.Property), vi.Path, nil)
				nw, err2 := traces.FromViolation(sys, vi)
				b1, _ := json.Marshal(old)
				b2, _ := json.Marshal(nw)
				n++
				if err1 != nil || err2 != nil || !bytes.Equal(b1, b2) {
					t.Errorf("%s (dfs %v, workers %d): the traces differ (FromSteps without actions: %v, FromViolation: %v)", v.Name, o.DFS, o.Workers, err1, err2)
				}
			}
		}
	}
	if n < 100 {
		t.Errorf("%d violations compared; the registry's mutants give more", n)
	}
	t.Logf("%d violations compared", n)
}

// registryParams returns the parameters the registry gives variant v of
// a: the algorithm's defaults, overridden by the variant's own.
func registryParams(a algorithms.Algorithm, v algorithms.Variant) map[string]int {
	params := map[string]int{}
	for _, p := range a.Params {
		params[p.Name] = p.Default
	}
	for k, x := range v.Params {
		params[k] = x
	}
	return params
}
