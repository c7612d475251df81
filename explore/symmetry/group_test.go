package symmetry

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/model"
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

func TestElementsEnumeratesAllInOrder(t *testing.T) {
	for n := 1; n <= 6; n++ {
		sym := model.Symmetry{N: n, Full: true}
		seen := map[string]bool{}
		var prev []int
		elements(&sym, func(p []int) bool {
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
	if nextPermutation(p) || !slices.Equal(p, []int{0, 1, 2}) {
		t.Errorf("the last permutation should wrap to the first and report false, got %v", p)
	}
}

// nextPermutation steps through the distinct arrangements of a block
// with repeated values: 0 0 1 has three.
func TestNextPermutationWithRepeats(t *testing.T) {
	p := []int{0, 0, 1}
	var got [][]int
	for {
		got = append(got, slices.Clone(p))
		if !nextPermutation(p) {
			break
		}
	}
	if want := [][]int{{0, 0, 1}, {0, 1, 0}, {1, 0, 0}}; !slices.EqualFunc(got, want, slices.Equal) || !slices.Equal(p, []int{0, 0, 1}) {
		t.Errorf("arrangements %v (then %v), want %v and back to the first", got, p, want)
	}
}
