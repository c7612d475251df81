package cli

import (
	"strings"
	"testing"
)

// explore refuses bad input in one line, before it listens.
func TestExploreBadInput(t *testing.T) {
	lasso := "../../algorithms/torus/testdata/literal-d2-r1.starvation-freedom.P1.trace.json"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explore"}, "explore needs --algo NAME or --trace FILE"},
		{[]string{"explore", "--algo", "suzuki-kasmi"}, "did you mean suzuki-kasami?"},
		{[]string{"explore", "--algo", "torus", "--n", "5"}, "N=5 is not a square"},
		{[]string{"explore", "--algo", "suzuki-kasami", "--trace", lasso}, "is a trace of torus/literal (n=4 r=1), not of suzuki-kasami (n=3 r=1)"},
		{[]string{"explore", "--trace", "no-such.json"}, "no-such.json"},
		{[]string{"explore", "--algo", "torus", "--addr", "127.0.0.1:99999"}, "--addr 127.0.0.1:99999"},
		{[]string{"explore", "--algo", "torus", "--props", "nope"}, "nope"},
		{[]string{"explore", lasso}, "did you mean --trace"},
		{[]string{"explore", "--algo", "torus", "--props", "starvation-freedom"}, "step its lasso with explore --trace FILE"},
	} {
		r := runCLI(t, c.args...)
		r.wantCode(t, exitBadInput)
		if !strings.Contains(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
			t.Errorf("tokenmc %s: stderr %q stdout %q, want one line with %q", strings.Join(c.args, " "), r.stderr, r.stdout, c.want)
		}
	}
}
