package symmetry

import "github.com/tokenmc/tokenmc/model"

// elements calls f with every element of sym's group, the identity first;
// f must not keep perm. It stops when f returns false. For a Full group
// it enumerates N! permutations in lexicographic order: for small N only
// (Verify, tests).
func elements(sym *model.Symmetry, f func(perm []int) bool) {
	if !sym.Full {
		for _, p := range sym.Perms {
			if !f(p) {
				return
			}
		}
		return
	}
	perm := make([]int, sym.N)
	for i := range perm {
		perm[i] = i
	}
	for {
		if !f(perm) || !nextPermutation(perm) {
			return
		}
	}
}

// nextPermutation rearranges p into the next permutation in lexicographic
// order and reports true, or, when p is the last one (descending), sorts
// it back to the first (ascending) and reports false. p may repeat values:
// it then steps through the distinct arrangements (the canonicalizer's
// blocks of equal classes).
func nextPermutation(p []int) bool {
	k := len(p) - 2
	for k >= 0 && p[k] >= p[k+1] {
		k--
	}
	if k < 0 {
		reverseInts(p)
		return false
	}
	l := len(p) - 1
	for p[l] <= p[k] {
		l--
	}
	p[k], p[l] = p[l], p[k]
	reverseInts(p[k+1:])
	return true
}

func reverseInts(p []int) {
	for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
}
