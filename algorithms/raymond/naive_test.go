package raymond

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/internal/naive"
)

// An independent enumerator for Raymond's algorithm, written from the
// procedures of the paper (package doc) with plain structs, string keys
// and a map-based breadth-first search. It shares no code with raymond.go
// or package model. A holder equal to the node's own id means "self".

type nNode struct {
	phase  byte // 'I', 'W', 'C'
	made   int
	holder int
	queue  []int
	asked  bool
}

type nState struct {
	nodes []nNode
	net   []string // "R from to" or "P from to", sorted, one entry per copy
}

func (s nState) key() string {
	var b strings.Builder
	for _, x := range s.nodes {
		fmt.Fprintf(&b, "%c%d h%d q%v a%v|", x.phase, x.made, x.holder, x.queue, x.asked)
	}
	b.WriteString(strings.Join(s.net, ","))
	return b.String()
}

func (s nState) clone() nState {
	t := nState{nodes: make([]nNode, len(s.nodes)), net: append([]string(nil), s.net...)}
	for i, x := range s.nodes {
		x.queue = append([]int(nil), x.queue...)
		t.nodes[i] = x
	}
	return t
}

type nCounts struct{ states, transitions, depth int }

func naiveCounts(n, r, tree int) nCounts {
	parent := func(i int) int {
		switch tree {
		case 1:
			return (i - 1) / 2
		case 2:
			return 0
		}
		return i - 1
	}
	init := nState{}
	for i := 0; i < n; i++ {
		h := i
		if i > 0 {
			h = parent(i)
		}
		init.nodes = append(init.nodes, nNode{phase: 'I', holder: h})
	}
	send := func(s *nState, kind byte, from, to int) {
		s.net = append(s.net, fmt.Sprintf("%c %d %d", kind, from, to))
		sort.Strings(s.net)
	}
	// ASSIGN_PRIVILEGE then MAKE_REQUEST at node i.
	react := func(s *nState, i int) {
		x := &s.nodes[i]
		if x.holder == i && x.phase != 'C' && len(x.queue) > 0 {
			x.holder = x.queue[0]
			x.queue = x.queue[1:]
			x.asked = false
			if x.holder == i {
				x.phase = 'C'
			} else {
				send(s, 'P', i, x.holder)
			}
		}
		if x.holder != i && len(x.queue) > 0 && !x.asked {
			send(s, 'R', i, x.holder)
			x.asked = true
		}
	}
	succ := func(s nState) []nState {
		var out []nState
		for i := 0; i < n; i++ {
			if s.nodes[i].phase == 'I' && s.nodes[i].made < r {
				t := s.clone()
				t.nodes[i].phase = 'W'
				t.nodes[i].made++
				t.nodes[i].queue = append(t.nodes[i].queue, i)
				react(&t, i)
				out = append(out, t)
			}
			if s.nodes[i].phase == 'C' {
				t := s.clone()
				t.nodes[i].phase = 'I'
				react(&t, i)
				out = append(out, t)
			}
		}
		for k, m := range s.net {
			if k > 0 && s.net[k-1] == m {
				continue
			}
			var kind byte
			var from, to int
			fmt.Sscanf(m, "%c %d %d", &kind, &from, &to)
			t := s.clone()
			t.net = append(t.net[:k:k], s.net[k+1:]...)
			if kind == 'R' {
				t.nodes[to].queue = append(t.nodes[to].queue, from)
			} else {
				t.nodes[to].holder = to
			}
			react(&t, to)
			out = append(out, t)
		}
		return out
	}
	c := naive.BFS(init, nState.key, succ, nil)
	return nCounts{states: c.States, transitions: c.Transitions, depth: c.Depth}
}
