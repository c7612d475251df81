package modeltest_test

import (
	"testing"

	"github.com/tokenmc/tokenmc/explore/modeltest"
	"github.com/tokenmc/tokenmc/model"
)

// The scenarios of the token ring (and its keep-copy mutant) under
// testdata/scenarios; run with -modeltest.update to rewrite their expected outputs.
func TestScenarios(t *testing.T) {
	modeltest.RunDir(t, "testdata/scenarios", func(a *modeltest.Args) (model.System, []model.Property, error) {
		return ring(a.Int("n", 3), a.Int("keep-copy", 0) == 1), nil, nil
	})
}
