package measure

import (
	"context"
	"math"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

// myRing is a user's algorithm, not in the registry: Le Lann's ring under
// another name, built from the public API only.
func myRing(name string) *algorithms.Algorithm {
	return &algorithms.Algorithm{
		Name: name, Doc: "a user's token ring", Source: "a test",
		Params: []spec.Param{
			{Name: "n", Doc: "processes", Min: 2, Max: 6, Default: 3},
			{Name: "r", Doc: "requests per process", Min: 1, Max: 3, Default: 1, SimMax: -1},
		},
		Variants: []algorithms.Variant{{Name: name, Kind: spec.KindDefault, Doc: "the ring"}},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			p, err := lelann.New(lelann.Default, params["n"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Name = variant
			return p.System(), nil, nil
		},
	}
}

// A user's algorithm, which carries no facts (Algorithm.Measure), is measured: the same
// simulation as the built-in Le Lann ring it wraps, except that no
// built-in profile applies to it, so the token's idle circulation, which
// the built-in profile sets apart, counts among its messages. Its name,
// even a built-in one, selects no profile.
func TestUserAlgorithm(t *testing.T) {
	for _, load := range []Load{lightLoad, heavyLoad} {
		ref := small(t, Config{Algo: "lelann", N: 5, Load: load})
		if load == lightLoad && !(ref.IdlePerCS.Mean > 1) {
			t.Fatalf("lelann light: %.3f idle messages per CS; the cross-check below needs some", ref.IdlePerCS.Mean)
		}
		for _, name := range []string{"my-ring", "lelann"} {
			mine := small(t, asUser(myRing(name), Config{Algo: name, N: 5, Load: load}))
			if mine.Entries != ref.Entries || mine.IdlePerCS.Mean != 0 {
				t.Errorf("%s %s: %d entries, idle %.3f; want %d entries (lelann's) and no idle messages", name, load, mine.Entries, mine.IdlePerCS.Mean, ref.Entries)
			}
			if want := ref.MessagesPerCS.Mean + ref.IdlePerCS.Mean; math.Abs(mine.MessagesPerCS.Mean-want) > 1e-9*want {
				t.Errorf("%s %s: %.6f messages per CS, want lelann's %.6f + idle %.6f", name, load, mine.MessagesPerCS.Mean, ref.MessagesPerCS.Mean, ref.IdlePerCS.Mean)
			}
		}
	}
	if _, err := run(context.Background(), asUser(myRing("my-ring"), Config{Algo: "my-ring/nope", N: 3, Load: heavyLoad}), 1); err == nil {
		t.Error("my-ring/nope: no error")
	}
}
