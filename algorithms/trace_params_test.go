package algorithms_test

import (
	"bytes"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// walkEnd is violated everywhere: a random walk ending anywhere is a
// counterexample of it, so the one-call trace writers take the walk.
var walkEnd = model.Property{Name: "walk-end", Kind: model.Invariant, Holds: func(model.Snapshot) bool { return false }}

// nonDefault returns, for variant v of a, the complete parameter map
// (defaults, then v's Params) with as many parameters moved off that value
// as Build accepts, one at a time in declaration order: +1, or -1 at the
// top of the range.
func nonDefault(t *testing.T, a algorithms.Algorithm, v algorithms.Variant) (map[string]int, []string) {
	params := map[string]int{}
	for _, p := range a.Params {
		params[p.Name] = p.Default
	}
	maps.Copy(params, v.Params)
	var moved []string
	for _, p := range a.Params {
		for _, x := range []int{params[p.Name] + 1, params[p.Name] - 1} {
			if x < p.Min || (p.Max > 0 && x > p.Max) {
				continue
			}
			try := maps.Clone(params)
			try[p.Name] = x
			if _, _, err := a.Build(v.Name, try); err == nil {
				params = try
				moved = append(moved, p.Name)
				break
			}
		}
	}
	if _, _, err := a.Build(v.Name, params); err != nil {
		t.Fatalf("%s %v: %v", v.Name, params, err)
	}
	return params, moved
}

// walk takes up to steps uniformly random transitions from the first
// initial state of sys.
func walk(sys model.System, steps int, rng *rand.Rand) [][]byte {
	w := sys.NewWorker()
	var path [][]byte
	w.Initial(func(s []byte) bool {
		path = append(path, bytes.Clone(s))
		return false
	})
	for len(path) <= steps {
		var next [][]byte
		w.Successors(path[len(path)-1], func(_ *model.Transition, s []byte) bool {
			next = append(next, bytes.Clone(s))
			return true
		})
		if len(next) == 0 {
			break
		}
		path = append(path, next[rng.IntN(len(next))])
	}
	return path
}

// Every built-in variant, built with parameters off their defaults,
// records the complete map it was built with (model.Info.Params), so a
// trace (traces.FromViolation, then WriteFile) of a random walk carries them:
// the system rebuilt from the file's metadata alone, through the
// registry, is the same system and the walk replays on it.
func TestOneCallTracesRebuild(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	variants := 0
	for _, a := range algorithms.All() {
		for _, v := range a.Variants {
			params, moved := nonDefault(t, a, v)
			if len(moved) == 0 {
				t.Errorf("%s: no parameter could be moved off its default", v.Name)
			}
			sys, _, err := a.Build(v.Name, params)
			if err != nil {
				t.Fatal(err)
			}
			if got := sys.Info().Params; !reflect.DeepEqual(got, params) {
				t.Errorf("%s: built with %v, records %v", v.Name, params, got)
				continue
			}
			path := walk(sys, 30, rng)
			if len(path) < 2 {
				t.Errorf("%s %v: no transition from the initial state", v.Name, params)
				continue
			}
			file := filepath.Join(dir, "t.trace.json")
			tr, err := traces.FromViolation(sys, &simulate.Violation{Property: walkEnd, Path: path})
			if err == nil {
				err = traces.WriteFile(file, tr)
			}
			if err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
			back, err := traces.ReadFile(file)
			if err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
			if !reflect.DeepEqual(back.Params, params) {
				t.Errorf("%s: the trace records %v, want %v", v.Name, back.Params, params)
			}
			ra, rv, err := algorithms.Lookup(back.Algorithm)
			if err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
			again, _, err := ra.Build(rv.Name, back.Params)
			if err != nil {
				t.Errorf("%s: rebuilding from the trace's %v: %v", v.Name, back.Params, err)
				continue
			}
			if r, err := traces.Replay(again, []model.Property{walkEnd}, back); err != nil || !r.OK || r.Steps != len(path)-1 {
				t.Errorf("%s %v (moved %v): replay of %d steps: %+v %v", v.Name, params, moved, len(path)-1, r, err)
			}
			variants++
		}
	}
	t.Logf("%d variants", variants)
}
