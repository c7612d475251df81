// Package suggest finds the names a mistyped name was probably meant to
// be, for "did you mean" hints in error messages: `suzuki-kasmi` suggests
// `suzuki-kasami`, `chek` suggests `check`.
package suggest

import "strings"

// Distance is the optimal-string-alignment edit distance between a and b:
// the fewest insertions, deletions, substitutions and transpositions of
// two adjacent bytes that turn a into b. Comparison ignores case.
func Distance(a, b string) int {
	a, b = strings.ToLower(a), strings.ToLower(b)
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// Closest returns the candidates that name was probably meant to be, best
// first and at most three: those within an edit distance of about a third
// of name's length (at least 1, at most 3), then those that contain name
// as a whole part (`keepcopy` and `keep-copy` alike, `kasami` in
// `suzuki-kasami`). Ties keep the candidates' order. The result is empty
// when nothing is close.
func Closest(name string, candidates []string) []string {
	if name == "" {
		return nil
	}
	limit := min(max(len(name)/3, 1), 3)
	type hit struct {
		s string
		d int
	}
	var hits []hit
	squash := func(s string) string {
		return strings.NewReplacer("-", "", "_", "", "/", "").Replace(strings.ToLower(s))
	}
	sq := squash(name)
	for _, c := range candidates {
		d := Distance(name, c)
		switch {
		case d <= limit:
		case squash(c) == sq:
			d = 0
		case len(sq) >= 4 && strings.Contains(squash(c), sq):
			d = limit + 1
		default:
			continue
		}
		hits = append(hits, hit{c, d})
	}
	// stable insertion sort by distance: few candidates
	for i := 1; i < len(hits); i++ {
		for j := i; j > 0 && hits[j].d < hits[j-1].d; j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
		}
	}
	var out []string
	for _, h := range hits {
		if len(out) == 3 {
			break
		}
		out = append(out, h.s)
	}
	return out
}

// DidYouMean renders Closest's answer as a clause for an error message:
// "; did you mean suzuki-kasami?" or "; did you mean a, b or c?", or ""
// when nothing is close.
func DidYouMean(name string, candidates []string) string {
	c := Closest(name, candidates)
	switch len(c) {
	case 0:
		return ""
	case 1:
		return "; did you mean " + c[0] + "?"
	}
	return "; did you mean " + strings.Join(c[:len(c)-1], ", ") + " or " + c[len(c)-1] + "?"
}
