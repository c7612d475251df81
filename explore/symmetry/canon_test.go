package symmetry_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/algorithms/naimitrehel"
	"github.com/tokenmc/tokenmc/algorithms/raymond"
	"github.com/tokenmc/tokenmc/explore/symmetry"
	"github.com/tokenmc/tokenmc/model"
)

// reachable returns up to max reachable states of sys, breadth first.
func reachable(sys model.System, max int) [][]byte {
	w := sys.NewWorker()
	seen := map[string]bool{}
	var out [][]byte
	add := func(s []byte) bool {
		if !seen[string(s)] && len(out) < max {
			seen[string(s)] = true
			out = append(out, bytes.Clone(s))
		}
		return true
	}
	w.Initial(add)
	for k := 0; k < len(out); k++ {
		w.Successors(out[k], func(_ *model.Transition, s []byte) bool { return add(s) })
	}
	return out
}

// TestCanonicalIsOrbitInvariant: every renaming of a state has the same
// canonical form, and that form is itself a renaming of the state (for an
// explicit group, the least one).
func TestCanonicalIsOrbitInvariant(t *testing.T) {
	nt, err := naimitrehel.Symmetry(naimitrehel.Default, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	ntp, _ := naimitrehel.New(naimitrehel.Default, 4, 1)
	ll, err := lelann.Symmetry(lelann.Default, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	llp, _ := lelann.New(lelann.Default, 4, 2)
	rs, err := raymond.Symmetry(raymond.Default, 5, 1, raymond.Star)
	if err != nil {
		t.Fatal(err)
	}
	rp, _ := raymond.New(raymond.Default, 5, 1, raymond.Star)
	for _, c := range []struct {
		sys model.System
		sym *model.Symmetry
	}{{ntp.System(), nt}, {llp.System(), ll}, {rp.System(), rs}} {
		canon := symmetry.NewCanonicalizer(c.sym)
		r := c.sym.NewRenamer()
		for _, s := range reachable(c.sys, 400) {
			want := bytes.Clone(canon.Canonical(s))
			var least []byte
			member := false
			symmetry.Elements(c.sym, func(g []int) bool {
				gs := r.Rename(nil, s, g)
				if least == nil || bytes.Compare(gs, least) < 0 {
					least = gs
				}
				member = member || bytes.Equal(gs, want)
				if got := canon.Canonical(gs); !bytes.Equal(got, want) {
					t.Fatalf("%s: the renaming by %v of a state has another canonical form", c.sym.Name, g)
				}
				return true
			})
			if !member {
				t.Fatalf("%s: the canonical form is not a renaming of the state", c.sym.Name)
			}
			if !c.sym.Full && !bytes.Equal(least, want) {
				t.Fatalf("%s: the canonical form is not the least renaming", c.sym.Name)
			}
		}
	}
}

// TestVerifyRejectsAFalseDeclaration: Le Lann's ring is not symmetric
// under every permutation (the token goes to i+1), and Verify says so.
func TestVerifyRejectsAFalseDeclaration(t *testing.T) {
	p, _ := lelann.New(lelann.Default, 3, 1)
	sym, _ := lelann.Symmetry(lelann.Default, 3, 1)
	sym.Full, sym.Perms, sym.Name = true, nil, "all permutations"
	_, err := symmetry.Verify(p.System(), sym, nil, 0)
	if err == nil || !strings.Contains(err.Error(), "is not a symmetry") {
		t.Fatalf("Verify accepted all permutations of a ring: %v", err)
	}
}

// TestConcretizeRejectsAFalseDeclaration: a quotient path built with a
// false symmetry has steps with no concrete counterpart, and ConcretizeSteps
// reports it instead of returning a wrong trace.
func TestConcretizeRejectsAFalseDeclaration(t *testing.T) {
	p, _ := lelann.New(lelann.Default, 3, 1)
	sys := p.System()
	sym, _ := lelann.Symmetry(lelann.Default, 3, 1)
	// a path that is fine under rotations: ConcretizeSteps succeeds
	path := reachable(sys, 2)
	w := sys.NewWorker()
	var next []byte
	w.Successors(path[0], func(_ *model.Transition, s []byte) bool { next = bytes.Clone(s); return false })
	c := symmetry.NewCanonicalizer(sym)
	q := [][]byte{bytes.Clone(c.Canonical(path[0])), bytes.Clone(c.Canonical(next))}
	if _, _, err := symmetry.ConcretizeSteps(sys, sym, q, nil); err != nil {
		t.Fatalf("a real quotient path was rejected: %v", err)
	}
	// a "path" whose second state, with a process in its CS, is two
	// steps away from the initial state in every renaming
	for _, s := range reachable(sys, 100) {
		snap := w.Snapshot(s)
		if snap.Phase(0) == model.InCS || snap.Phase(1) == model.InCS || snap.Phase(2) == model.InCS {
			q[1] = bytes.Clone(c.Canonical(s))
			break
		}
	}
	if _, _, err := symmetry.ConcretizeSteps(sys, sym, q, nil); err == nil {
		t.Fatal("ConcretizeSteps accepted a step that the model cannot take")
	}
}

// TestRenameBelowAgreesWithRename: the early-stopping renaming reports
// "less" exactly when the full renaming is less than the bound, and then
// returns the same bytes.
func TestRenameBelowAgreesWithRename(t *testing.T) {
	p, _ := naimitrehel.New(naimitrehel.Default, 4, 1)
	sym, _ := naimitrehel.Symmetry(naimitrehel.Default, 4, 1)
	r := sym.NewRenamer()
	b, ok := r.(symmetry.BoundedRenamer)
	if !ok {
		t.Fatal("the protocol renamer cannot stop early")
	}
	var perms [][]int
	symmetry.Elements(sym, func(g []int) bool { perms = append(perms, append([]int(nil), g...)); return true })
	checked := 0
	for k, s := range reachable(p.System(), 200) {
		bound := r.Rename(nil, s, perms[k%len(perms)])
		for _, g := range perms {
			full := r.Rename(nil, s, g)
			got, less := b.RenameBelow(nil, s, g, bound)
			if less != (bytes.Compare(full, bound) < 0) {
				t.Fatalf("RenameBelow says less=%v, Rename compares %d", less, bytes.Compare(full, bound))
			}
			if less && !bytes.Equal(got, full) {
				t.Fatal("RenameBelow returned other bytes than Rename")
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}
