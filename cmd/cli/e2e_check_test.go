package cli

import (
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
)

func TestListText(t *testing.T) {
	r := runCLI(t, "list")
	r.wantCode(t, exitOK)
	for _, want := range []string{
		"suzuki-kasami\n", "torus\n",
		"--n 2..16 (default 3)", "--n 4..25 (default 4)", "--r 1..8 (default 1)",
		"suzuki-kasami/send-in-cs", "torus/literal", "[breaks mutex]",
		"coord-res/no-aging", "[breaks starvation-freedom; parameters: cyclic=1 k=1]",
		"properties: mutex, single-token, no-unrequested-entry, no-deadlock",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("list does not show %q:\n%s", want, r.stdout)
		}
	}
	if r.stderr != "" {
		t.Errorf("list wrote to stderr: %q", r.stderr)
	}
}

func TestListJSON(t *testing.T) {
	r := runCLI(t, "list", "--json")
	r.wantCode(t, exitOK)
	var got struct {
		Algorithms []struct {
			Name   string `json:"name"`
			Doc    string `json:"doc"`
			Source string `json:"source"`
			Params []struct {
				Name    string `json:"name"`
				Doc     string `json:"doc"`
				Min     int    `json:"min"`
				Max     int    `json:"max"`
				Default int    `json:"default"`
			} `json:"params"`
			Variants []struct {
				Name   string         `json:"name"`
				Kind   string         `json:"kind"`
				Doc    string         `json:"doc"`
				Breaks []string       `json:"breaks"`
				Params map[string]int `json:"params"`
			} `json:"variants"`
			Properties []string `json:"properties"`
		} `json:"algorithms"`
	}
	r.decodeJSON(t, &got)

	type rng struct{ min, max, def int }
	want := map[string]struct {
		params   map[string]rng
		variants []string // must be listed (default first)
		mutants  []string
		props    []string // must be listed
	}{
		"suzuki-kasami": {
			params:   map[string]rng{"n": {2, 16, 3}, "r": {1, 8, 1}},
			variants: []string{"suzuki-kasami"},
			mutants: []string{"suzuki-kasami/dup-in-q", "suzuki-kasami/keep-copy", "suzuki-kasami/no-increment",
				"suzuki-kasami/no-ln-update", "suzuki-kasami/send-in-cs"},
			props: []string{"mutex", "single-token", "no-unrequested-entry", "no-deadlock", "token-serves-waiting"},
		},
		"torus": {
			params:   map[string]rng{"n": {4, 25, 4}, "r": {1, 8, 1}, "requesters": {0, 1<<25 - 1, 0}, "fifo": {0, 1, 0}},
			variants: []string{"torus", "torus/literal"},
			mutants:  []string{"torus/copy-on-enter", "torus/enter-if-marked"},
			props:    []string{"mutex", "single-token", "no-unrequested-entry", "no-deadlock"},
		},
	}
	// Every algorithm must list a doc, a source and its default first;
	// the two of the core are checked in detail.
	for _, a := range got.Algorithms {
		if a.Doc == "" || a.Source == "" || len(a.Variants) == 0 || a.Variants[0].Name != a.Name {
			t.Errorf("%s: empty doc or source, or the default variant is not first", a.Name)
		}
		// a variant's own parameters (issue 11 item 7) as the registry has them
		for _, v := range a.Variants {
			_, rv, err := algorithms.Lookup(v.Name)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(v.Params, rv.Params) {
				t.Errorf("%s: list --json params %v, registry %v", v.Name, v.Params, rv.Params)
			}
		}
	}
	if n := len(got.Algorithms); n < 10 {
		t.Fatalf("list --json shows %d algorithms", n)
	}
	for _, a := range got.Algorithms {
		w, ok := want[a.Name]
		if !ok {
			continue
		}
		delete(want, a.Name)
		if a.Doc == "" || a.Source == "" {
			t.Errorf("%s: empty doc or source", a.Name)
		}
		if len(a.Params) != len(w.params) {
			t.Errorf("%s: %d params, want %d", a.Name, len(a.Params), len(w.params))
		}
		for _, p := range a.Params {
			if (rng{p.Min, p.Max, p.Default}) != w.params[p.Name] || p.Doc == "" {
				t.Errorf("%s param %s: min %d max %d default %d (doc %q), want %+v", a.Name, p.Name, p.Min, p.Max, p.Default, p.Doc, w.params[p.Name])
			}
		}
		kinds := map[string]string{}
		for _, v := range a.Variants {
			kinds[v.Name] = v.Kind
			if v.Kind == "mutant" && len(v.Breaks) == 0 {
				t.Errorf("%s: mutant %s lists nothing it breaks", a.Name, v.Name)
			}
		}
		if len(a.Variants) == 0 || a.Variants[0].Name != a.Name {
			t.Errorf("%s: the first variant is not the default %q", a.Name, a.Name)
		}
		for _, v := range w.variants {
			if _, ok := kinds[v]; !ok {
				t.Errorf("%s: variant %s not listed", a.Name, v)
			}
		}
		for _, v := range w.mutants {
			if kinds[v] != "mutant" {
				t.Errorf("%s: variant %s has kind %q, want mutant", a.Name, v, kinds[v])
			}
		}
		for _, p := range w.props {
			if !slices.Contains(a.Properties, p) {
				t.Errorf("%s: property %s not listed in %v", a.Name, p, a.Properties)
			}
		}
	}
	for name := range want {
		t.Errorf("algorithm %s missing from list --json", name)
	}
}

// The exact counts pinned (and cross-checked against an independent
// enumerator) in algorithms/crosscheck_test.go must come out of the CLI in
// every search mode.
func TestCheckSuzukiKasamiCounts(t *testing.T) {
	base := []string{"--algo", "suzuki-kasami", "--n", "3", "--r", "1"}

	t.Run("contract", func(t *testing.T) {
		r := runCLI(t, append(append([]string{"check"}, base...), "--json")...)
		r.wantCode(t, exitOK)
		m := r.jsonObject(t)
		for _, k := range []string{"algorithm", "params", "properties", "verdict", "states", "transitions",
			"depth", "elapsed_s", "states_per_s", "bytes_per_state"} {
			if _, ok := m[k]; !ok {
				t.Errorf("check --json lacks %q:\n%s", k, r.stdout)
			}
		}
		if _, ok := m["violation"]; ok {
			t.Errorf("an ok report has a violation:\n%s", r.stdout)
		}
		if _, ok := m["stop_reason"]; ok {
			t.Errorf("a complete report has a stop_reason:\n%s", r.stdout)
		}
		if r.stderr != "" {
			t.Errorf("stderr: %q", r.stderr)
		}
	})

	cases := []struct {
		name         string
		flags        []string
		search, mode string
		workers      int // 0: do not check
	}{
		{"default", nil, "bfs", "fingerprint", 0},
		{"workers=1", []string{"--workers", "1"}, "bfs", "fingerprint", 1},
		{"workers=3", []string{"--workers", "3"}, "bfs", "fingerprint", 3},
		{"dfs", []string{"--dfs"}, "dfs", "fingerprint", 1},
		{"exact", []string{"--exact"}, "bfs", "exact", 0},
		{"dfs+exact", []string{"--dfs", "--exact"}, "dfs", "exact", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, _ := check(t, exitOK, append(slices.Clone(base), c.flags...)...)
			if rep.Verdict != "ok" || rep.States != 726 || rep.Transitions != 2079 {
				t.Errorf("verdict %s, %d states, %d transitions; want ok, 726, 2079", rep.Verdict, rep.States, rep.Transitions)
			}
			// Depth is the BFS level count; a depth-first search reports
			// the depth of its stack instead.
			if c.search == "bfs" && rep.Depth != 15 {
				t.Errorf("depth %d, want 15", rep.Depth)
			}
			if rep.Algorithm != "suzuki-kasami" || rep.Params["n"] != 3 || rep.Params["r"] != 1 || len(rep.Params) != 2 {
				t.Errorf("algorithm %q params %v", rep.Algorithm, rep.Params)
			}
			wantProps := []string{"mutex", "single-token", "no-unrequested-entry", "no-deadlock", "token-serves-waiting"}
			if !slices.Equal(rep.Properties, wantProps) {
				t.Errorf("properties %v, want %v", rep.Properties, wantProps)
			}
			if rep.Search != c.search || rep.Mode != c.mode || (c.workers != 0 && rep.Workers != c.workers) {
				t.Errorf("search %s mode %s workers %d, want %s %s %d", rep.Search, rep.Mode, rep.Workers, c.search, c.mode, c.workers)
			}
			if c.mode == "exact" && rep.CollisionProbability != 0 {
				t.Errorf("--exact reports collision probability %g", rep.CollisionProbability)
			}
			// A search takes time, its rate is states over time, and its
			// seen set holds at least a fingerprint (8 bytes) per state.
			if rep.ElapsedS <= 0 || math.Abs(rep.StatesPerS*rep.ElapsedS-float64(rep.States)) > 1e-6*float64(rep.States) || rep.BytesPerState < 8 {
				t.Errorf("elapsed_s %g states_per_s %g bytes_per_state %g; want > 0, states/elapsed_s = %g, >= 8",
					rep.ElapsedS, rep.StatesPerS, rep.BytesPerState, float64(rep.States)/rep.ElapsedS)
			}
			if rep.StopReason != "" || rep.Violation != nil {
				t.Errorf("stop_reason %q violation %+v", rep.StopReason, rep.Violation)
			}
		})
	}
}

func TestCheckTextOutput(t *testing.T) {
	r := runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "3", "--r", "1")
	r.wantCode(t, exitOK)
	for _, want := range []string{
		"suzuki-kasami n=3 r=1 (bfs, fingerprint,",
		"states: 726  transitions: 2079  depth: 15",
		"verdict: ok, every property holds on all 726 reachable states",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestCheckTorusLiteral(t *testing.T) {
	rep, _ := check(t, exitOK, "--algo", "torus/literal", "--n", "4", "--r", "1")
	if rep.Verdict != "ok" || rep.States != 58868 || rep.Transitions != 199790 || rep.Depth != 39 {
		t.Errorf("verdict %s, %d states %d transitions depth %d; want ok 58868 199790 39",
			rep.Verdict, rep.States, rep.Transitions, rep.Depth)
	}
	if rep.Algorithm != "torus/literal" {
		t.Errorf("algorithm %q", rep.Algorithm)
	}
}

// Defaults: --n and --r may be left out (suzuki-kasami defaults to n=3, r=1).
func TestCheckDefaultParams(t *testing.T) {
	rep, _ := check(t, exitOK, "--algo", "suzuki-kasami")
	if rep.Params["n"] != 3 || rep.Params["r"] != 1 || rep.States != 726 {
		t.Errorf("params %v, %d states; want n=3 r=1, 726", rep.Params, rep.States)
	}
}

func TestCheckBounds(t *testing.T) {
	sk := []string{"--algo", "suzuki-kasami", "--n", "3", "--r", "1"}
	// The bound is exact: a search admits exactly --max-states states,
	// breadth first and depth first.
	for _, search := range [][]string{nil, {"--workers", "3"}, {"--dfs"}, {"--exact"}} {
		t.Run(strings.Join(append([]string{"max-states"}, search...), " "), func(t *testing.T) {
			args := append(append(slices.Clone(sk), "--max-states", "100"), search...)
			rep, r := check(t, exitIncomplete, args...)
			if rep.Verdict != "incomplete" || rep.StopReason != "max-states" || rep.Violation != nil {
				t.Errorf("verdict %s stop_reason %q violation %+v", rep.Verdict, rep.StopReason, rep.Violation)
			}
			if rep.States != 100 {
				t.Errorf("%d states with --max-states 100, want exactly 100", rep.States)
			}
			if _, ok := r.jsonObject(t)["stop_reason"]; !ok {
				t.Errorf("no stop_reason key:\n%s", r.stdout)
			}
		})
	}
	t.Run("max-depth", func(t *testing.T) {
		rep, _ := check(t, exitIncomplete, append(slices.Clone(sk), "--max-depth", "3")...)
		if rep.Verdict != "incomplete" || rep.StopReason != "max-depth" || rep.Depth != 3 {
			t.Errorf("verdict %s stop_reason %q depth %d", rep.Verdict, rep.StopReason, rep.Depth)
		}
	})
	t.Run("max-depth text", func(t *testing.T) {
		r := runCLI(t, append(append([]string{"check"}, sk...), "--max-depth", "3")...)
		r.wantCode(t, exitIncomplete)
		if !strings.Contains(r.stdout, "verdict: incomplete (stopped: max-depth)") {
			t.Errorf("output:\n%s", r.stdout)
		}
	})
	// A bound the search does not need to exceed is not a stop.
	t.Run("bounds not reached", func(t *testing.T) {
		for _, b := range [][]string{{"--max-states", "726"}, {"--max-depth", "15"}} {
			rep, _ := check(t, exitOK, append(slices.Clone(sk), b...)...)
			if rep.Verdict != "ok" || rep.States != 726 || rep.StopReason != "" {
				t.Errorf("%v: verdict %s, %d states, stop_reason %q", b, rep.Verdict, rep.States, rep.StopReason)
			}
		}
	})
	t.Run("max-depth one short", func(t *testing.T) {
		rep, _ := check(t, exitIncomplete, append(slices.Clone(sk), "--max-depth", "14")...)
		if rep.StopReason != "max-depth" {
			t.Errorf("stop_reason %q", rep.StopReason)
		}
	})
}

// --props narrows the check to the named properties, and a mutant is then
// reported for the property asked for.
func TestCheckProps(t *testing.T) {
	cases := []struct {
		algo, n, props string
		length         int
	}{
		{"suzuki-kasami/send-in-cs", "2", "mutex", 4},
		{"suzuki-kasami/keep-copy", "2", "single-token", 2},
		// keep-copy also breaks mutex, two steps later (doc.go of
		// suzukikasami).
		{"suzuki-kasami/keep-copy", "2", "mutex", 4},
	}
	for _, c := range cases {
		t.Run(c.algo+"/"+c.props, func(t *testing.T) {
			t.Chdir(t.TempDir())
			rep, _ := check(t, exitViolation, "--algo", c.algo, "--n", c.n, "--r", "1", "--props", c.props)
			if !slices.Equal(rep.Properties, []string{c.props}) {
				t.Errorf("properties %v, want [%s]", rep.Properties, c.props)
			}
			if rep.Verdict != "violation" || rep.Violation == nil || rep.Violation.Property != c.props || rep.Violation.Length != c.length {
				t.Fatalf("verdict %s violation %+v, want %s after %d steps", rep.Verdict, rep.Violation, c.props, c.length)
			}
			if _, err := os.Stat(rep.Violation.TraceFile); err != nil {
				t.Error(err)
			}
		})
	}
	t.Run("ok subset", func(t *testing.T) {
		rep, _ := check(t, exitOK, "--algo", "suzuki-kasami", "--n", "2", "--props", " mutex , no-deadlock,mutex")
		if !slices.Equal(rep.Properties, []string{"mutex", "no-deadlock"}) {
			t.Errorf("properties %v, want [mutex no-deadlock] (trimmed, deduplicated)", rep.Properties)
		}
	})
}

func TestCheckHelp(t *testing.T) {
	r := runCLI(t, "check", "--help")
	r.wantCode(t, exitOK)
	for _, want := range []string{"usage: tokenmc check --algo NAME", "-algo", "-n N", "-r R", "-props",
		"-workers", "-max-states", "-max-depth", "-exact", "-dfs", "-trace-out", "-json"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("check --help does not show %q:\n%s", want, r.stdout)
		}
	}
	if r.stderr != "" {
		t.Errorf("check --help wrote to stderr: %q", r.stderr)
	}
	for _, args := range [][]string{{"--help"}, {"help"}, {"list", "--help"}, {"replay", "-h"}} {
		r := runCLI(t, args...)
		r.wantCode(t, exitOK)
		if !strings.Contains(r.stdout, "usage") {
			t.Errorf("%v: no usage on stdout:\n%s", args, r.stdout)
		}
	}
}

// A trace whose recorded "delivered" message was edited (the action and
// the states left as they are) does not replay: exit 1, naming the step
// and both messages, in the JSON report (whose "steps" counts the
// trace's steps) and in the text.
func TestReplayEditedDelivered(t *testing.T) {
	orig := writeTrace(t)
	file := editText(t, orig, `"delivered": "REQ(P1->P0, sn=1)"`, `"delivered": "REQ(P0->P1, sn=1)"`)
	rr := replay(t, exitViolation, file)
	want := `diverged at step 3: Deliver REQ(P1->P0, sn=1) delivers "REQ(P1->P0, sn=1)", but the trace records "REQ(P0->P1, sn=1)"`
	if rr.Reproduced || rr.Steps != 4 || rr.DivergedAt != 3 || rr.Reason != want {
		t.Errorf("reproduced %v steps %d diverged_at %d reason %q; want false, 4, 3, %q", rr.Reproduced, rr.Steps, rr.DivergedAt, rr.Reason, want)
	}
	r := runCLI(t, "replay", "--quiet", file)
	r.wantCode(t, exitViolation)
	if !strings.Contains(r.stdout, want) {
		t.Errorf("replay text does not say %q:\n%s", want, r.stdout)
	}
}
