package cli

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

// ringWith is Le Lann's ring as a user's algorithm with one more
// parameter, extra, which Build ignores.
func ringWith(extra string) algorithms.Algorithm {
	return algorithms.Algorithm{
		Name: "my-ring", Doc: "a token ring", Source: "a test",
		Params: []spec.Param{
			{Name: "n", Doc: "processes", Min: 2, Max: 6, Default: 3},
			{Name: "r", Doc: "requests per process", Min: 1, Max: 3, Default: 1, SimMax: -1},
			{Name: extra, Doc: "unused", Min: 0, Max: 3, Default: 0},
		},
		Variants: []algorithms.Variant{{Name: "my-ring", Kind: spec.KindDefault, Doc: "the ring"}},
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

// A user's parameter named like a flag of any command that takes
// parameter flags is refused up front, in one line naming it and the
// commands, exit 2 (it used to crash such a command with "flag
// redefined", exit 4, or to be impossible to set), whatever the command
// (list here, which has no parameter flags). The flags are read
// from each command's --help, so a flag added later is covered or this
// test fails.
func TestParamNamedLikeFlag(t *testing.T) {
	builtinParams := map[string]bool{"h": true, "help": true}
	for _, a := range algorithms.All() {
		for _, p := range a.Params {
			builtinParams[p.Name] = true
		}
	}
	flagLine := regexp.MustCompile(`(?m)^  --([a-z0-9-]+)`)
	for cmd := range commandFlags {
		r := runCLI(t, "help", cmd, "--all")
		r.wantCode(t, exitOK)
		var own []string
		for _, m := range flagLine.FindAllStringSubmatch(r.stdout, -1) {
			if !builtinParams[m[1]] {
				own = append(own, m[1])
			}
		}
		if want := slices.Sorted(slices.Values(commandFlags[cmd])); !slices.Equal(own, want) {
			t.Errorf("%s --help lists the flags %v; commandFlags has %v", cmd, own, want)
		}
		for _, name := range own {
			var out, errb bytes.Buffer
			code := Run([]string{"list"}, &out, &errb, ringWith(name))
			msg := errb.String()
			if code != exitBadInput || strings.Count(msg, "\n") != 1 ||
				!strings.HasPrefix(msg, `tokenmc: my-ring: parameter "`+name+`" is named like the flag --`+name+" of ") || !strings.Contains(msg, cmd) {
				t.Errorf("parameter %q (a flag of %s): exit %d, stderr %q; want exit 2 and one line naming it", name, cmd, code, msg)
			}
		}
	}
	// the crash it replaces: check --algo with a parameter named workers
	var out, errb bytes.Buffer
	if code := Run([]string{"check", "--algo", "my-ring", "--workers", "1"}, &out, &errb, ringWith("workers")); code != exitBadInput || strings.Contains(errb.String(), "internal error") {
		t.Errorf("parameter workers, check --workers 1: exit %d\n%s", code, errb.String())
	}
	for _, name := range []string{"h", "help"} {
		if code := Run([]string{"list"}, &bytes.Buffer{}, &bytes.Buffer{}, ringWith(name)); code != exitBadInput {
			t.Errorf("parameter %q: exit %d, want 2", name, code)
		}
	}
	// a parameter named like no flag is a flag of every such command
	for _, args := range [][]string{
		{"check", "--algo", "my-ring", "--delay", "2", "--workers", "1"},
		{"simulate", "--algo", "my-ring", "--delay", "2", "--runs", "2", "--seed", "3"},
	} {
		var out, errb bytes.Buffer
		if code := Run(args, &out, &errb, ringWith("delay")); code != exitOK {
			t.Errorf("%v: exit %d\n%s%s", args, code, out.String(), errb.String())
		}
	}
}
