package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
)

// The command line suggests what a mistyped name was meant to be.
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"chek"}, `unknown command "chek"; did you mean check? (commands: `},
		{[]string{"help", "chek"}, `unknown command "chek"; did you mean check?`},
		{[]string{"check", "--algo", "suzuki-kasmi"}, `unknown algorithm "suzuki-kasmi"; did you mean suzuki-kasami? ('tokenmc list' shows every algorithm and variant)`},
		{[]string{"check", "--algo", "suzuki-kasami/keepcopy"}, `did you mean suzuki-kasami/keep-copy?`},
		{[]string{"check", "--algo", "torus", "--workrs", "2"}, `flag provided but not defined: -workrs; did you mean --workers?`},
		{[]string{"--algo", "torus"}, `unknown command "--algo"; the command comes first`},
	} {
		r := runCLI(t, c.args...)
		r.wantCode(t, exitBadInput)
		if !strings.Contains(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("tokenmc %s: stderr %q, want one line with %q", strings.Join(c.args, " "), r.stderr, c.want)
		}
	}
	// an unknown algorithm no longer lists every variant: the bare names only
	r := runCLI(t, "check", "--algo", "lamport")
	if strings.Contains(r.stderr, "/") || !strings.Contains(r.stderr, "suzuki-kasami, torus") {
		t.Errorf("unknown algorithm: %q", r.stderr)
	}
}

// tokenmc help CMD prints CMD's help, exactly as CMD --help does.
func TestHelpCommand(t *testing.T) {
	for _, cmd := range commandNames() {
		h := runCLI(t, "help", cmd)
		h.wantCode(t, exitOK)
		d := runCLI(t, cmd, "--help")
		if h.stdout != d.stdout || !strings.HasPrefix(h.stdout, "usage: ") {
			t.Errorf("tokenmc help %s printed %q, %s --help %q", cmd, firstLine(h.stdout), cmd, firstLine(d.stdout))
		}
	}
	if r := runCLI(t, "help", "check"); !strings.Contains(r.stdout, "usage: tokenmc check --algo NAME") {
		t.Errorf("help check: %s", firstLine(r.stdout))
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "version"} {
		r := runCLI(t, arg)
		r.wantCode(t, exitOK)
		if !strings.HasPrefix(r.stdout, "tokenmc ") || !strings.Contains(r.stdout, "(go1.") || strings.Count(r.stdout, "\n") != 1 {
			t.Errorf("%s: %q", arg, r.stdout)
		}
	}
}

// Every algorithm parameter flag says what it means, its range and its
// default, for the algorithm --algo names (and only there: the short help
// lists no algorithm's own parameters).
func TestParameterHelp(t *testing.T) {
	plain := runCLI(t, "check", "--help")
	plain.wantCode(t, exitOK)
	for _, param := range []string{"--k ", "--tau ", "--faults "} {
		if strings.Contains(plain.stdout, param) {
			t.Errorf("check --help lists %q without --algo:\n%s", param, plain.stdout)
		}
	}
	for algo, want := range map[string]string{
		"coord-res":    "  --k 1..",
		"banerjee-sf":  "  --tau ",
		"banerjee-rec": "  --faults 0..",
	} {
		for _, args := range [][]string{{"help", "check", "--algo", algo}, {"check", "--algo", algo, "--help"}} {
			r := runCLI(t, args...)
			r.wantCode(t, exitOK)
			a, _, _ := algorithms.Lookup(algo)
			if !strings.Contains(r.stdout, "parameters of "+algo) || !strings.Contains(r.stdout, want) {
				t.Errorf("%v lacks the parameter %q:\n%s", args, want, r.stdout)
			}
			for _, p := range a.Params {
				if !strings.Contains(r.stdout, "  --"+p.Name+" ") || !strings.Contains(r.stdout, fmt.Sprintf("(default %d)", p.Default)) {
					t.Errorf("%v lacks --%s or its default %d", args, p.Name, p.Default)
				}
			}
		}
	}
}
