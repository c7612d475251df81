package model_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

func isPerm(p []int) bool {
	seen := make([]bool, len(p))
	for _, x := range p {
		if x < 0 || x >= len(p) || seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

// closed reports whether perms is closed under composition and contains
// the identity: a group.
func closed(perms [][]int) bool {
	key := func(p []int) string { return fmt.Sprint(p) }
	set := map[string]bool{}
	for _, p := range perms {
		set[key(p)] = true
	}
	id := make([]int, len(perms[0]))
	for i := range id {
		id[i] = i
	}
	if !set[key(id)] {
		return false
	}
	for _, a := range perms {
		for _, b := range perms {
			c := make([]int, len(a))
			for i := range a {
				c[i] = b[a[i]]
			}
			if !set[key(c)] {
				return false
			}
		}
	}
	return true
}

func TestNextPermutationEnumeratesAll(t *testing.T) {
	for n := 1; n <= 6; n++ {
		sym := model.Symmetry{N: n, Full: true}
		seen := map[string]bool{}
		var prev []int
		sym.Elements(func(p []int) bool {
			if !isPerm(p) {
				t.Fatalf("n=%d: %v is not a permutation", n, p)
			}
			if prev != nil && slices.Compare(prev, p) >= 0 {
				t.Fatalf("n=%d: %v does not follow %v lexicographically", n, p, prev)
			}
			prev = slices.Clone(p)
			seen[fmt.Sprint(p)] = true
			return true
		})
		if uint64(len(seen)) != sym.Order() {
			t.Errorf("n=%d: %d permutations enumerated, Order says %d", n, len(seen), sym.Order())
		}
	}
	p := []int{2, 1, 0}
	if model.NextPermutation(p) || !slices.Equal(p, []int{0, 1, 2}) {
		t.Errorf("the last permutation should wrap to the first and report false, got %v", p)
	}
}

func TestRotationsAndTranslationsAreGroups(t *testing.T) {
	for n := 2; n <= 6; n++ {
		r := model.Rotations(n)
		if len(r) != n || !closed(r) {
			t.Errorf("Rotations(%d) is not a group of %d elements", n, n)
		}
		for _, p := range r {
			if !isPerm(p) {
				t.Errorf("rotation %v is not a permutation", p)
			}
		}
	}
	for d := 2; d <= 4; d++ {
		tr := model.Translations(d)
		if len(tr) != d*d || !closed(tr) {
			t.Errorf("Translations(%d) is not a group of %d elements", d, d*d)
		}
		for _, p := range tr {
			if !isPerm(p) {
				t.Errorf("translation %v is not a permutation", p)
			}
			// right and down neighbours are preserved
			for i := range d * d {
				right := (i/d)*d + (i%d+1)%d
				down := ((i/d+1)%d)*d + i%d
				pr := (p[i]/d)*d + (p[i]%d+1)%d
				pd := ((p[i]/d+1)%d)*d + p[i]%d
				if p[right] != pr || p[down] != pd {
					t.Fatalf("translation %v does not preserve the neighbours of %d", p, i)
				}
			}
		}
	}
}

func TestRenameHelpers(t *testing.T) {
	perm := []int{2, 0, 1} // 0->2, 1->0, 2->1
	if got := protocol.PermuteIndexed(nil, []int{10, 11, 12}, perm); !slices.Equal(got, []int{11, 12, 10}) {
		t.Errorf("PermuteIndexed = %v, want [11 12 10]", got)
	}
	if got := protocol.RenameIDs(nil, []int{0, -1, 2}, perm); !slices.Equal(got, []int{2, -1, 1}) {
		t.Errorf("RenameIDs = %v, want [2 -1 1]", got)
	}
}
