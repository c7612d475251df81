package drsgme

import (
	"context"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// check runs a BFS over cfg with every applicable property (generic ones,
// single-token replaced by the valid-token one).
func check(t testing.TB, cfg Config, only ...string) *explore.Result {
	t.Helper()
	sys, err := System(cfg)
	if err != nil {
		t.Fatal(err)
	}
	props := AllProperties(cfg)
	var sel []model.Property
	for _, p := range props {
		if !p.AppliesTo(sys.Info()) {
			continue
		}
		if len(only) > 0 {
			keep := false
			for _, o := range only {
				keep = keep || o == p.Name
			}
			if !keep {
				continue
			}
		}
		sel = append(sel, p)
	}
	res, err := explore.Check(context.Background(), sys, explore.Options{Properties: sel, Workers: 2, MaxStates: maxStates})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// labels renders a violation path as transition labels (through
// traces.FromSteps, the one path-to-trace function, instead of a stepping
// helper of its own; the trace's property is a placeholder, as only its
// step labels are read).
func labels(t testing.TB, cfg Config, path [][]byte) []string {
	t.Helper()
	sys, err := System(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := traces.FromSteps(sys.NewWorker(), traces.Meta{Algorithm: sys.Info().Name, Property: "path"}, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(tr.Steps))
	for k, st := range tr.Steps {
		out[k] = st.Action
	}
	return out
}

func joinLabels(ls []string) string { return strings.Join(ls, "; ") }

// maxStates bounds every check of the tests, so that a model change that
// blows up the state space fails fast instead of eating the machine.
const maxStates = 2_500_000
