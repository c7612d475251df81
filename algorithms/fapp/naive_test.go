package fapp

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/internal/naive"
)

// A deliberately naive second implementation of FAPP, written from the
// package doc's numbered rules alone: a process is a struct with a map-free
// priority list of [who, prio] pairs, messages are strings "REQ from to p"
// and "TOKEN from to", the network a sorted string slice, the visited set a
// map of string keys. It shares no code with the model.

type nvProc struct {
	phase  string
	made   int
	holder int
	asked  int
	pl     [][2]int // arrival order
}

type nvState struct {
	procs []nvProc
	net   []string
}

func (s nvState) key() string {
	var b strings.Builder
	for _, p := range s.procs {
		fmt.Fprintf(&b, "%s,%d,%d,%d,%v|", p.phase, p.made, p.holder, p.asked, p.pl)
	}
	b.WriteString(strings.Join(s.net, ";"))
	return b.String()
}

func (s nvState) clone() nvState {
	t := nvState{procs: make([]nvProc, len(s.procs)), net: append([]string(nil), s.net...)}
	for i, p := range s.procs {
		p.pl = append([][2]int(nil), p.pl...)
		t.procs[i] = p
	}
	return t
}

func (s *nvState) put(m string) {
	s.net = append(s.net, m)
	sort.Strings(s.net)
}

// nvAsk: a non-root asks its holder with the best priority among entries
// not belonging to the holder, if more urgent than what it asked already.
func (s *nvState) nvAsk(i int) {
	p := &s.procs[i]
	if p.holder == i {
		return
	}
	best := -1
	for _, e := range p.pl {
		if e[0] != p.holder && e[1] > best {
			best = e[1]
		}
	}
	if best >= 0 && (p.asked == -1 || best > p.asked) {
		p.asked = best
		s.put(fmt.Sprintf("REQ %d %d %d", i, p.holder, best))
	}
}

// nvGrant: a root not in its CS serves the earliest entry of the highest
// priority, then asks the new holder for the rest.
func (s *nvState) nvGrant(i int) {
	p := &s.procs[i]
	if p.phase == "cs" || len(p.pl) == 0 {
		return
	}
	h := 0
	for k := range p.pl {
		if p.pl[k][1] > p.pl[h][1] {
			h = k
		}
	}
	who := p.pl[h][0]
	p.pl = append(p.pl[:h:h], p.pl[h+1:]...)
	p.asked = -1
	if who == i {
		p.phase = "cs"
		return
	}
	p.holder = who
	s.put(fmt.Sprintf("TOKEN %d %d", i, who))
	s.nvAsk(i)
}

// naiveSuccessors returns the successors of s; r < 0 means cyclic clients
// (no request count), noAging drops rule 1.
func naiveSuccessors(s nvState, r int, literal, noAging bool) []nvState {
	var out []nvState
	for i, p := range s.procs {
		if p.phase == "idle" && (r < 0 || p.made < r) {
			t := s.clone()
			q := &t.procs[i]
			q.phase = "wait"
			if r >= 0 {
				q.made++
			}
			q.pl = append(q.pl, [2]int{i, i})
			if q.holder == i {
				t.nvGrant(i)
			} else {
				t.nvAsk(i)
			}
			out = append(out, t)
		}
		if p.phase == "cs" {
			t := s.clone()
			t.procs[i].phase = "idle"
			t.nvGrant(i)
			out = append(out, t)
		}
	}
	for x, m := range s.net {
		if x > 0 && s.net[x-1] == m {
			continue
		}
		t := s.clone()
		t.net = append(t.net[:x:x], t.net[x+1:]...)
		f := strings.Fields(m)
		var from, to, prio int
		fmt.Sscan(f[1], &from)
		fmt.Sscan(f[2], &to)
		q := &t.procs[to]
		if f[0] == "TOKEN" {
			q.holder, q.asked = to, -1
			t.nvGrant(to)
			out = append(out, t)
			continue
		}
		fmt.Sscan(f[3], &prio)
		found := false
		for k := range q.pl {
			if q.pl[k][0] == from {
				found = true
				if prio > q.pl[k][1] {
					q.pl[k][1] = prio
				}
			} else if q.pl[k][1] < prio && !noAging {
				q.pl[k][1]++
			}
		}
		if !found {
			q.pl = append(q.pl, [2]int{from, prio})
		}
		if q.holder == to {
			if !literal {
				t.nvGrant(to)
			}
		} else {
			t.nvAsk(to)
		}
		out = append(out, t)
	}
	return out
}

// naiveCount returns the reachable states, transitions, BFS depth and
// deadlocks (terminal states with a process not Idle) of FAPP.
func naiveCount(n, tree, r int, literal, noAging bool) (states, transitions, depth, deadlocks int) {
	init := nvState{procs: make([]nvProc, n)}
	for i := range init.procs {
		h := i - 1
		if tree == Star || i == 0 {
			h = 0
		}
		init.procs[i] = nvProc{phase: "idle", holder: h, asked: -1}
	}
	succ := func(s nvState) []nvState { return naiveSuccessors(s, r, literal, noAging) }
	busy := func(s nvState) bool {
		return slices.ContainsFunc(s.procs, func(p nvProc) bool { return p.phase != "idle" })
	}
	c := naive.BFS(init, nvState.key, succ, naive.Deadlocks(&deadlocks, busy))
	return c.States, c.Transitions, c.Depth, deadlocks
}
