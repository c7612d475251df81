package torus_test

import (
	"fmt"
	"sort"
	"strings"
)

// An independent enumerator of the torus over FIFO channels, written from
// docs/notes/torus.md ("Handlers") and docs/notes/algorithms.md §10.2
// ("--fifo: per ordered pair of processes; a message is deliverable only if
// it is the oldest on its channel") without the package's code: explicit
// per-channel queues keyed by (sender, receiver), string state keys and a
// map. The package's FIFO channels are derived from the message (a
// REQUEST comes from the left neighbour, a TOKEN with cc = 0 from the upper
// one, any other TOKEN from the left); this enumerator records the real
// sender, so it also checks that derivation.

type nvMsg struct {
	token    bool
	origin   int
	rc, cc   int
	ch       bool
	from, to int
}

type nvProc struct {
	phase   int // 0 Idle, 1 Waiting, 2 InCS
	made    int
	waiting []int
	has     bool
	rc, cc  int
	ch      bool
}

type nvState struct {
	procs []nvProc
	chans map[[2]int][]nvMsg
}

type nvModel struct {
	d, r, te, ce int
	mask         int // requesters bit mask; 0: all
}

func (s nvState) clone() nvState {
	c := nvState{procs: make([]nvProc, len(s.procs)), chans: map[[2]int][]nvMsg{}}
	for i, p := range s.procs {
		p.waiting = append([]int(nil), p.waiting...)
		c.procs[i] = p
	}
	for k, q := range s.chans {
		if len(q) > 0 {
			c.chans[k] = append([]nvMsg(nil), q...)
		}
	}
	return c
}

func (s nvState) key() string {
	var b strings.Builder
	for _, p := range s.procs {
		fmt.Fprintf(&b, "%d%d%v", p.phase, p.made, p.waiting)
		if p.has {
			fmt.Fprintf(&b, "T%d,%d,%v", p.rc, p.cc, p.ch)
		}
		b.WriteByte('|')
	}
	var ks [][2]int
	for k, q := range s.chans {
		if len(q) > 0 {
			ks = append(ks, k)
		}
	}
	sort.Slice(ks, func(i, j int) bool {
		if ks[i][0] != ks[j][0] {
			return ks[i][0] < ks[j][0]
		}
		return ks[i][1] < ks[j][1]
	})
	for _, k := range ks {
		fmt.Fprintf(&b, "%v:", k)
		for _, m := range s.chans[k] {
			if m.token {
				fmt.Fprintf(&b, "T%d,%d,%v;", m.rc, m.cc, m.ch)
			} else {
				fmt.Fprintf(&b, "R%d;", m.origin)
			}
		}
	}
	return b.String()
}

func (m nvModel) right(i int) int { return i/m.d*m.d + (i%m.d+1)%m.d }
func (m nvModel) down(i int) int  { return (i/m.d+1)%m.d*m.d + i%m.d }

func (s *nvState) send(msg nvMsg) {
	k := [2]int{msg.from, msg.to}
	s.chans[k] = append(s.chans[k], msg)
}

func (m nvModel) initial() nvState {
	s := nvState{procs: make([]nvProc, m.d*m.d), chans: map[[2]int][]nvMsg{}}
	up := (m.d - 1) * m.d // the upper neighbour of P0
	s.send(nvMsg{token: true, rc: 1, from: up, to: 0})
	return s
}

func nvHas(w []int, x int) bool {
	for _, y := range w {
		if y == x {
			return true
		}
	}
	return false
}

// pass sends the token fields from i: down with cc = 0 when cc has
// reached the tour end, right otherwise.
func (m nvModel) pass(s *nvState, i, rc, cc int, ch bool) {
	if cc == m.te {
		s.send(nvMsg{token: true, rc: rc, cc: 0, ch: ch, from: i, to: m.down(i)})
		return
	}
	s.send(nvMsg{token: true, rc: rc, cc: cc, ch: ch, from: i, to: m.right(i)})
}

// visit handles the token at i during a tour (cc already 1 or incremented):
// enter on an own request, else clear the queue and pass the token on.
func (m nvModel) visit(s *nvState, i, rc, cc int, ch bool, start bool) {
	p := &s.procs[i]
	if nvHas(p.waiting, i) {
		p.phase, p.has, p.rc, p.cc, p.ch = 2, true, rc, cc, ch
		return
	}
	p.waiting = nil
	if start {
		s.send(nvMsg{token: true, rc: rc, cc: cc, ch: ch, from: i, to: m.right(i)})
		return
	}
	m.pass(s, i, rc, cc, ch)
}

func (m nvModel) successors(s nvState, yield func(nvState)) {
	for i, p := range s.procs {
		switch p.phase {
		case 0:
			if p.made < m.r && (m.mask == 0 || m.mask&(1<<i) != 0) {
				n := s.clone()
				q := &n.procs[i]
				q.phase, q.made = 1, q.made+1
				q.waiting = append(q.waiting, i)
				if len(q.waiting) == 1 {
					n.send(nvMsg{origin: i, from: i, to: m.right(i)})
				}
				yield(n)
			}
		case 2:
			n := s.clone()
			q := &n.procs[i]
			rc, cc, ch := q.rc, q.cc, q.ch
			q.phase, q.waiting, q.has, q.rc, q.cc, q.ch = 0, nil, false, 0, 0, false
			m.pass(&n, i, rc, cc, ch)
			yield(n)
		}
	}
	var ks [][2]int
	for k, q := range s.chans {
		if len(q) > 0 {
			ks = append(ks, k)
		}
	}
	for _, k := range ks {
		n := s.clone()
		msg := n.chans[k][0]
		n.chans[k] = n.chans[k][1:]
		i := msg.to
		p := &n.procs[i]
		if !msg.token {
			if msg.origin != i && len(p.waiting) == 0 {
				p.waiting = []int{msg.origin}
				n.send(nvMsg{origin: msg.origin, from: i, to: m.right(i)})
			}
			yield(n)
			continue
		}
		rc, cc, ch := msg.rc, msg.cc, msg.ch
		switch {
		case cc == 0:
			rc++
			switch {
			case rc == m.ce:
				n.send(nvMsg{token: true, rc: rc, cc: -1, ch: true, from: i, to: m.right(i)})
			case len(p.waiting) == 0:
				n.send(nvMsg{token: true, rc: rc, cc: 0, ch: ch, from: i, to: m.down(i)})
			default:
				m.visit(&n, i, rc, 1, ch, true)
			}
		case cc > 0:
			m.visit(&n, i, rc, cc+1, ch, false)
		default: // -1
			if len(p.waiting) == 0 {
				n.send(nvMsg{token: true, rc: 1, cc: 0, ch: false, from: i, to: m.down(i)})
			} else {
				m.visit(&n, i, 1, 1, false, true)
			}
		}
		yield(n)
	}
}

// nvCounts is the result of a breadth-first enumeration.
type nvCounts struct{ states, transitions, depth int }

func (m nvModel) enumerate() nvCounts {
	init := m.initial()
	seen := map[string]bool{init.key(): true}
	level := []nvState{init}
	c := nvCounts{states: 1}
	for depth := 0; len(level) > 0; depth++ {
		c.depth = depth
		var next []nvState
		for _, s := range level {
			m.successors(s, func(n nvState) {
				c.transitions++
				if k := n.key(); !seen[k] {
					seen[k] = true
					c.states++
					next = append(next, n)
				}
			})
		}
		level = next
	}
	return c
}
