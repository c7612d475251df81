package torus

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// Only the processes of the mask ever leave Idle; the others still relay.
func TestRequestersRestrict(t *testing.T) {
	p, err := New(Repaired, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	full := p.System()
	rp, _ := New(Repaired, 4, 1)
	if err := Restrict(rp, RequesterMask(0, 3)); err != nil {
		t.Fatal(err)
	}
	sys := rp.System()
	onlyMask := model.Property{Name: "only-requesters", Kind: model.Invariant, Holds: func(s model.Snapshot) bool {
		return s.Phase(1) == model.Idle && s.Phase(2) == model.Idle
	}}
	props := append(invariants.Applicable(invariants.With(Properties()...), sys.Info()), onlyMask)
	res, err := explore.Check(context.Background(), sys, explore.Options{Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	all, err := explore.Check(context.Background(), full, explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != explore.OK || res.States >= all.States {
		t.Fatalf("restricted: %s on %d states (unrestricted %d); want ok on fewer", res.Verdict, res.States, all.States)
	}
	// P3 still gets in: some reachable state has P3 in its CS
	seen := false
	probe := model.Property{Name: "p3-never-in-cs", Kind: model.Invariant, Holds: func(s model.Snapshot) bool { return s.Phase(3) != model.InCS }}
	if r, _ := explore.Check(context.Background(), sys, explore.Options{Properties: []model.Property{probe}}); r.Verdict == explore.Violated {
		seen = true
	}
	if !seen {
		t.Fatal("P3 never enters its CS with requesters {0,3}")
	}
	if err := Restrict(p, 16); err == nil || !strings.Contains(err.Error(), "bit mask") {
		t.Fatalf("mask 16 at n=4: error %v", err)
	}
}

// algorithms.md §9.3: the repaired torus at d = 3 with requesters
// {0,1,2,4} and {0,1,3,4}, R = 1, is starvation-free (995,292 and
// 1,293,195 states; 10-20 s each, so only with TOKENMC_HEAVY=1).
func TestRequestersD3StarvationFree(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("set TOKENMC_HEAVY=1: two searches of about a million states")
	}
	for _, c := range []struct {
		ids    []int
		states int64
	}{{[]int{0, 1, 2, 4}, 995292}, {[]int{0, 1, 3, 4}, 1293195}} {
		p, err := New(Repaired, 9, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := Restrict(p, RequesterMask(c.ids...)); err != nil {
			t.Fatal(err)
		}
		sys := p.System()
		res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true, Fairness: model.WeakFairness})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != explore.OK || len(res.Starving) != 0 || res.States != c.states {
			t.Errorf("requesters %v: %s, %d starving, %d states; want ok on %d", c.ids, res.Verdict, len(res.Starving), res.States, c.states)
		}
	}
}
