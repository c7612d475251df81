package lelann

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/internal/naive"
)

// An independent enumerator for Le Lann's ring, written from the rules of
// the package doc with plain structs, string keys and a map-based
// breadth-first search. It shares no code with lelann.go or package model.

type nState struct {
	phase []byte // 'I', 'W', 'C'
	made  []int
	has   []bool
	net   []int // destinations of tokens in transit, sorted
}

func (s nState) key() string {
	return fmt.Sprint(string(s.phase), s.made, s.has, s.net)
}

func (s nState) clone() nState {
	return nState{
		phase: append([]byte(nil), s.phase...),
		made:  append([]int(nil), s.made...),
		has:   append([]bool(nil), s.has...),
		net:   append([]int(nil), s.net...),
	}
}

type nCounts struct{ states, transitions, depth int }

// naiveCounts enumerates the default model with n processes and r requests.
func naiveCounts(n, r int) nCounts {
	init := nState{phase: []byte(strings.Repeat("I", n)), made: make([]int, n), has: make([]bool, n), net: []int{0}}
	succ := func(s nState) []nState {
		var out []nState
		send := func(t *nState, to int) { t.net = append(t.net, to); sort.Ints(t.net) }
		for i := 0; i < n; i++ {
			if s.phase[i] == 'I' && s.made[i] < r {
				t := s.clone()
				t.phase[i] = 'W'
				t.made[i]++
				out = append(out, t)
			}
			if s.phase[i] == 'C' {
				t := s.clone()
				t.phase[i] = 'I'
				t.has[i] = false
				send(&t, (i+1)%n)
				out = append(out, t)
			}
		}
		for k, to := range s.net {
			if k > 0 && s.net[k-1] == to {
				continue // identical copy: one action
			}
			t := s.clone()
			t.net = append(t.net[:k:k], s.net[k+1:]...)
			if t.phase[to] == 'W' {
				t.phase[to] = 'C'
				t.has[to] = true
			} else {
				send(&t, (to+1)%n)
			}
			out = append(out, t)
		}
		return out
	}
	c := naive.BFS(init, nState.key, succ, nil)
	return nCounts{states: c.States, transitions: c.Transitions, depth: c.Depth}
}
