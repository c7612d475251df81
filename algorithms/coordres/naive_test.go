package coordres

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/internal/naive"
)

// A deliberately naive second implementation of the per-resource
// coordinator, written from the package doc's steps alone: messages are
// strings, queues are [2]int slices per resource, the visited set a
// string-keyed map. It shares no code with the model.

type nvProc struct {
	phase string
	made  int
	group int // last requested resource (kept by the protocol layer)
	res   int
	held  bool
}

type nvState struct {
	procs []nvProc
	home  []bool     // token r at the coordinator
	queue [][][2]int // per resource: {pid, prio} in arrival order
	net   []string
}

func (s nvState) key() string {
	return fmt.Sprintf("%v|%v|%v|%s", s.procs, s.home, s.queue, strings.Join(s.net, ";"))
}

func (s nvState) clone() nvState {
	t := nvState{procs: append([]nvProc(nil), s.procs...), home: append([]bool(nil), s.home...), net: append([]string(nil), s.net...)}
	for _, q := range s.queue {
		t.queue = append(t.queue, append([][2]int{}, q...))
	}
	return t
}

func (s *nvState) put(f string, a ...any) {
	s.net = append(s.net, fmt.Sprintf(f, a...))
	sort.Strings(s.net)
}

func (s *nvState) nvArrive(pid, r, prio int, ageAll bool) {
	c := &s.procs[0]
	if s.home[r] && !(c.phase == "cs" && c.res == r) {
		if pid == 0 {
			c.phase = "cs"
			return
		}
		s.home[r] = false
		s.put("TOKEN %d %d", pid, r)
		return
	}
	for k := range s.queue[r] {
		if (ageAll || k == 0) && s.queue[r][k][1] < prio {
			s.queue[r][k][1]++
		}
	}
	s.queue[r] = append(s.queue[r], [2]int{pid, prio})
}

func (s *nvState) nvRelease(r int) {
	q := s.queue[r]
	if len(q) == 0 {
		s.home[r] = true
		return
	}
	best := 0
	for k := 1; k < len(q); k++ {
		if q[k][1] > q[best][1] {
			best = k
		}
	}
	pid := q[best][0]
	s.queue[r] = append(q[:best:best], q[best+1:]...)
	if pid == 0 {
		s.home[r] = true
		s.procs[0].phase = "cs"
		return
	}
	s.home[r] = false
	s.put("TOKEN %d %d", pid, r)
}

func naiveSuccessors(s nvState, k, r int, ageAll bool) []nvState {
	var out []nvState
	for i, p := range s.procs {
		if p.phase == "idle" && (r < 0 || p.made < r) {
			for res := 0; res < k; res++ {
				t := s.clone()
				q := &t.procs[i]
				q.phase, q.group, q.res = "wait", res, res
				if r >= 0 {
					q.made++ // r < 0: cyclic clients, no count
				}
				if i == 0 {
					t.nvArrive(0, res, 0, ageAll)
				} else {
					t.put("REQUEST %d %d %d", i, res, i)
				}
				out = append(out, t)
			}
		}
		if p.phase == "cs" {
			t := s.clone()
			q := &t.procs[i]
			res := q.res
			q.phase, q.res, q.held = "idle", -1, false
			if i == 0 {
				t.nvRelease(res)
			} else {
				t.put("RETURN %d %d", i, res)
			}
			out = append(out, t)
		}
	}
	for x, m := range s.net {
		if x > 0 && s.net[x-1] == m {
			continue
		}
		t := s.clone()
		t.net = append(t.net[:x:x], t.net[x+1:]...)
		var kind string
		var a, b, c int
		fmt.Sscan(m, &kind, &a, &b, &c)
		switch kind {
		case "REQUEST":
			t.nvArrive(a, b, c, ageAll)
		case "TOKEN":
			t.procs[a].held = true
			t.procs[a].phase = "cs"
		case "RETURN":
			t.nvRelease(b)
		}
		out = append(out, t)
	}
	return out
}

// naiveCount returns the reachable states, transitions and BFS depth; r < 0
// means cyclic clients (a process may always request again when idle).
func naiveCount(n, k, r int, ageAll bool) (states, transitions, depth int) {
	init := nvState{procs: make([]nvProc, n), home: make([]bool, k), queue: make([][][2]int, k)}
	for i := range init.procs {
		init.procs[i] = nvProc{phase: "idle", res: -1}
	}
	for x := range init.home {
		init.home[x] = true
		init.queue[x] = [][2]int{}
	}
	c := naive.BFS(init, nvState.key, func(s nvState) []nvState { return naiveSuccessors(s, k, r, ageAll) }, nil)
	return c.States, c.Transitions, c.Depth
}
