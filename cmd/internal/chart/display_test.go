package chart_test

import (
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/cmd/internal/chart"
	"github.com/tokenmc/tokenmc/model"
)

// A state table shows phase and made, the group only for an algorithm
// with groups, never holds_token (the process column marks the holder),
// and then either the algorithm's own rendering, under "state", or each
// variable.
func TestDisplayFields(t *testing.T) {
	vars := model.ProcessDescription{Phase: "Waiting", Made: 2, Group: 1, HoldsToken: true, Vars: []byte(`{"rn":[1,2],"ln":3}`)}
	text := vars
	text.Text = "RN=[1 2]"
	for _, c := range []struct {
		p         model.ProcessDescription
		withGroup bool
		want      string
	}{
		{vars, false, "[{phase Waiting} {made 2} {rn [1,2]} {ln 3}]"},
		{vars, true, "[{phase Waiting} {made 2} {group 1} {rn [1,2]} {ln 3}]"},
		{text, false, "[{phase Waiting} {made 2} {state RN=[1 2]}]"},
		{text, true, "[{phase Waiting} {made 2} {group 1} {state RN=[1 2]}]"},
	} {
		if got := fmt.Sprint(chart.DisplayFields(&c.p, c.withGroup)); got != c.want {
			t.Errorf("text %q, groups %v: %s, want %s", c.p.Text, c.withGroup, got, c.want)
		}
	}
}
