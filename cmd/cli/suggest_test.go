package cli

import (
	"strings"
	"testing"
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

// Every algorithm parameter flag says what it means and for which
// algorithms, instead of "algorithm parameter".
func TestParameterHelp(t *testing.T) {
	r := runCLI(t, "check", "--help")
	r.wantCode(t, exitOK)
	if strings.Contains(r.stdout, "algorithm parameter") {
		t.Fatalf("a parameter is still described as \"algorithm parameter\":\n%s", r.stdout)
	}
	for _, want := range []string{
		"-k int\n    \tnumber of resources K, one token each (Request(i, g=r) asks for resource r) (coord-res); number of resources K",
		"-tau int\n    \tforwarding threshold and miss count tau",
		"-faults int\n    \tmessage-loss budget F (banerjee-rec",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("check --help lacks %q", want)
		}
	}
}
