package multitokenring

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/internal/naive"
)

// A deliberately naive second implementation of the several-tokens ring,
// written from several-tokens.md "Handlers" and the package doc alone:
// tokens are strings "owner.sn.res", the network a sorted slice of
// "to|token" strings, the visited set a map of string keys. It shares no
// code with the model.

type nvProc struct {
	phase   byte // 'I', 'W', 'C'
	made    int
	group   int // last requested resource (the protocol layer keeps it)
	res     int
	mysn, h int
	held    []string
}

type nvState struct {
	procs []nvProc
	net   []string
}

func (s nvState) key() string {
	var b strings.Builder
	for _, p := range s.procs {
		fmt.Fprintf(&b, "%c%d/%d/%d/%d/%d/%s;", p.phase, p.made, p.group, p.res, p.mysn, p.h, strings.Join(p.held, ","))
	}
	b.WriteString(strings.Join(s.net, " "))
	return b.String()
}

func (s nvState) clone() nvState {
	t := nvState{procs: make([]nvProc, len(s.procs)), net: append([]string(nil), s.net...)}
	for i, p := range s.procs {
		p.held = append([]string(nil), p.held...)
		t.procs[i] = p
	}
	return t
}

func (s *nvState) send(to int, owner, sn, res int) {
	s.net = append(s.net, fmt.Sprintf("%d|%d.%d.%d", to, owner, sn, res))
	sort.Strings(s.net)
}

func naiveSuccessors(s nvState, k, r int, literal bool) []nvState {
	n := len(s.procs)
	var out []nvState
	for i, p := range s.procs {
		if p.phase == 'I' && p.made < r {
			for res := 0; res < k; res++ {
				t := s.clone()
				q := &t.procs[i]
				q.phase, q.made, q.group, q.res, q.mysn = 'W', q.made+1, res, res, q.h+1
				t.send((i+1)%n, i, q.mysn, res)
				out = append(out, t)
			}
		}
		if p.phase == 'C' {
			t := s.clone()
			q := &t.procs[i]
			for _, tok := range q.held {
				var o, sn, res int
				fmt.Sscanf(tok, "%d.%d.%d", &o, &sn, &res)
				t.send((i+1)%n, o, sn, res)
			}
			q.phase, q.held, q.res, q.mysn = 'I', nil, -1, 0
			out = append(out, t)
		}
	}
	for x, m := range s.net {
		if x > 0 && s.net[x-1] == m {
			continue
		}
		t := s.clone()
		t.net = append(t.net[:x:x], t.net[x+1:]...)
		var to, o, sn, res int
		fmt.Sscanf(m, "%d|%d.%d.%d", &to, &o, &sn, &res)
		q := &t.procs[to]
		if sn > q.h {
			q.h = sn
		}
		tok := fmt.Sprintf("%d.%d.%d", o, sn, res)
		switch {
		case o == to:
			q.phase = 'C'
		case q.phase == 'C' && q.res == res:
			q.held = append(q.held, tok)
		case q.phase == 'W' && q.res == res:
			if sn < q.mysn || (sn == q.mysn && o < to) {
				t.send((to+1)%n, o, sn, res)
			} else {
				q.held = append(q.held, tok)
			}
		default:
			if literal {
				sn = q.h
			}
			t.send((to+1)%n, o, sn, res)
		}
		out = append(out, t)
	}
	return out
}

// naiveCount returns the reachable states, transitions, BFS depth and
// number of terminal states with a process not Idle (deadlocks).
func naiveCount(n, k, r int, literal bool) (states, transitions, depth, deadlocks int) {
	init := nvState{procs: make([]nvProc, n)}
	for i := range init.procs {
		init.procs[i] = nvProc{phase: 'I', res: -1}
	}
	succ := func(s nvState) []nvState { return naiveSuccessors(s, k, r, literal) }
	busy := func(s nvState) bool {
		return slices.ContainsFunc(s.procs, func(p nvProc) bool { return p.phase != 'I' })
	}
	c := naive.BFS(init, nvState.key, succ, naive.Deadlocks(&deadlocks, busy))
	return c.States, c.Transitions, c.Depth, deadlocks
}
