package cli_test

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/cmd/cli"
	"github.com/tokenmc/tokenmc/model"
)

// myRing is a user's algorithm, not in the registry: Le Lann's ring under
// another name, with a mutant that loses the token on Exit. It is built
// from the public API only, as a user's own main would be.
func myRing() algorithms.Algorithm {
	return algorithms.Algorithm{
		Name:   "my-ring",
		Doc:    "a token ring",
		Source: "a test",
		Params: []spec.Param{
			{Name: "n", Doc: "processes", Min: 2, Max: 6, Default: 3},
			{Name: "r", Doc: "requests per process", Min: 1, Max: 3, Default: 1, SimMax: -1},
		},
		Variants: []algorithms.Variant{
			{Name: "my-ring", Kind: spec.KindDefault, Doc: "the ring"},
			{Name: "my-ring/drop", Kind: spec.KindMutant, Doc: "Exit loses the token", Breaks: []string{"no-deadlock"}, Params: map[string]int{"n": 2}},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			v := lelann.Default
			if variant == "my-ring/drop" {
				v = lelann.DropOnExit
			}
			p, err := lelann.New(v, params["n"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Name = variant // the system carries the variant's name
			return p.System(), nil, nil
		},
	}
}

type result struct {
	code           int
	stdout, stderr string
}

func run(algs []algorithms.Algorithm, args ...string) result {
	var out, errb bytes.Buffer
	code := cli.Run(args, &out, &errb, algs...)
	return result{code, out.String(), errb.String()}
}

func (r result) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return m
}

// A user's algorithm given to cli.Run gets check, replay, simulate and
// list; its counts and counterexample are those of the built-in model it
// wraps, checked through the registry.
func TestUserAlgorithmThroughRun(t *testing.T) {
	mine := []algorithms.Algorithm{myRing()}
	dir := t.TempDir()

	// check at the default: the same state space as the built-in lelann
	ok := run(mine, "check", "--algo", "my-ring", "--json", "--progress", "0")
	ref := run(algorithms.All(), "check", "--algo", "lelann", "--json", "--progress", "0")
	if ok.code != 0 || ref.code != 0 {
		t.Fatalf("exit %d (%s) and %d (%s), want 0", ok.code, ok.stderr, ref.code, ref.stderr)
	}
	got, want := ok.json(t), ref.json(t)
	if got["states"] != want["states"] || got["transitions"] != want["transitions"] || got["algorithm"] != "my-ring" {
		t.Errorf("my-ring: %v states %v transitions (%v), lelann: %v, %v", got["states"], got["transitions"], got["algorithm"], want["states"], want["transitions"])
	}

	// the mutant: its own n=2, the violation of lelann/drop-on-exit at n=2
	trace := filepath.Join(dir, "drop.trace.json")
	bad := run(mine, "check", "--algo", "my-ring/drop", "--json", "--progress", "0", "--props", "no-deadlock", "--trace-out", trace)
	refBad := run(algorithms.All(), "check", "--algo", "lelann/drop-on-exit", "--n", "2", "--json", "--progress", "0", "--props", "no-deadlock",
		"--trace-out", filepath.Join(dir, "ref.trace.json"))
	if bad.code != 1 || refBad.code != 1 {
		t.Fatalf("exit %d (%s) and %d (%s), want 1", bad.code, bad.stderr, refBad.code, refBad.stderr)
	}
	bv, rv := bad.json(t)["violation"].(map[string]any), refBad.json(t)["violation"].(map[string]any)
	if bv["length"] != rv["length"] || bv["property"] != "no-deadlock" {
		t.Errorf("my-ring/drop violation %v, lelann/drop-on-exit %v", bv, rv)
	}
	if p := bad.json(t)["variant_params"].(map[string]any); p["n"] != float64(2) {
		t.Errorf("variant_params %v, want n=2", p)
	}

	// the trace names my-ring/drop: it replays over the user's set only
	if r := run(mine, "replay", trace, "--json"); r.code != 0 || r.json(t)["reproduced"] != true {
		t.Errorf("replay over my-ring: exit %d, %s %s", r.code, r.stdout, r.stderr)
	}
	if r := run(algorithms.All(), "replay", trace); r.code != 2 || !strings.Contains(r.stderr, `unknown algorithm "my-ring/drop"`) {
		t.Errorf("replay over the built-in set: exit %d, stderr %q; want 2 and unknown algorithm", r.code, r.stderr)
	}

	// simulate, list, and the user's set alone in every lookup
	if r := run(mine, "simulate", "--algo", "my-ring/drop", "--runs", "20", "--steps", "50", "--progress", "0",
		"--trace-out", filepath.Join(dir, "sim.trace.json"), "--json"); r.code != 1 {
		t.Errorf("simulate my-ring/drop: exit %d, want 1; %s", r.code, r.stderr)
	}
	if r := run(mine, "list"); r.code != 0 || !strings.HasPrefix(r.stdout, "my-ring\n") || strings.Contains(r.stdout, "suzuki-kasami") {
		t.Errorf("list: exit %d\n%s", r.code, r.stdout)
	}
	r := run(mine, "check", "--algo", "my-rign")
	if r.code != 2 || !strings.Contains(r.stderr, `did you mean my-ring?`) {
		t.Errorf("check --algo my-rign: exit %d, stderr %q", r.code, r.stderr)
	}
	r = run(mine, "check", "--algo", "suzuki-kasami")
	if r.code != 2 || r.stderr != "tokenmc: unknown algorithm \"suzuki-kasami\"; the algorithms are my-ring ('tokenmc list' shows their variants)\n" {
		t.Errorf("check --algo suzuki-kasami over my-ring: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := run(mine, "check", "--algo", "my-ring", "--n", "7"); r.code != 2 || !strings.Contains(r.stderr, "n=7 is out of range 2..6") {
		t.Errorf("--n 7: exit %d, stderr %q", r.code, r.stderr)
	}
}

// measure times a user's algorithm: the same simulation as the built-in
// Le Lann ring it wraps, with the token's idle circulation (which only
// the built-in lelann's profile sets apart) among its messages, and no
// published formula.
func TestUserAlgorithmMeasure(t *testing.T) {
	args := []string{"--n", "4", "--load", "light", "--entries", "200", "--warmup", "20", "--reps", "2", "--json"}
	rows := func(r result) []map[string]any {
		t.Helper()
		var rows []map[string]any
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rows) != nil || len(rows) != 1 {
			t.Fatalf("exit %d, stdout %s, stderr %s; want 0 and one JSON row", r.code, r.stdout, r.stderr)
		}
		return rows
	}
	mine := rows(run([]algorithms.Algorithm{myRing()}, append([]string{"measure", "--algos", "my-ring"}, args...)...))[0]
	ref := rows(run(algorithms.All(), append([]string{"measure", "--algos", "lelann"}, args...)...))[0]
	if ref["idle_messages_per_cs"].(float64) < 1 || ref["published"] == nil {
		t.Fatalf("lelann light: %v idle messages per CS, published %v; the cross-check needs both", ref["idle_messages_per_cs"], ref["published"])
	}
	want := ref["messages_per_cs"].(float64) + ref["idle_messages_per_cs"].(float64)
	if got := mine["messages_per_cs"].(float64); math.Abs(got-want) > 1e-9*want || mine["algorithm"] != "my-ring" ||
		mine["entries"] != ref["entries"] || mine["published"] != nil || mine["idle_messages_per_cs"] != float64(0) {
		t.Errorf("my-ring: %v messages per CS (want lelann's %v + idle %v), entries %v (lelann %v), published %v",
			got, ref["messages_per_cs"], ref["idle_messages_per_cs"], mine["entries"], ref["entries"], mine["published"])
	}
}

// A description spec.Prepare refuses, or two algorithms with one
// name, is bad input: one line, exit 2, whatever the command.
func TestRunRefusesBadDescriptions(t *testing.T) {
	noBuild := myRing()
	noBuild.Build = nil
	for _, c := range []struct {
		name string
		algs []algorithms.Algorithm
		want string
	}{
		{"duplicate", []algorithms.Algorithm{myRing(), myRing()}, `two algorithms are named "my-ring"`},
		{"no build", []algorithms.Algorithm{noBuild}, "my-ring has no Build function"},
		{"none", nil, "no algorithms: give cli.Main at least one"},
	} {
		r := run(c.algs, "list")
		if r.code != 2 || r.stdout != "" || !strings.HasPrefix(r.stderr, "tokenmc: ") || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.name, r.code, r.stdout, r.stderr, c.want)
		}
	}
}
