package cli

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// variantLivenessJSON is the part of check --json a starvation lasso fills in.
type variantLivenessJSON struct {
	Verdict       string         `json:"verdict"`
	Params        map[string]int `json:"params"`
	VariantParams map[string]int `json:"variant_params"`
	Starving      []struct {
		Process int `json:"process"`
		Length  int `json:"length"`
		Prefix  int `json:"prefix"`
		Cycle   int `json:"cycle"`
	} `json:"starving"`
}

func checkStarvation(t *testing.T, code int, args ...string) variantLivenessJSON {
	t.Helper()
	out := filepath.Join(t.TempDir(), "lasso.trace.json")
	r := runCLI(t, append([]string{"check", "--props", "starvation-freedom", "--progress", "0", "--json", "--trace-out", out}, args...)...)
	r.wantCode(t, code)
	var rep variantLivenessJSON
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v: %v\n%s", r.args, err, r.stdout)
	}
	return rep
}

// Issue 11 item 7: a variant whose documented break needs its own
// parameters (Variant.Params: cyclic clients for a starvation mutant) gets
// them from plain "check --algo V", says so, and finds the same lasso as
// when the parameters are given by hand; a flag overrides them.
func TestCheckUsesVariantParams(t *testing.T) {
	for _, name := range []string{"coord-res/no-aging", "coord-ring/lifo", "fapp/no-aging"} {
		t.Run(strings.ReplaceAll(name, "/", "_"), func(t *testing.T) {
			_, v, err := algorithms.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			if v.Params["cyclic"] != 1 {
				t.Fatalf("%s: registry params %v, want cyclic=1 (the test's premise)", name, v.Params)
			}
			plain := checkStarvation(t, exitViolation, "--algo", name)
			if len(plain.Starving) == 0 {
				t.Fatalf("%s: violation without a starving process", name)
			}
			if !maps.Equal(plain.VariantParams, v.Params) {
				t.Errorf("%s: variant_params %v, want the registry's %v", name, plain.VariantParams, v.Params)
			}
			for k, x := range v.Params {
				if plain.Params[k] != x {
					t.Errorf("%s: params %v do not hold the variant's %s=%d", name, plain.Params, k, x)
				}
			}
			// the same parameters by hand: the same lassos, and no note
			byHand := []string{"--algo", name}
			for k, x := range v.Params {
				byHand = append(byHand, "--"+k, itoa(x))
			}
			manual := checkStarvation(t, exitViolation, byHand...)
			if len(manual.VariantParams) != 0 {
				t.Errorf("%s: variant_params %v although every one was given as a flag", name, manual.VariantParams)
			}
			pj, _ := json.Marshal(plain.Starving)
			mj, _ := json.Marshal(manual.Starving)
			if string(pj) != string(mj) {
				t.Errorf("%s: lassos %s by the variant's parameters, %s by hand", name, pj, mj)
			}
			// overriding cyclic: finitely many requests, no starvation lasso
			over := checkStarvation(t, exitOK, "--algo", name, "--cyclic", "0")
			if over.Params["cyclic"] != 0 || over.VariantParams["cyclic"] != 0 {
				t.Errorf("%s --cyclic 0: params %v, variant_params %v", name, over.Params, over.VariantParams)
			}
		})
	}
}

// The header line of the text output names the variant's parameters.
func TestCheckHeaderNamesVariantParams(t *testing.T) {
	out := filepath.Join(t.TempDir(), "lasso.trace.json")
	r := runCLI(t, "check", "--algo", "coord-res/no-aging", "--props", "starvation-freedom", "--progress", "0", "--trace-out", out, "--workers", "1")
	r.wantCode(t, exitViolation)
	want := "coord-res/no-aging cyclic=1 k=1 n=3 r=1 (bfs, fingerprint, 1 worker(s); parameters of the variant: cyclic=1 k=1)\n"
	if !strings.HasPrefix(r.stdout, want) {
		t.Errorf("header:\n%s\nwant it to start with\n%s", r.stdout, want)
	}
	r = runCLI(t, "check", "--algo", "suzuki-kasami", "--progress", "0", "--workers", "1")
	r.wantCode(t, exitOK)
	if strings.Contains(r.stdout, "parameters of the variant") {
		t.Errorf("a variant without parameters of its own got a note:\n%s", r.stdout)
	}
}

// drs-gme/accept-any-token breaks single-token only with timers
// (Params: timers=2): plain check finds it, and --timers 0 is ok.
func TestCheckAcceptAnyTokenSingleToken(t *testing.T) {
	dir := t.TempDir()
	rep, _ := check(t, exitViolation, "--algo", "drs-gme/accept-any-token", "--props", "single-token", "--progress", "0",
		"--trace-out", filepath.Join(dir, "st.trace.json"))
	if rep.Violation == nil || rep.Violation.Property != "single-token" || rep.Params["timers"] != 2 || rep.VariantParams["timers"] != 2 {
		t.Fatalf("violation %+v, params %v, variant_params %v", rep.Violation, rep.Params, rep.VariantParams)
	}
	replayed := replay(t, exitOK, rep.Violation.TraceFile) // reproduced: exit 0
	if !replayed.Reproduced || replayed.Steps != rep.Violation.Length {
		t.Errorf("replay: %+v, want the %d-step violation reproduced", replayed, rep.Violation.Length)
	}
	ok, _ := check(t, exitOK, "--algo", "drs-gme/accept-any-token", "--props", "single-token", "--progress", "0", "--timers", "0")
	if ok.Verdict != verdictOK || len(ok.VariantParams) != 0 {
		t.Errorf("--timers 0: verdict %s, variant_params %v", ok.Verdict, ok.VariantParams)
	}
}

// simulate uses the variant's parameters too: drs-gme/accept-any-token's
// duplicate token needs timers, and the walk finds it at timers=2 with
// no flag; the shrunk trace replays.
func TestSimulateUsesVariantParams(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sim.trace.json")
	rep := simulateCLI(t, exitViolation, "--algo", "drs-gme/accept-any-token", "--props", "single-token", "--runs", "200", "--trace-out", out)
	if rep.Params["timers"] != 2 || rep.VariantParams["timers"] != 2 || rep.Violation == nil || rep.Violation.Property != "single-token" {
		t.Fatalf("params %v, variant_params %v, violation %+v", rep.Params, rep.VariantParams, rep.Violation)
	}
	if r := replay(t, exitOK, rep.Violation.TraceFile); !r.Reproduced {
		t.Errorf("replay: %+v", r)
	}
	ok := simulateCLI(t, exitOK, "--algo", "drs-gme/accept-any-token", "--props", "single-token", "--runs", "50", "--timers", "0")
	if ok.Params["timers"] != 0 || len(ok.VariantParams) != 0 {
		t.Errorf("--timers 0: params %v, variant_params %v", ok.Params, ok.VariantParams)
	}
}

// run names the parameters the variant chose after its name, as check's
// header line does, and they are the ones the log records; a flag that
// overrides one removes it from the note; a variant without parameters
// gets no note.
func TestRunNamesVariantParams(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		note string
		want map[string]int // in the log's header
	}{
		{[]string{"--algo", "coord-res/no-aging"}, "coord-res/no-aging (parameters of the variant: cyclic=1 k=1) over chan", map[string]int{"cyclic": 1, "k": 1}},
		{[]string{"--algo", "coord-res/no-aging", "--cyclic", "0"}, "coord-res/no-aging (parameters of the variant: k=1) over chan", map[string]int{"cyclic": 0, "k": 1}},
		{[]string{"--algo", "suzuki-kasami"}, "run: suzuki-kasami over chan", nil},
	} {
		log := filepath.Join(dir, "run.jsonl")
		r := runCLI(t, append([]string{"run", "--duration", "100ms", "--quiet", "--log", log}, c.args...)...)
		r.wantCode(t, exitOK)
		if !strings.Contains(r.stdout, c.note) || (c.want == nil && strings.Contains(r.stdout, "parameters of the variant")) {
			t.Errorf("%v: stdout %q, want %q", c.args, r.stdout, c.note)
		}
		l, err := eventlog.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		for k, x := range c.want {
			if l.Header.Params[k] != x {
				t.Errorf("%v: the log records %s=%d, want %d", c.args, k, l.Header.Params[k], x)
			}
		}
	}
}
