package ricartagrawala

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/internal/naive"
)

// An independent enumerator for Ricart-Agrawala, written from the 1981
// pseudo-code (package doc) with plain structs, string keys and a map-based
// breadth-first search. It shares no code with ricartagrawala.go or package
// model. Reply_Deferred is a []bool here, as in the paper.

type nProc struct {
	phase               byte // 'I', 'W', 'C'
	made                int
	our, highest, count int
	deferred            []bool
}

type nState struct {
	procs []nProc
	net   []string // "Q from to sn" or "P from to", sorted, one entry per copy
}

func (s nState) key() string {
	var b strings.Builder
	for _, x := range s.procs {
		fmt.Fprintf(&b, "%c%d o%d h%d c%d d%v|", x.phase, x.made, x.our, x.highest, x.count, x.deferred)
	}
	b.WriteString(strings.Join(s.net, ","))
	return b.String()
}

func (s nState) clone() nState {
	t := nState{procs: make([]nProc, len(s.procs)), net: append([]string(nil), s.net...)}
	for i, x := range s.procs {
		x.deferred = append([]bool(nil), x.deferred...)
		t.procs[i] = x
	}
	return t
}

type nCounts struct{ states, transitions, depth int }

func naiveCounts(n, r int) nCounts {
	init := nState{}
	for i := 0; i < n; i++ {
		init.procs = append(init.procs, nProc{phase: 'I', deferred: make([]bool, n)})
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
				y.phase = 'W'
				y.our = y.highest + 1
				y.count = n - 1
				for j := 0; j < n; j++ {
					if j != i {
						add(&t, fmt.Sprintf("Q %d %d %d", i, j, y.our))
					}
				}
				out = append(out, t)
			}
			if x.phase == 'C' {
				t := s.clone()
				y := &t.procs[i]
				y.phase = 'I'
				y.our = 0
				for j := 0; j < n; j++ {
					if y.deferred[j] {
						y.deferred[j] = false
						add(&t, fmt.Sprintf("P %d %d", i, j))
					}
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
			if m[0] == 'P' {
				var from, to int
				fmt.Sscanf(m, "P %d %d", &from, &to)
				y := &t.procs[to]
				y.count--
				if y.count == 0 {
					y.phase = 'C'
				}
			} else {
				var j, to, sn int
				fmt.Sscanf(m, "Q %d %d %d", &j, &to, &sn)
				y := &t.procs[to]
				if sn > y.highest {
					y.highest = sn
				}
				deferIt := y.phase != 'I' && (sn > y.our || (sn == y.our && j > to))
				if deferIt {
					y.deferred[j] = true
				} else {
					add(&t, fmt.Sprintf("P %d %d", to, j))
				}
			}
			out = append(out, t)
		}
		return out
	}
	c := naive.BFS(init, nState.key, succ, nil)
	return nCounts{states: c.States, transitions: c.Transitions, depth: c.Depth}
}
