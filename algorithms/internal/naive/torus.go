package naive

import (
	"fmt"
	"strings"
)

// tProc is the state of one torus process (semantics.md §3). When the process
// is InCS it holds the token, and rc/cc/ch are the token fields; otherwise
// they are zero and are not part of the state.
type tProc struct {
	phase   int
	made    int
	waiting []int
	rc, cc  int
	ch      bool
}

// Message kinds of the torus.
const (
	tRequest = iota
	tToken
)

// tMsg is REQUEST(origin, to) or TOKEN(to, rc, cc, ch).
type tMsg struct {
	kind   int
	origin int
	to     int
	rc, cc int
	ch     bool
}

// tState is a global torus state: every process and the network multiset
// (one entry per copy, in no particular order).
type tState struct {
	procs []tProc
	net   []tMsg
}

func (s tState) clone() tState {
	c := tState{procs: make([]tProc, len(s.procs)), net: append([]tMsg{}, s.net...)}
	for i, p := range s.procs {
		p.waiting = append([]int{}, p.waiting...)
		c.procs[i] = p
	}
	return c
}

func (m tMsg) key() string {
	if m.kind == tRequest {
		return fmt.Sprintf("REQUEST(%d,%d)", m.origin, m.to)
	}
	return fmt.Sprintf("TOKEN(%d,%d,%d,%t)", m.to, m.rc, m.cc, m.ch)
}

func (s tState) netKeys() []string {
	keys := make([]string, len(s.net))
	for i, m := range s.net {
		keys[i] = m.key()
	}
	return keys
}

func (s tState) key() string {
	var b strings.Builder
	for i, p := range s.procs {
		fmt.Fprintf(&b, "P%d[%s m=%d w=%v", i, phaseName(p.phase), p.made, p.waiting)
		if p.phase == inCS {
			fmt.Fprintf(&b, " tok=%d,%d,%t", p.rc, p.cc, p.ch)
		}
		b.WriteString("] ")
	}
	b.WriteString("net{")
	b.WriteString(sortedJoin(s.netKeys()))
	b.WriteString("}")
	return b.String()
}

func (s tState) String() string { return s.key() }

// torusModel holds the parameters: d (N = d*d), r requests per process, te the
// tour-end constant and ce the column-end constant.
type torusModel struct {
	d, r, te, ce int
}

func (m torusModel) right(i int) int { return (i/m.d)*m.d + (i%m.d+1)%m.d }
func (m torusModel) down(i int) int  { return ((i/m.d+1)%m.d)*m.d + i%m.d }

func (m torusModel) initial() tState {
	s := tState{procs: make([]tProc, m.d*m.d)}
	for i := range s.procs {
		s.procs[i] = tProc{phase: idle, waiting: []int{}}
	}
	s.net = []tMsg{{kind: tToken, to: 0, rc: 1, cc: 0, ch: false}}
	return s
}

// successors returns one successor per enabled action of s.
func (m torusModel) successors(s tState) []tState {
	n := len(s.procs)
	var out []tState
	// Request(i): i Idle and made_i < R.
	for i := 0; i < n; i++ {
		if s.procs[i].phase != idle || s.procs[i].made >= m.r {
			continue
		}
		t := s.clone()
		p := &t.procs[i]
		p.made++
		p.waiting = append(p.waiting, i)
		if len(p.waiting) == 1 && p.waiting[0] == i {
			t.net = append(t.net, tMsg{kind: tRequest, origin: i, to: m.right(i)})
		}
		if len(p.waiting) > 2 {
			panic("naive: torus Waiting queue longer than 2")
		}
		p.phase = waiting
		out = append(out, t)
	}
	// Exit(i): i InCS. The token fields are those held by i.
	for i := 0; i < n; i++ {
		if s.procs[i].phase != inCS {
			continue
		}
		t := s.clone()
		p := &t.procs[i]
		p.phase = idle
		p.waiting = []int{}
		rc, cc, ch := p.rc, p.cc, p.ch
		p.rc, p.cc, p.ch = 0, 0, false
		if cc == m.te {
			cc = 0
			t.net = append(t.net, tMsg{kind: tToken, to: m.down(i), rc: rc, cc: cc, ch: ch})
		} else {
			t.net = append(t.net, tMsg{kind: tToken, to: m.right(i), rc: rc, cc: cc, ch: ch})
		}
		out = append(out, t)
	}
	// Deliver(msg) for every distinct message.
	for _, k := range distinctIndexes(s.netKeys()) {
		t := s.clone()
		msg := t.net[k]
		t.net = removeAt(t.net, k)
		i := msg.to
		p := &t.procs[i]
		switch msg.kind {
		case tRequest:
			j := msg.origin
			if i != j && len(p.waiting) == 0 {
				p.waiting = append(p.waiting, j)
				t.net = append(t.net, tMsg{kind: tRequest, origin: j, to: m.right(i)})
			}
		case tToken:
			if p.phase == inCS {
				panic("naive: torus token delivered to a process in CS")
			}
			m.deliverToken(&t, i, msg.rc, msg.cc, msg.ch)
		}
		out = append(out, t)
	}
	return out
}

// deliverToken runs rule 3 of semantics.md §3 at process i, with the
// column-end test rc == CE and the tour-end test cc == TE.
func (m torusModel) deliverToken(t *tState, i, rc, cc int, ch bool) {
	p := &t.procs[i]
	own := contains(p.waiting, i)
	sendRight := func() {
		t.net = append(t.net, tMsg{kind: tToken, to: m.right(i), rc: rc, cc: cc, ch: ch})
	}
	sendDown := func() {
		t.net = append(t.net, tMsg{kind: tToken, to: m.down(i), rc: rc, cc: cc, ch: ch})
	}
	enter := func() {
		p.phase = inCS
		p.rc, p.cc, p.ch = rc, cc, ch
	}
	// tourStart is the common tail of the cc == 0 and cc == -1 cases once
	// cc = 1 has been set: enter if own, else clear Waiting and send right.
	tourStart := func() {
		if own {
			enter()
		} else {
			p.waiting = []int{}
			sendRight()
		}
	}
	switch {
	case cc == 0:
		rc++
		if rc == m.ce {
			ch = true
			cc = -1
			sendRight()
		} else if len(p.waiting) == 0 {
			sendDown()
		} else {
			cc = 1
			tourStart()
		}
	case cc > 0:
		cc++
		if own {
			enter()
		} else {
			p.waiting = []int{}
			if cc == m.te {
				cc = 0
				sendDown()
			} else {
				sendRight()
			}
		}
	case cc == -1:
		ch = false
		rc = 1
		if len(p.waiting) == 0 {
			cc = 0
			sendDown()
		} else {
			cc = 1
			tourStart()
		}
	default:
		panic("naive: torus ColCounter below -1")
	}
}

// Torus enumerates the torus model of semantics.md §3 on a d x d torus with r
// requests per process, tour-end constant tourEnd (TE) and column-end
// constant colEnd (CE). The literal reading is Torus(d, r, d, d); the repaired
// reading of docs/notes/torus.md is Torus(d, r, d+1, d+1).
func Torus(d, r int, tourEnd, colEnd int) Counts {
	c, _, _, _ := torus(d, r, tourEnd, colEnd)
	return c
}

// TorusCheck evaluates, over every reachable state of Torus(d, r, tourEnd,
// colEnd), mutex (at most one process InCS), single-token (processes InCS plus
// TOKEN messages in transit is exactly 1) and no-deadlock (no state where some
// process is Waiting or InCS and no action is enabled).
func TorusCheck(d, r, tourEnd, colEnd int) (mutexOK, singleTokenOK, noDeadlockOK bool) {
	_, mutexOK, singleTokenOK, noDeadlockOK = torus(d, r, tourEnd, colEnd)
	return
}

// torus does one enumeration and returns both the counts and the verdicts of
// TorusCheck.
func torus(d, r, tourEnd, colEnd int) (c Counts, mutexOK, singleTokenOK, noDeadlockOK bool) {
	mutexOK, singleTokenOK, noDeadlockOK = true, true, true
	m := torusModel{d: d, r: r, te: tourEnd, ce: colEnd}
	visit := func(s tState, enabled int) {
		cs, tokens, busy := 0, 0, false
		for _, p := range s.procs {
			if p.phase == inCS {
				cs++
			}
			if p.phase != idle {
				busy = true
			}
		}
		tokens = cs
		for _, msg := range s.net {
			if msg.kind == tToken {
				tokens++
			}
		}
		if cs > 1 {
			mutexOK = false
		}
		if tokens != 1 {
			singleTokenOK = false
		}
		if busy && enabled == 0 {
			noDeadlockOK = false
		}
	}
	c = BFS(m.initial(), tState.key, m.successors, visit)
	return
}
