package naimitrehel

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/internal/naive"
)

// An independent enumerator for Naimi-Trehel, written from the 1996
// pseudo-code (package doc) with plain structs, string keys and a map-based
// breadth-first search. It shares no code with naimitrehel.go or package
// model. nil is represented by -1 here too (any value outside 0..n-1 would
// do).

type nProc struct {
	phase      byte // 'I', 'W', 'C'
	made       int
	last, next int
	token      bool
}

type nState struct {
	procs []nProc
	net   []string // "T to" or "R origin to", sorted, one entry per copy
}

func (s nState) key() string {
	var b strings.Builder
	for _, x := range s.procs {
		fmt.Fprintf(&b, "%c%d l%d n%d t%v|", x.phase, x.made, x.last, x.next, x.token)
	}
	b.WriteString(strings.Join(s.net, ","))
	return b.String()
}

func (s nState) clone() nState {
	return nState{procs: append([]nProc(nil), s.procs...), net: append([]string(nil), s.net...)}
}

type nCounts struct{ states, transitions, depth int }

func naiveCounts(n, r int) nCounts {
	init := nState{}
	for i := 0; i < n; i++ {
		x := nProc{phase: 'I', last: 0, next: -1}
		if i == 0 {
			x.last, x.token = -1, true
		}
		init.procs = append(init.procs, x)
	}
	add := func(s *nState, m string) {
		s.net = append(s.net, m)
		sort.Strings(s.net)
	}
	succ := func(s nState) []nState {
		var out []nState
		for i := 0; i < n; i++ {
			x := s.procs[i]
			if x.phase == 'I' && x.made < r {
				t := s.clone()
				y := &t.procs[i]
				y.made++
				if y.last == -1 {
					y.phase = 'C'
				} else {
					y.phase = 'W'
					add(&t, fmt.Sprintf("R %d %d", i, y.last))
					y.last = -1
				}
				out = append(out, t)
			}
			if x.phase == 'C' {
				t := s.clone()
				y := &t.procs[i]
				y.phase = 'I'
				if y.next != -1 {
					add(&t, fmt.Sprintf("T %d", y.next))
					y.next, y.token = -1, false
				}
				out = append(out, t)
			}
		}
		for k, m := range s.net {
			if k > 0 && s.net[k-1] == m {
				continue
			}
			t := s.clone()
			t.net = append(t.net[:k:k], s.net[k+1:]...)
			if m[0] == 'T' {
				var to int
				fmt.Sscanf(m, "T %d", &to)
				t.procs[to].token = true
				t.procs[to].phase = 'C'
			} else {
				var j, to int
				fmt.Sscanf(m, "R %d %d", &j, &to)
				y := &t.procs[to]
				if y.last != -1 {
					add(&t, fmt.Sprintf("R %d %d", j, y.last))
				} else if y.phase != 'I' {
					y.next = j
				} else {
					add(&t, fmt.Sprintf("T %d", j))
					y.token = false
				}
				y.last = j
			}
			out = append(out, t)
		}
		return out
	}
	c := naive.BFS(init, nState.key, succ, nil)
	return nCounts{states: c.States, transitions: c.Transitions, depth: c.Depth}
}
