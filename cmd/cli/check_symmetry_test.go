package cli

import (
	"strings"
	"testing"
)

// TestCheckSymmetry: check --symmetry gives the same verdict and shortest
// counterexample length as the plain search, fewer states, reports the
// group in --json and in the summary, and writes a concrete trace that
// plain replay accepts.
func TestCheckSymmetry(t *testing.T) {
	cases := []struct {
		algo, n string
		verdict string
	}{
		{"lelann", "4", "ok"},
		{"naimi-trehel", "4", "ok"},
		{"lelann/pass-on-entry", "3", "violation"},
		{"lelann/drop-on-exit", "3", "violation"},
		{"naimi-trehel/send-in-cs", "3", "violation"},
		{"naimi-trehel/drop-next", "3", "violation"},
		{"raymond/keep-holder", "3", "violation"},
		{"raymond/no-reask", "3", "violation"},
		{"torus/copy-on-enter", "4", "violation"},
		{"torus/enter-if-marked", "4", "violation"},
	}
	for _, c := range cases {
		t.Run(c.algo, func(t *testing.T) {
			t.Chdir(t.TempDir())
			args := []string{"check", "--algo", c.algo, "--n", c.n, "--r", "1", "--json", "--progress", "0"}
			code := exitOK
			if c.verdict == "violation" {
				code = exitViolation
			}
			plain := runCLI(t, args...)
			plain.wantCode(t, code)
			red := runCLI(t, append(args, "--symmetry", "--trace-out", "sym.trace.json")...)
			red.wantCode(t, code)
			p, r := plain.jsonObject(t), red.jsonObject(t)
			if p["verdict"] != c.verdict || r["verdict"] != c.verdict {
				t.Fatalf("verdicts %v (plain) and %v (symmetry), want %s", p["verdict"], r["verdict"], c.verdict)
			}
			if _, ok := p["symmetry"]; ok {
				t.Error("a plain check reports a symmetry")
			}
			sym, ok := r["symmetry"].(map[string]any)
			if !ok || sym["group"] == "" || sym["order"].(float64) < 2 {
				t.Fatalf("symmetry field: %v", r["symmetry"])
			}
			if rs, ps := r["states"].(float64), p["states"].(float64); rs > ps || (c.verdict == "ok" && rs >= ps) {
				t.Errorf("%v states with symmetry, %v without", rs, ps)
			}
			if c.verdict != "violation" {
				return
			}
			pv, rv := p["violation"].(map[string]any), r["violation"].(map[string]any)
			if pv["property"] != rv["property"] || pv["length"] != rv["length"] {
				t.Fatalf("plain: %v after %v steps; symmetry: %v after %v", pv["property"], pv["length"], rv["property"], rv["length"])
			}
			rep := replay(t, exitOK, "sym.trace.json")
			if !rep.Reproduced || float64(rep.Steps) != rv["length"].(float64) {
				t.Errorf("plain replay of the symmetry trace: %+v", rep)
			}
		})
	}
}

func TestCheckSymmetryText(t *testing.T) {
	t.Chdir(t.TempDir())
	r := runCLI(t, "check", "--algo", "lelann", "--n", "4", "--symmetry", "--progress", "0")
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "symmetry: reduced by rotations (4 elements)") {
		t.Errorf("no symmetry line in the summary:\n%s", r.stdout)
	}
	r = runCLI(t, "check", "--algo", "naimi-trehel/send-in-cs", "--symmetry", "--dfs", "--progress", "0")
	r.wantCode(t, exitViolation)
	if !strings.Contains(r.stdout, "replay it with") {
		t.Errorf("depth-first search with symmetry wrote no trace:\n%s", r.stdout)
	}
}

func TestCheckSymmetryRefusals(t *testing.T) {
	cases := []struct {
		args []string
		word string
	}{
		{[]string{"--algo", "suzuki-kasami"}, "suzuki-kasami/any-order"},
		{[]string{"--algo", "ricart-agrawala"}, "declares no symmetry"},
		{[]string{"--algo", "lelann", "--props", "starvation-freedom"}, "liveness"},
	}
	for _, c := range cases {
		r := runCLI(t, append([]string{"check", "--symmetry", "--progress", "0"}, c.args...)...)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, c.word)
	}
}
