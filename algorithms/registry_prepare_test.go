package algorithms_test

import (
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

// ring is a user's description: Le Lann's ring named "ring", with the
// parameters it was built with recorded in seen.
func ring(seen *map[string]int) algorithms.Algorithm {
	return algorithms.Algorithm{
		Name: "ring",
		Params: []spec.Param{
			{Name: "n", Min: 2, Max: 5, Default: 3},
			{Name: "r", Min: 1, Max: 2, Default: 1, SimMax: -1},
		},
		Variants: []algorithms.Variant{{Name: "ring"}, {Name: "ring/drop", Kind: spec.KindMutant, Params: map[string]int{"n": 2}}},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			if seen != nil {
				*seen = params
			}
			v := lelann.Default
			if variant == "ring/drop" {
				v = lelann.DropOnExit
			}
			p, err := lelann.New(v, params["n"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Name = variant
			return p.System(), nil, nil
		},
	}
}

func TestPrepareRefuses(t *testing.T) {
	for _, c := range []struct {
		edit func(a *algorithms.Algorithm)
		want string
	}{
		{func(a *algorithms.Algorithm) { a.Name = "" }, `algorithm name ""`},
		{func(a *algorithms.Algorithm) { a.Name = "my ring" }, `algorithm name "my ring"`},
		{func(a *algorithms.Algorithm) { a.Variants = nil }, "ring has no variants"},
		{func(a *algorithms.Algorithm) { a.Build = nil }, "ring has no Build function"},
		{func(a *algorithms.Algorithm) { a.Variants[0].Name = "ring/x" }, `the first variant is the default and must be named "ring", not "ring/x"`},
		{func(a *algorithms.Algorithm) { a.Variants[1].Name = "other/drop" }, `variant "other/drop" must be named ring/SOMETHING`},
		{func(a *algorithms.Algorithm) { a.Variants[1].Name = "ring/" }, `variant "ring/" must be named ring/SOMETHING`},
		{func(a *algorithms.Algorithm) { a.Variants = append(a.Variants, a.Variants[1]) }, `variant "ring/drop" is named twice`},
		{func(a *algorithms.Algorithm) { a.Variants[1].Kind = "broken" }, `kind "broken" is not one of`},
		{func(a *algorithms.Algorithm) { a.Params = append(a.Params, a.Params[0]) }, `two parameters named "n"`},
		{func(a *algorithms.Algorithm) { a.Params[0].Default = 9 }, "default n=9 is out of range 2..5"},
		{func(a *algorithms.Algorithm) { a.Params[0].Max = 1 }, "Max 1 below Min 2"},
		{func(a *algorithms.Algorithm) { a.Variants[1].Params = map[string]int{"k": 1} }, `Params names "k", which is not a parameter of ring`},
		{func(a *algorithms.Algorithm) { a.Variants[1].Params = map[string]int{"n": 6} }, "Params n=6 is out of range 2..5"},
	} {
		a := ring(nil)
		a.Variants = append([]algorithms.Variant(nil), a.Variants...)
		a.Params = append([]spec.Param(nil), a.Params...)
		c.edit(&a)
		_, err := spec.Prepare(a)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Prepare: %v, want an error with %q", err, c.want)
		}
	}
}

// A prepared Build checks the variant and the parameters and fills the
// defaults, as the registry's do; BuildSim allows the simulation ranges.
func TestPrepareBuildChecks(t *testing.T) {
	var seen map[string]int
	a, err := spec.Prepare(ring(&seen))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Build("", map[string]int{"n": 4}); err != nil || seen["n"] != 4 || seen["r"] != 1 || len(seen) != 2 {
		t.Errorf("Build with n=4: %v, built with %v; want n=4 r=1", err, seen)
	}
	for params, want := range map[string]struct {
		p   map[string]int
		msg string
	}{
		"unknown": {map[string]int{"k": 1}, `ring has no parameter "k"; parameters: n, r`},
		"range":   {map[string]int{"r": 3}, "ring: r=3 is out of range 1..2"},
	} {
		if _, _, err := a.Build("ring", want.p); err == nil || err.Error() != want.msg {
			t.Errorf("%s: %v, want %q", params, err, want.msg)
		}
	}
	if _, _, err := a.Build("ring/nope", nil); err == nil || !strings.Contains(err.Error(), `ring has no variant "ring/nope"; valid: ring, ring/drop`) {
		t.Errorf("unknown variant: %v", err)
	}
	if _, _, err := a.BuildSim("ring", map[string]int{"r": 1000}); err != nil || seen["r"] != 1000 {
		t.Errorf("BuildSim r=1000: %v", err)
	}
	// preparing again keeps the original Build underneath: the simulation
	// range still holds (a double wrap would check 1..2 inside BuildSim)
	b, err := spec.Prepare(a)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.BuildSim("ring", map[string]int{"r": 1000}); err != nil {
		t.Errorf("BuildSim after a second Prepare: %v", err)
	}
	// a Build replaced after Prepare is the one a second Prepare wraps
	replaced := b
	calls := 0
	replaced.Build = func(variant string, params map[string]int) (model.System, []model.Property, error) {
		calls++
		return ring(nil).Build(variant, params)
	}
	c, err := spec.Prepare(replaced)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.BuildSim("ring", map[string]int{"r": 1000}); err != nil || calls != 1 {
		t.Errorf("BuildSim of a replaced Build: %v, %d calls of it", err, calls)
	}
	// the registry's entries may be given to Prepare too (cli.Main does)
	for _, r := range algorithms.All() {
		if _, err := spec.Prepare(r); err != nil {
			t.Errorf("Prepare(%s): %v", r.Name, err)
		}
	}
}

// A Build whose system does not carry the variant's name is refused at
// build time: its traces could never be replayed.
func TestPrepareSystemName(t *testing.T) {
	a := ring(nil)
	build := a.Build
	a.Build = func(variant string, params map[string]int) (model.System, []model.Property, error) {
		return build("ring/drop", params)
	}
	p, err := spec.Prepare(a)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = p.Build("ring", nil)
	if err == nil || !strings.Contains(err.Error(), `ring: Build returned a system named "ring/drop"`) {
		t.Errorf("Build: %v", err)
	}
}

func TestLookupIn(t *testing.T) {
	a, _ := spec.Prepare(ring(nil))
	algs := []algorithms.Algorithm{a}
	if _, v, err := spec.LookupIn(algs, "ring/drop"); err != nil || v.Params["n"] != 2 {
		t.Errorf("LookupIn ring/drop: %v %v", v, err)
	}
	if _, _, err := spec.LookupIn(algs, "lelann"); err == nil || err.Error() != `unknown algorithm "lelann"; the algorithms are ring ('tokenmc list' shows their variants)` {
		t.Errorf("LookupIn lelann: %v", err)
	}
	if _, _, err := spec.LookupIn(algs, "ring/dorp"); err == nil || !strings.Contains(err.Error(), "did you mean ring/drop?") {
		t.Errorf("LookupIn ring/dorp: %v", err)
	}
}
