package naive

import (
	"sort"
	"strings"
)

// Counts are the figures defined in semantics.md §1: States is the number of
// distinct reachable states (the initial state included), Transitions the
// number of (state, enabled action) pairs over all reachable states (delivering
// one of k identical copies of a message is one action), and Depth the largest
// breadth-first distance of a reachable state from the initial state.
type Counts struct {
	States, Transitions, Depth int
}

// Client phases of every process (semantics.md §1).
const (
	idle = iota
	waiting
	inCS
)

func phaseName(p int) string {
	switch p {
	case idle:
		return "I"
	case waiting:
		return "W"
	case inCS:
		return "C"
	}
	return "?"
}

// BFS enumerates every state reachable from init. key gives the canonical
// identity of a state; succ returns one successor per enabled action (so
// len(succ(s)) is the number of enabled actions of s). visit, if not nil, is
// called once per distinct reachable state with that state and its number of
// enabled actions. It is the one breadth-first loop of the naive
// enumerators, this package's and the algorithm packages' own (their
// naive_test.go files), which write only a state, its key and its
// successors.
func BFS[S any](init S, key func(S) string, succ func(S) []S, visit func(S, int)) Counts {
	dist := map[string]int{key(init): 0}
	queue := []S{init}
	var c Counts
	for len(queue) > 0 {
		s := queue[0]
		var zero S
		queue[0] = zero
		queue = queue[1:]
		d := dist[key(s)]
		c.States++
		if d > c.Depth {
			c.Depth = d
		}
		next := succ(s)
		c.Transitions += len(next)
		if visit != nil {
			visit(s, len(next))
		}
		for _, t := range next {
			k := key(t)
			if _, seen := dist[k]; !seen {
				dist[k] = d + 1
				queue = append(queue, t)
			}
		}
	}
	if c.States != len(dist) {
		panic("naive: visited count differs from map size")
	}
	return c
}

// distinctIndexes returns, for a network given as a list of message keys
// (one entry per copy), the index of one copy of each distinct message, in
// ascending key order.
func distinctIndexes(keys []string) []int {
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	var out []int
	for n, i := range idx {
		if n > 0 && keys[i] == keys[idx[n-1]] {
			continue
		}
		out = append(out, i)
	}
	return out
}

// sortedJoin returns the multiset of strings as one canonical string.
func sortedJoin(keys []string) string {
	c := append([]string(nil), keys...)
	sort.Strings(c)
	return strings.Join(c, ";")
}

// removeAt returns a copy of list without element i.
func removeAt[T any](list []T, i int) []T {
	out := make([]T, 0, len(list)-1)
	out = append(out, list[:i]...)
	return append(out, list[i+1:]...)
}

// Deadlocks returns a visit function for BFS that adds to *count every
// state without an enabled action in which busy finds a process not Idle
// (a no-deadlock violation of semantics.md §1).
func Deadlocks[S any](count *int, busy func(S) bool) func(S, int) {
	return func(s S, enabled int) {
		if enabled == 0 && busy(s) {
			*count++
		}
	}
}
