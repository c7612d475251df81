package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// Bad input exits 2 with one line on stderr that says what is wrong, and
// nothing on stdout.
func TestBadInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such.trace.json")
	cases := []struct {
		name string
		args []string
		word string // the stderr line must contain it
	}{
		{"unknown algorithm", []string{"check", "--algo", "lamport"}, `unknown algorithm "lamport"`},
		{"unknown variant", []string{"check", "--algo", "torus/nope"}, `unknown variant "torus/nope"`},
		{"sk n=1", []string{"check", "--algo", "suzuki-kasami", "--n", "1"}, "n=1 is out of range 2..16"},
		{"sk n=17", []string{"check", "--algo", "suzuki-kasami", "--n", "17"}, "out of range"},
		{"torus n=5", []string{"check", "--algo", "torus", "--n", "5"}, "not a square"},
		{"torus n=8", []string{"check", "--algo", "torus/literal", "--n", "8"}, "not a square"},
		{"r=0", []string{"check", "--algo", "suzuki-kasami", "--r", "0"}, "r=0 is out of range 1..8"},
		{"unknown property", []string{"check", "--algo", "suzuki-kasami", "--props", "mutex,liveness"}, `unknown property "liveness"`},
		{"property of another algorithm", []string{"check", "--algo", "torus", "--props", "token-serves-waiting"}, `unknown property "token-serves-waiting"`},
		{"no property", []string{"check", "--algo", "suzuki-kasami", "--props", ","}, "no property"},
		{"unknown flag", []string{"check", "--algo", "suzuki-kasami", "--bogus"}, "-bogus"},
		{"bad flag value", []string{"check", "--algo", "suzuki-kasami", "--n", "three"}, `invalid value "three"`},
		{"missing --algo", []string{"check"}, "--algo"},
		{"missing --algo with flags", []string{"check", "--n", "3"}, "--algo"},
		{"positional junk", []string{"check", "--algo", "suzuki-kasami", "junk"}, `"junk"`},
		{"workers=0", []string{"check", "--algo", "suzuki-kasami", "--workers", "0"}, "--workers"},
		{"negative bound", []string{"check", "--algo", "suzuki-kasami", "--max-states", "-1"}, "--max-states"},
		{"list junk", []string{"list", "all"}, `"all"`},
		{"replay no file", []string{"replay"}, "trace FILE"},
		{"replay two files", []string{"replay", "a.json", "b.json"}, "exactly one"},
		{"replay no file, --json", []string{"replay", "--json"}, "trace FILE"},
		{"replay missing file", []string{"replay", missing}, "no such file"},
		{"unknown subcommand", []string{"verify"}, `unknown command "verify"`},
		{"unknown subcommand flag-like", []string{"--algo", "suzuki-kasami"}, "unknown command"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(t.TempDir()) // nothing may be written, but if it is, not here
			r := runCLI(t, c.args...)
			r.wantCode(t, exitBadInput)
			r.wantOneLineError(t, c.word)
		})
	}
}

// Bad input that is caught after flag parsing prints nothing on stdout.
// (Flag errors are in TestFlagErrorPrintsNoUsage.)
func TestBadInputStdoutEmpty(t *testing.T) {
	for _, args := range [][]string{
		{"check", "--algo", "lamport"},
		{"check", "--algo", "torus", "--n", "5"},
		{"check"},
		{"replay"},
		{"verify"},
	} {
		r := runCLI(t, args...)
		r.wantCode(t, exitBadInput)
		if r.stdout != "" {
			t.Errorf("%v: stdout %q", args, r.stdout)
		}
	}
}

// No arguments at all: the overall usage, on stderr, exit 2.
func TestNoArguments(t *testing.T) {
	r := runCLI(t)
	r.wantCode(t, exitBadInput)
	if r.stdout != "" || !strings.Contains(r.stderr, "usage:") || !strings.Contains(r.stderr, "tokenmc check --algo NAME") {
		t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
	}
}

// A flag error is reported in one line on stderr only: newFlagSet promises
// "reports errors in one line instead of printing its usage".
//
// KNOWN BUG (cmd/cli/flags.go, newFlagSet): the flag package calls
// fs.Usage itself on every parse error (FlagSet.failf), and newFlagSet's
// Usage prints the whole usage to stdout, so "check --bogus" prints 38 lines
// of usage on stdout besides the error line on stderr.
func TestFlagErrorPrintsNoUsage(t *testing.T) {
	for _, args := range [][]string{
		{"check", "--algo", "suzuki-kasami", "--bogus"},
		{"check", "--algo", "suzuki-kasami", "--n", "three"},
		{"list", "--bogus"},
		{"replay", "--bogus", "x.json"},
	} {
		r := runCLI(t, args...)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, "--help")
		if r.stdout != "" {
			t.Errorf("tokenmc %s: stdout is not empty (%d lines; flag package calls fs.Usage on parse errors):\n%s",
				strings.Join(args, " "), strings.Count(r.stdout, "\n"), firstLines(r.stdout, 3))
		}
	}
}

// --help prints the usage once.
//
// KNOWN BUG (cmd/cli/flags.go, parseFlags): the flag package already
// calls fs.Usage before returning flag.ErrHelp, and parseFlags calls it
// again, so every "COMMAND --help" prints its usage twice.
func TestHelpPrintedOnce(t *testing.T) {
	for _, args := range [][]string{{"check", "--help"}, {"list", "--help"}, {"replay", "-h"}} {
		r := runCLI(t, args...)
		r.wantCode(t, exitOK)
		if n := strings.Count(r.stdout, "usage: "); n != 1 {
			t.Errorf("tokenmc %s: usage printed %d times, want once", strings.Join(args, " "), n)
		}
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitAfterN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "...\n")
	}
	return strings.Join(lines, "")
}
