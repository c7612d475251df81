package torus

import (
	"testing"

	"github.com/tokenmc/tokenmc/explore/modeltest"
	"github.com/tokenmc/tokenmc/model"
)

// The scripted scenarios of semantics.md §3, docs/notes/torus.md and its
// mutants, kept as data under testdata/scenarios (go test -run
// TestScenarios -modeltest.update rewrites their expected outputs).
func TestScenarios(t *testing.T) {
	modeltest.RunDir(t, "testdata/scenarios", func(a *modeltest.Args) (model.System, []model.Property, error) {
		p, err := New(a.String("variant", Repaired), a.Int("n", 4), a.Int("r", 1))
		if err != nil {
			return nil, nil, err
		}
		return p.System(), Properties(), nil
	})
}
