package drsgme_test

import (
	"context"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// Every registered variant, built through the registry with its default
// parameters (N=3, M=2, R=1, F=0, timers auto = off) overridden by the
// variant's own Params (accept-any-token with quiescent timers, since
// without timers no duplicate exists; the single literal items and the
// regeneration readings at their small configurations), violates exactly the
// safety properties its Breaks lists, each with the shortest (BFS)
// counterexample length pinned here, and keeps every other property
// (algorithms.md §7.7, §7.8; brief: mutants pinned with property and
// length).
func TestRegistryVerdictsAtDefaults(t *testing.T) {
	want := map[string]map[string]int{
		"drs-gme":                      {},
		"drs-gme/ext":                  {},
		"drs-gme/literal":              {"single-token": 2, "no-deadlock": 8, "no-unrequested-entry": 10},
		"drs-gme/literal-r1":           {"no-unrequested-entry": 9, "no-deadlock": 9},
		"drs-gme/accept-any-token":     {"no-unrequested-entry": 8, "single-token": 9, "gme-safety": 10},
		"drs-gme/admit-any-group":      {"gme-safety": 4},
		"drs-gme/keep-token":           {"single-token": 2, "gme-safety": 4, "no-unrequested-entry": 8},
		"drs-gme/no-rs-add":            {"no-deadlock": 13},
		"drs-gme/pass-before-complete": {"gme-safety": 8},
		"drs-gme/fcfs":                 {"fcfs": 2},
		// liveness only (TestRegenLTStarves); every safety property holds
		"drs-gme/regen-lt": {"starvation-freedom": 0},
		// one literal item each, at their own parameters (literal_items_test.go)
		"drs-gme/literal-d2":  {"no-deadlock": 12},
		"drs-gme/literal-d4":  {},
		"drs-gme/literal-d6":  {"no-unrequested-entry": 6},
		"drs-gme/literal-d7":  {"no-deadlock": 13},
		"drs-gme/literal-d9":  {"no-deadlock": 6},
		"drs-gme/regen-empty": {"single-token": 3, "gme-safety": 4, "no-unrequested-entry": 6},
	}
	a, _, err := algorithms.Lookup("drs-gme")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Variants) != len(want) {
		t.Fatalf("%d variants registered, %d expected", len(a.Variants), len(want))
	}
	for _, v := range a.Variants {
		exp, ok := want[v.Name]
		if !ok {
			t.Fatalf("unexpected variant %s", v.Name)
		}
		var breaks []string
		for p := range exp {
			breaks = append(breaks, p)
		}
		slices.Sort(breaks)
		got := slices.Sorted(slices.Values(v.Breaks))
		if !slices.Equal(got, breaks) {
			t.Errorf("%s: Breaks %v, want %v", v.Name, got, breaks)
		}
		sys, extra, err := a.Build(v.Name, v.Params)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range invariants.Applicable(invariants.With(extra...), sys.Info()) {
			res, err := explore.Check(context.Background(), sys, explore.Options{Properties: []model.Property{p}, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			n, bad := exp[p.Name]
			switch {
			case bad && (res.Verdict != explore.Violated || len(res.Violation.Path)-1 != n):
				steps := -1
				if res.Violation != nil {
					steps = len(res.Violation.Path) - 1
				}
				t.Errorf("%s %s: %s after %d steps, want a violation after %d", v.Name, p.Name, res.Verdict, steps, n)
			case !bad && res.Verdict != explore.OK:
				t.Errorf("%s %s: %s, want ok", v.Name, p.Name, res.Verdict)
			}
		}
	}
}
