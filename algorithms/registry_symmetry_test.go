package algorithms

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/model"
)

func TestKeepMask(t *testing.T) {
	sym, err := torus.Symmetry(torus.Repaired, 9, 1)
	if err != nil {
		t.Fatal(err)
	}
	// row 0 of the 3x3 torus: only the column shifts keep it
	row0 := 1<<0 | 1<<1 | 1<<2
	got := keepMask(sym, row0)
	if got == nil || len(got.Perms) != 3 {
		t.Fatalf("keepMask(row 0) = %v, want the 3 column shifts", got)
	}
	for _, p := range got.Perms {
		for i := range 3 {
			if p[i] >= 3 {
				t.Fatalf("%v moves P%d off row 0", p, i)
			}
		}
	}
	if keepMask(sym, 1<<0|1<<1|1<<2|1<<4) != nil {
		t.Error("no translation but the identity maps requesters {0,1,2,4} of the 3x3 torus onto itself")
	}
	if keepMask(sym, 1<<0) != nil {
		t.Error("a single requester keeps only the identity")
	}
}

func TestSymmetryHookRefusesUnprovedParameters(t *testing.T) {
	a := Algorithm{Name: lelann.Default, Params: []spec.Param{
		{Name: "n", Default: 3}, {Name: "r", Default: 1}, {Name: "x", Default: 0},
	}}
	hook := symmetryHook(a)
	if hook == nil {
		t.Fatal("lelann has a symmetry")
	}
	if _, err := hook(lelann.Default, map[string]int{"n": 3, "r": 1, "x": 0}); err != nil {
		t.Errorf("default x refused: %v", err)
	}
	if _, err := hook(lelann.Default, map[string]int{"n": 3, "r": 1, "x": 2}); err == nil || !strings.Contains(err.Error(), "x=2") {
		t.Errorf("x=2 accepted: %v", err)
	}
	if symmetryHook(Algorithm{Name: "ricart-agrawala"}) != nil {
		t.Error("ricart-agrawala has no symmetry")
	}
	// suzuki-kasami declares one for its any-order reading only.
	sk := symmetryHook(Algorithm{Name: "suzuki-kasami", Params: []spec.Param{{Name: "n", Default: 3}, {Name: "r", Default: 1}}})
	if sk == nil {
		t.Fatal("suzuki-kasami/any-order has a symmetry")
	}
	if sym, err := sk("suzuki-kasami/any-order", map[string]int{"n": 3, "r": 1}); err != nil || sym == nil || sym.Order() != 6 {
		t.Errorf("suzuki-kasami/any-order: %v, %v; want all 6 permutations", sym, err)
	}
	if _, err := sk("suzuki-kasami", map[string]int{"n": 3, "r": 1}); err == nil || !strings.Contains(err.Error(), "ascending") || !strings.Contains(err.Error(), "any-order") {
		t.Errorf("suzuki-kasami (ascending): %v; want a refusal naming the order and any-order", err)
	}
}

// The explicit groups the built-in algorithms declare (lelann's rotations,
// the torus's translations) are groups of permutations with the identity
// first, of the size their docs give: explore/symmetry.Verify checks that
// each element is a symmetry of the model, not that the list is a group.
func TestDeclaredPermsAreGroups(t *testing.T) {
	check := func(name string, sym *model.Symmetry, err error, order int) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if sym.Full || len(sym.Perms) != order || sym.Order() != uint64(order) {
			t.Fatalf("%s: %d explicit elements (full %v), want %d", name, len(sym.Perms), sym.Full, order)
		}
		set := map[string]bool{}
		for k, p := range sym.Perms {
			if len(p) != sym.N {
				t.Fatalf("%s: element %v does not rename %d processes", name, p, sym.N)
			}
			seen := make([]bool, len(p))
			for i, x := range p {
				if x < 0 || x >= len(p) || seen[x] {
					t.Fatalf("%s: element %v is not a permutation", name, p)
				}
				seen[x] = true
				if k == 0 && x != i {
					t.Fatalf("%s: the first element %v is not the identity", name, p)
				}
			}
			set[fmt.Sprint(p)] = true
		}
		if len(set) != order {
			t.Fatalf("%s: %d distinct elements, want %d", name, len(set), order)
		}
		c := make([]int, sym.N)
		for _, a := range sym.Perms {
			for _, b := range sym.Perms {
				for i := range a {
					c[i] = b[a[i]]
				}
				if !set[fmt.Sprint(c)] {
					t.Fatalf("%s: %v then %v gives %v, not in the group", name, a, b, slices.Clone(c))
				}
			}
		}
	}
	for n := 2; n <= 6; n++ {
		sym, err := lelann.Symmetry(lelann.Default, n, 1)
		check(fmt.Sprintf("lelann n=%d", n), sym, err, n)
	}
	for d := 2; d <= 4; d++ {
		sym, err := torus.Symmetry(torus.Repaired, d*d, 1)
		check(fmt.Sprintf("torus %dx%d", d, d), sym, err, d*d)
	}
}
