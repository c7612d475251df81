package drsgme

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
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

// labels renders a violation path as transition labels.
func labels(t testing.TB, cfg Config, path [][]byte) []string {
	t.Helper()
	sys, err := System(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := sys.NewWorker()
	var out []string
	for k := 1; k < len(path); k++ {
		var l string
		w.Successors(path[k-1], func(tr *model.Transition, next []byte) bool {
			if bytes.Equal(next, path[k]) {
				l = w.Label(path[k-1], tr)
				return false
			}
			return true
		})
		out = append(out, l)
	}
	return out
}

func joinLabels(ls []string) string { return strings.Join(ls, "; ") }

// maxStates bounds every check of the tests, so that a model change that
// blows up the state space fails fast instead of eating the machine.
const maxStates = 2_500_000
