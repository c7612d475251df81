package banerjee

import (
	"testing"

	"github.com/tokenmc/tokenmc/explore/modeltest"
	"github.com/tokenmc/tokenmc/model"
)

// The scripted scenarios of algorithms.md §6, kept as data under
// testdata/scenarios (go test -run TestScenarios -modeltest.update rewrites their
// expected outputs). The build command takes the variant and the fields of
// Options: n, r, tau, period, faults, lose, crash.
func TestScenarios(t *testing.T) {
	modeltest.RunDir(t, "testdata/scenarios", func(a *modeltest.Args) (model.System, []model.Property, error) {
		variant := a.String("variant", Default)
		sys, err := System(variant, Options{
			N: a.Int("n", 3), R: a.Int("r", 1), Tau: a.Int("tau", 0), Period: a.Int("period", 0),
			Faults: a.Int("faults", 0), Lose: a.Int("lose", 0), Crash: a.Int("crash", 0),
		})
		if err != nil {
			return nil, nil, err
		}
		return sys, Properties(variant), nil
	})
}
