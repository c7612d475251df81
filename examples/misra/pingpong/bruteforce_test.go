package pingpong

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// An independent explorer for the tests: the semantics of the model
// written again from scratch, without the protocol layer (no encoding, no
// hooks machinery), over plain Go values, with a breadth-first search
// keyed by a printed form of the state. Its counts must equal the
// checker's.

type bfProc struct {
	phase model.Phase
	made  int
	p     Proc
}

type bfState struct {
	procs  []bfProc
	msgs   []Msg // sorted, one entry per copy
	faults int
}

func (s *bfState) clone() *bfState {
	return &bfState{procs: slices.Clone(s.procs), msgs: slices.Clone(s.msgs), faults: s.faults}
}

func (s *bfState) key() string {
	return fmt.Sprint(s.procs, s.msgs, s.faults)
}

func msgLess(a, b Msg) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) }

// bfNormalize applies the model's renaming and sorts the network.
func (s *bfState) bfNormalize() {
	procs := make([]Proc, len(s.procs))
	for i := range s.procs {
		procs[i] = s.procs[i].p
	}
	normalize(nil, procs, s.msgs)
	for i := range s.procs {
		s.procs[i].p = procs[i]
	}
	slices.SortFunc(s.msgs, msgLess)
}

// bfMax bounds the brute-force search.
const bfMax = 1_000_000

// bfRing is the ring's semantics, for the brute-force search.
type bfRing struct {
	n, r, faults int
	increment    bool
}

func (g bfRing) send(s *bfState, i int, pong bool, nb int) {
	s.msgs = append(s.msgs, Msg{Pong: pong, To: (i + 1) % g.n, Nb: nb, Seq: s.procs[i].p.Out})
	s.procs[i].p.Out = (s.procs[i].p.Out + 1) % 3
}

func (g bfRing) takePing(s *bfState, i, nb int) {
	s.procs[i].p.M = nb
	if s.procs[i].phase == model.Waiting {
		s.procs[i].p.Ping, s.procs[i].p.Nb = true, nb
		s.procs[i].phase = model.InCS
		return
	}
	g.send(s, i, false, nb)
}

// deliver runs the receipt of m by its receiver.
func (g bfRing) deliver(s *bfState, m Msg) {
	i := m.To
	me := &s.procs[i].p
	switch {
	case m.Pong && me.Ping:
		v := m.Nb
		if g.increment {
			me.Nb++
			v--
		}
		me.M = me.Nb
		g.send(s, i, true, v)
	case m.Pong && me.M == m.Nb:
		g.send(s, i, true, m.Nb-1)
		g.takePing(s, i, 1-m.Nb)
	case m.Pong:
		me.M = m.Nb
		g.send(s, i, true, m.Nb)
	case me.M == m.Nb:
		g.send(s, i, true, -(m.Nb + 1))
		g.takePing(s, i, m.Nb+1)
	default:
		g.takePing(s, i, m.Nb)
	}
}

// deliverable: no token sent earlier on the same link is in transit.
func (g bfRing) deliverable(s *bfState, m Msg) bool {
	out := s.procs[(m.To+g.n-1)%g.n].p.Out
	age := func(x Msg) int { return (out - x.Seq + 2) % 3 }
	for _, o := range s.msgs {
		if o.To == m.To && age(o) > age(m) {
			return false
		}
	}
	return true
}

// successors returns every successor, one per enabled action (a distinct
// message counts once however many copies are in transit).
func (g bfRing) successors(s *bfState) []*bfState {
	var out []*bfState
	for i, p := range s.procs {
		switch {
		case p.phase == model.Idle && p.made < g.r:
			t := s.clone()
			t.procs[i].phase, t.procs[i].made = model.Waiting, p.made+1
			out = append(out, t)
		case p.phase == model.InCS:
			t := s.clone()
			t.procs[i].phase = model.Idle
			t.procs[i].p.Ping = false
			g.send(t, i, false, p.p.Nb)
			out = append(out, t)
		}
	}
	for k, m := range s.msgs {
		if k > 0 && s.msgs[k-1] == m {
			continue // a copy
		}
		if g.deliverable(s, m) {
			t := s.clone()
			t.msgs = slices.Delete(t.msgs, k, k+1)
			g.deliver(t, m)
			out = append(out, t)
		}
		if s.faults < g.faults {
			t := s.clone()
			t.msgs = slices.Delete(t.msgs, k, k+1)
			t.faults++
			out = append(out, t)
		}
	}
	for _, t := range out {
		t.bfNormalize()
	}
	return out
}

// bruteForce returns the number of reachable states and of (state,
// action) pairs, and the largest distance from the initial state. It
// gives up (-1 states) beyond bfMax states: semantics that differ from
// the model's may not be finite.
func (g bfRing) bruteForce() (states, transitions int64, depth int) {
	init := &bfState{procs: make([]bfProc, g.n)}
	init.procs[g.n-1].p.Out, init.procs[0].p.Out = 1, 1
	init.msgs = []Msg{{To: 0, Nb: 1}, {Pong: true, To: 1 % g.n, Nb: -1}}
	init.bfNormalize()
	seen := map[string]bool{init.key(): true}
	level := []*bfState{init}
	for len(level) > 0 {
		var next []*bfState
		for _, s := range level {
			for _, t := range g.successors(s) {
				transitions++
				if k := t.key(); !seen[k] {
					seen[k] = true
					next = append(next, t)
				}
				if len(seen) > bfMax {
					return -1, transitions, depth
				}
			}
		}
		if len(next) > 0 {
			depth++
		}
		level = next
	}
	return int64(len(seen)), transitions, depth
}
