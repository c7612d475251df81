package model_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// isPerm reports whether p is a permutation of 0..len(p)-1.
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

func TestRenameHelpers(t *testing.T) {
	perm := []int{2, 0, 1} // 0->2, 1->0, 2->1
	if got := protocol.PermuteIndexed(nil, []int{10, 11, 12}, perm); !slices.Equal(got, []int{11, 12, 10}) {
		t.Errorf("PermuteIndexed = %v, want [11 12 10]", got)
	}
	if got := protocol.RenameIDs(nil, []int{0, -1, 2}, perm); !slices.Equal(got, []int{2, -1, 1}) {
		t.Errorf("RenameIDs = %v, want [2 -1 1]", got)
	}
}
