package coordring

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/internal/naive"
)

// A deliberately naive second implementation of the coordinator ring,
// written from algorithms.md §2 and the package doc alone: plain structs,
// string keys, a map for the visited set and a slice as the BFS queue. It
// shares no code with the model (not its types, not its queue insertion),
// so agreeing counts are evidence that both implement the same rules.

type nvProc struct {
	phase string // "idle", "wait", "cs"
	made  int
	clock int
	has   bool
}

type nvState struct {
	procs []nvProc
	queue [][2]int // coordinator's queue: {pid, ts}, kept sorted by ts then pid
	net   []string // messages "KIND from to ts", sorted; duplicates allowed
}

func (s nvState) key() string {
	var b strings.Builder
	for _, p := range s.procs {
		fmt.Fprintf(&b, "%s/%d/%d/%v;", p.phase, p.made, p.clock, p.has)
	}
	fmt.Fprintf(&b, "q=%v;n=%s", s.queue, strings.Join(s.net, ","))
	return b.String()
}

func (s nvState) clone() nvState {
	t := nvState{procs: append([]nvProc(nil), s.procs...)}
	t.queue = append([][2]int(nil), s.queue...)
	t.net = append([]string(nil), s.net...)
	return t
}

func (s *nvState) send(kind string, from, to, ts int) {
	s.net = append(s.net, fmt.Sprintf("%s %d %d %d", kind, from, to, ts))
	sort.Strings(s.net)
}

func (s *nvState) enqueue(pid, ts int) {
	s.queue = append(s.queue, [2]int{pid, ts})
	sort.Slice(s.queue, func(a, b int) bool {
		if s.queue[a][1] != s.queue[b][1] {
			return s.queue[a][1] < s.queue[b][1]
		}
		return s.queue[a][0] < s.queue[b][0]
	})
}

// serve: the coordinator, holding the token and not in its CS, hands it to
// the head of its queue (itself: it enters) or keeps it.
func (s *nvState) serve() {
	c := &s.procs[0]
	c.has = true
	if len(s.queue) == 0 {
		return
	}
	h := s.queue[0]
	s.queue = s.queue[1:]
	if h[0] == 0 {
		c.phase = "cs"
		return
	}
	c.has = false
	s.send("TOKEN", 0, h[0], c.clock)
}

// naiveRenumber is the package doc's renumbering for cyclic clients,
// written again: collect every value with whether a later stamp can be
// computed from it, then walk the distinct values upwards.
func naiveRenumber(s *nvState) {
	base := map[int]bool{}
	note := func(v int, b bool) { base[v] = base[v] || b }
	for i, p := range s.procs {
		note(p.clock, i == 0 || p.phase != "wait")
	}
	for _, e := range s.queue {
		note(e[1], false)
	}
	for _, m := range s.net {
		var kind string
		var from, to, ts int
		fmt.Sscanf(m, "%s %d %d %d", &kind, &from, &to, &ts)
		if kind != "RETURN" {
			note(ts, kind == "TOKEN")
		}
	}
	var vs []int
	for v := range base {
		vs = append(vs, v)
	}
	sort.Ints(vs)
	to := map[int]int{}
	next := 0
	for k, v := range vs {
		if k > 0 {
			if base[vs[k-1]] && v-vs[k-1] >= 2 {
				next += 2
			} else {
				next++
			}
		}
		to[v] = next
	}
	for i := range s.procs {
		s.procs[i].clock = to[s.procs[i].clock]
	}
	for k := range s.queue {
		s.queue[k][1] = to[s.queue[k][1]]
	}
	for k, m := range s.net {
		var kind string
		var from, dst, ts int
		fmt.Sscanf(m, "%s %d %d %d", &kind, &from, &dst, &ts)
		if kind != "RETURN" {
			s.net[k] = fmt.Sprintf("%s %d %d %d", kind, from, dst, to[ts])
		}
	}
	sort.Strings(s.net)
}

// naiveSuccessors returns the successors of s; r < 0 means cyclic clients:
// no request count, no WAIT, values renumbered after every step.
func naiveSuccessors(s nvState, r int) []nvState {
	out := naiveSteps(s, r)
	if r < 0 {
		for k := range out {
			naiveRenumber(&out[k])
		}
	}
	return out
}

func naiveSteps(s nvState, r int) []nvState {
	var out []nvState
	for i, p := range s.procs {
		if p.phase == "idle" && (r < 0 || p.made < r) {
			t := s.clone()
			q := &t.procs[i]
			if r >= 0 {
				q.made++
			}
			q.clock++
			q.phase = "wait"
			if i == 0 {
				if q.has && len(t.queue) == 0 {
					q.phase = "cs"
				} else {
					t.enqueue(0, q.clock)
				}
			} else {
				t.send("REQUEST", i, 0, q.clock)
			}
			out = append(out, t)
		}
		if p.phase == "cs" {
			t := s.clone()
			t.procs[i].phase = "idle"
			if i == 0 {
				t.serve()
			} else {
				t.procs[i].has = false
				t.send("RETURN", i, 0, 0)
			}
			out = append(out, t)
		}
	}
	for k, m := range s.net {
		if k > 0 && s.net[k-1] == m {
			continue // identical copies: one action
		}
		t := s.clone()
		t.net = append(t.net[:k:k], t.net[k+1:]...)
		var kind string
		var from, to, ts int
		fmt.Sscanf(m, "%s %d %d %d", &kind, &from, &to, &ts)
		q := &t.procs[to]
		switch kind {
		case "REQUEST":
			q.clock = max(q.clock, ts)
			if q.has && q.phase != "cs" {
				q.has = false
				t.send("TOKEN", 0, from, q.clock)
			} else {
				t.enqueue(from, ts)
				if r >= 0 {
					t.send("WAIT", 0, from, q.clock)
				}
			}
		case "WAIT":
			q.clock = max(q.clock, ts)
		case "TOKEN":
			q.clock = max(q.clock, ts)
			q.has = true
			q.phase = "cs"
		case "RETURN":
			t.serve()
		}
		out = append(out, t)
	}
	return out
}

// naiveCount returns the reachable states, transitions and BFS depth of
// coord-ring with n processes and r requests each (r < 0: cyclic).
func naiveCount(n, r int) (states, transitions, depth int) {
	init := nvState{procs: make([]nvProc, n)}
	for i := range init.procs {
		init.procs[i].phase = "idle"
	}
	init.procs[0].has = true
	c := naive.BFS(init, nvState.key, func(s nvState) []nvState { return naiveSuccessors(s, r) }, nil)
	return c.States, c.Transitions, c.Depth
}
