package symmetry_test

import (
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/naimitrehel"
	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/explore/symmetry"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// TestReducedSuccessorsDoNotAllocate: the explorer's inner loop stays
// allocation-free with the reduction in it (after the scratch buffers have
// grown).
func TestReducedSuccessorsDoNotAllocate(t *testing.T) {
	nt, _ := naimitrehel.New(naimitrehel.Default, 4, 1)
	ntSym, _ := naimitrehel.Symmetry(naimitrehel.Default, 4, 1)
	tp, _ := torus.New(torus.Repaired, 4, 1)
	tSym, _ := torus.Symmetry(torus.Repaired, 4, 1)
	for _, c := range []struct {
		sys model.System
		sym *model.Symmetry
	}{{nt.System(), ntSym}, {tp.System(), tSym}} {
		states := reachable(c.sys, 300)
		red, err := symmetry.Reduce(c.sys, c.sym, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		w := red.NewWorker()
		n := 0
		yield := func(*model.Transition, []byte) bool { n++; return true }
		run := func() {
			for _, s := range states {
				w.Successors(s, yield)
			}
		}
		run() // grow the buffers
		if a := testing.AllocsPerRun(5, run); a != 0 {
			t.Errorf("%s: %.0f allocations per pass over %d states", c.sym.Name, a, len(states))
		}
	}
}

// TestReduceRefusesUndeclared: an algorithm-specific property the
// symmetry does not name is refused, and so is one that replaces a generic
// property under its name.
func TestReduceRefusesUndeclared(t *testing.T) {
	sym, _ := naimitrehel.Symmetry(naimitrehel.Default, 3, 1)
	p, _ := naimitrehel.New(naimitrehel.Default, 3, 1)
	checkProperties := func(sym *model.Symmetry, props, specific []model.Property) error {
		red, err := symmetry.Reduce(p.System(), sym, props, specific)
		if (red == nil) == (err == nil) {
			t.Errorf("Reduce returned %v and %v: want a system or an error", red, err)
		}
		return err
	}
	own := model.Property{Name: "p0-never-waits", Kind: model.Invariant, Holds: func(s model.Snapshot) bool { return s.Phase(0) != model.Waiting }}
	if err := checkProperties(sym, invariants.Standard(), nil); err != nil {
		t.Errorf("generic properties refused: %v", err)
	}
	if err := checkProperties(sym, naimitrehel.Properties(), naimitrehel.Properties()); err != nil {
		t.Errorf("declared property refused: %v", err)
	}
	if err := checkProperties(sym, []model.Property{own}, []model.Property{own}); err == nil || !strings.Contains(err.Error(), "p0-never-waits") {
		t.Errorf("undeclared property accepted: %v", err)
	}
	mutex := invariants.Standard()[0]
	own.Name = mutex.Name
	if err := checkProperties(sym, []model.Property{own}, []model.Property{own}); err == nil {
		t.Error("an algorithm's replacement of mutex was accepted as the generic mutex")
	}
	// and Verify catches an asymmetric property that someone declared
	asym := model.Property{Name: "p0-never-waits", Kind: model.Invariant, Holds: func(s model.Snapshot) bool { return s.Phase(0) != model.Waiting }}
	if _, err := symmetry.Verify(p.System(), sym, []model.Property{asym}, 0); err == nil || !strings.Contains(err.Error(), "not symmetric") {
		t.Errorf("Verify accepted an asymmetric property: %v", err)
	}
}
