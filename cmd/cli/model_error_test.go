package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// panicky is a user's algorithm whose OnExit handler panics when P1
// leaves its CS (an index out of range, as a user's slip would): Le
// Lann's ring otherwise. "panicky/guard" panics in Guard instead, when
// P1 would request.
func panicky() algorithms.Algorithm {
	return algorithms.Algorithm{
		Name: "panicky", Doc: "a ring whose Exit handler panics at P1", Source: "a test",
		Params: []spec.Param{
			{Name: "n", Doc: "processes", Min: 2, Max: 4, Default: 3},
			{Name: "r", Doc: "requests per process", Min: 1, Max: 2, Default: 1},
		},
		Variants: []algorithms.Variant{
			{Name: "panicky", Kind: spec.KindDefault, Doc: "OnExit panics at P1"},
			{Name: "panicky/guard", Kind: spec.KindMutant, Doc: "Guard panics at P1's request"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			p, err := lelann.New(lelann.Default, params["n"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Name = variant
			if variant == "panicky/guard" {
				p.Guard = func(_ *protocol.View[lelann.Proc, lelann.Msg], a *protocol.Action[lelann.Msg]) bool {
					if a.Kind == model.Request && a.Proc == 1 {
						var none []int
						return none[a.Proc] > 0
					}
					return true
				}
				return p.System(), nil, nil
			}
			exit := p.OnExit
			p.OnExit = func(c *protocol.Ctx[lelann.Proc, lelann.Msg]) {
				if c.ID == 1 {
					var table []int
					_ = table[c.ID] // index out of range
				}
				exit(c)
			}
			return p.System(), nil, nil
		},
	}
}

// A panic in a user's handler is the model's error: exit 5 (not 4, a bug
// in tokenmc), the handler and action named, and a trace to the state
// where it happened that replay re-executes to the same failure (exit 5).
// The shortest path to P1's Exit in Le Lann's ring with N=3: P1 requests,
// the token (initially in transit to P0) is delivered to P0, which passes it
// on, and is delivered to P1, which enters: 3 steps reach the failing state
// under BFS, and in the liveness graph, built breadth first; depth-first
// search may take a longer path. A Guard that panics on P1's request
// fails at the initial state: 0 steps.
func TestModelPanicIsTheModelsError(t *testing.T) {
	algs := []algorithms.Algorithm{panicky()}
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		args  []string
		steps int // -1: any length (not a shortest path)
		where string
	}{
		{"bfs", []string{"check", "--algo", "panicky"}, 3, "OnExit panicked on Exit(P1)"},
		{"dfs", []string{"check", "--algo", "panicky", "--dfs"}, -1, "OnExit panicked on Exit(P1)"},
		{"liveness", []string{"check", "--algo", "panicky", "--props", "starvation-freedom"}, 3, "OnExit panicked on Exit(P1)"},
		{"guard", []string{"check", "--algo", "panicky/guard"}, 0, "Guard panicked on Request(P1)"},
		{"simulate", []string{"simulate", "--algo", "panicky", "--runs", "50", "--workers", "2"}, -1, "OnExit panicked on Exit(P1)"},
		{"simulate-guard", []string{"simulate", "--algo", "panicky/guard", "--runs", "50"}, 0, "Guard panicked on Request(P1)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tf := filepath.Join(dir, c.name+".trace.json")
			r := run(algs, append(c.args, "--json", "--progress", "0", "--trace-out", tf)...)
			if r.code != 5 {
				t.Fatalf("exit %d, want 5 (the model's error)\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			if strings.Contains(r.stderr, "bug in tokenmc") {
				t.Errorf("a model's panic is reported as a bug in tokenmc:\n%s", r.stderr)
			}
			m := r.json(t)
			if m["verdict"] != "model-error" {
				t.Errorf("verdict %v, want model-error", m["verdict"])
			}
			me, _ := m["model_error"].(map[string]any)
			if me == nil {
				t.Fatalf("no model_error in the JSON: %s", r.stdout)
			}
			msg, _ := me["message"].(string)
			if !strings.Contains(msg, c.where) || !strings.Contains(msg, "index out of range") {
				t.Errorf("message %q does not say %q and the panic", msg, c.where)
			}
			if n := int(me["length"].(float64)); c.steps >= 0 && n != c.steps {
				t.Errorf("length %d, want %d", n, c.steps)
			}
			if me["trace_file"] != tf {
				t.Fatalf("trace_file %v, want %s", me["trace_file"], tf)
			}
			rp := run(algs, "replay", "--json", tf)
			if rp.code != 5 {
				t.Fatalf("replay: exit %d, want 5\n%s\n%s", rp.code, rp.stdout, rp.stderr)
			}
			if rm := rp.json(t); rm["reproduced"] != true || rm["model_error"] == nil {
				t.Errorf("replay does not reproduce the model's error: %s", rp.stdout)
			}
			// show reads the trace too
			if sh := run(algs, "show", tf); sh.code != 0 || !strings.Contains(sh.stdout, "the model fails") {
				t.Errorf("show: exit %d\n%s\n%s", sh.code, sh.stdout, sh.stderr)
			}
		})
	}
}

// A model-error trace whose model no longer fails (the user fixed the
// handler) does not reproduce: exit 1, as any trace that diverges.
func TestModelErrorTraceAfterTheFix(t *testing.T) {
	dir := t.TempDir()
	tf := filepath.Join(dir, "t.json")
	if r := run([]algorithms.Algorithm{panicky()}, "check", "--algo", "panicky", "--progress", "0", "--trace-out", tf); r.code != 5 {
		t.Fatalf("exit %d, want 5\n%s", r.code, r.stderr)
	}
	fixed := panicky()
	fixed.Build = func(variant string, params map[string]int) (model.System, []model.Property, error) {
		p, err := lelann.New(lelann.Default, params["n"], params["r"])
		if err != nil {
			return nil, nil, err
		}
		p.Name = variant
		return p.System(), nil, nil
	}
	rp := run([]algorithms.Algorithm{fixed}, "replay", tf)
	if rp.code != 1 || !strings.Contains(rp.stdout, "no longer fails") {
		t.Fatalf("replay after the fix: exit %d, want 1 and 'no longer fails'\n%s\n%s", rp.code, rp.stdout, rp.stderr)
	}
	data, err := os.ReadFile(tf)
	if err != nil {
		t.Fatal(err)
	}
	var tr map[string]any
	if err := json.Unmarshal(data, &tr); err != nil || tr["property_kind"] != "model-error" {
		t.Fatalf("the trace file is not a model-error trace (%v): %s", err, data)
	}
}

// run: a handler's panic in a live process is the model's failure too:
// exit 5, the process, handler and action named, the log kept.
func TestRunModelPanic(t *testing.T) {
	dir := t.TempDir()
	r := run([]algorithms.Algorithm{panicky()}, "run", "--algo", "panicky", "--duration", "5s", "--quiet", "--log", filepath.Join(dir, "l.jsonl"))
	if r.code != 5 {
		t.Fatalf("exit %d, want 5\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "the model failed at P1: OnExit panicked on Exit(P1)") || strings.Contains(r.stderr, "bug in tokenmc") {
		t.Errorf("stderr does not name the model's failure:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "l.jsonl")); err != nil {
		t.Errorf("the log up to the failure is not kept: %v", err)
	}
}

// A swarm whose shards make the model fail merges to the model's error
// (exit 5, the shard and its trace named), never to ok or ok-partial: the
// shards found no violation, but they did not check the space either.
func TestSwarmMergeReportsModelError(t *testing.T) {
	algs := []algorithms.Algorithm{panicky()}
	dir := t.TempDir()
	for _, i := range []string{"0", "1"} {
		r := run(algs, "check", "--algo", "panicky", "--progress", "0", "--quiet", "--swarm", "2", "--swarm-index", i, "--swarm-out", dir)
		if r.code != 0 {
			t.Fatalf("shard %s: exit %d, want 0 (a shard with --swarm-out reports in its result file)\n%s", i, r.code, r.stderr)
		}
	}
	r := run(algs, "swarm", "merge", "--json", dir)
	if r.code != 5 {
		t.Fatalf("merge: exit %d, want 5\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	m := r.json(t)
	me, _ := m["model_error"].(map[string]any)
	if m["verdict"] != "model-error" || me == nil || !strings.Contains(me["message"].(string), "OnExit panicked") || me["trace_file"] == "" {
		t.Fatalf("merge of failing shards: %s", r.stdout)
	}
	if tf, _ := me["trace_file"].(string); tf != "" {
		if _, err := os.Stat(tf); err != nil {
			t.Errorf("the model error's trace: %v", err)
		}
	}
}

// validate steps a log through the model's handlers: a panic there is the
// model's error too (exit 5), not a bug in tokenmc (exit 4).
func TestValidateModelPanicIsTheModelsError(t *testing.T) {
	algs := []algorithms.Algorithm{panicky()}
	log := filepath.Join(t.TempDir(), "ring.log.jsonl")
	if r := run([]algorithms.Algorithm{lelannAlgorithm(t)}, "run", "--algo", "lelann", "--n", "3", "--r", "1", "--out", log); r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	r := run(algs, "validate", "--algo", "panicky", log)
	if r.code != 5 || !strings.Contains(r.stderr, "OnExit panicked") || strings.Contains(r.stderr, "bug in tokenmc:") || strings.Contains(r.stderr, "internal error") {
		t.Fatalf("validate with a panicking model: exit %d, want 5\n%s", r.code, r.stderr)
	}
}

// lelannAlgorithm is the registry's Le Lann ring.
func lelannAlgorithm(t *testing.T) algorithms.Algorithm {
	t.Helper()
	a, _, err := algorithms.Lookup("lelann")
	if err != nil {
		t.Fatal(err)
	}
	return a
}
