package naive

import (
	"fmt"
	"strings"
)

// skProc is the state of one Suzuki-Kasami process (semantics.md §2). When has
// is true the process holds the token, and ln/q are the token data; otherwise
// ln and q are nil and are not part of the state.
type skProc struct {
	phase int
	made  int
	rn    []int
	has   bool
	ln    []int
	q     []int
}

// Message kinds of Suzuki-Kasami.
const (
	skReq = iota
	skToken
)

// skMsg is REQ(from, to, sn) or TOKEN(to, ln, q).
type skMsg struct {
	kind int
	from int
	to   int
	sn   int
	ln   []int
	q    []int
}

// skState is a global Suzuki-Kasami state: every process and the network
// multiset (one entry per copy, in no particular order).
type skState struct {
	procs []skProc
	net   []skMsg
}

func copyInts(a []int) []int {
	if a == nil {
		return nil
	}
	return append([]int{}, a...)
}

func (m skMsg) clone() skMsg {
	m.ln = copyInts(m.ln)
	m.q = copyInts(m.q)
	return m
}

func (s skState) clone() skState {
	c := skState{procs: make([]skProc, len(s.procs)), net: make([]skMsg, len(s.net))}
	for i, p := range s.procs {
		p.rn = copyInts(p.rn)
		p.ln = copyInts(p.ln)
		p.q = copyInts(p.q)
		c.procs[i] = p
	}
	for i, m := range s.net {
		c.net[i] = m.clone()
	}
	return c
}

func (m skMsg) key() string {
	if m.kind == skReq {
		return fmt.Sprintf("REQ(%d,%d,%d)", m.from, m.to, m.sn)
	}
	return fmt.Sprintf("TOKEN(%d,%v,%v)", m.to, m.ln, m.q)
}

func (s skState) netKeys() []string {
	keys := make([]string, len(s.net))
	for i, m := range s.net {
		keys[i] = m.key()
	}
	return keys
}

func (s skState) key() string {
	var b strings.Builder
	for i, p := range s.procs {
		fmt.Fprintf(&b, "P%d[%s m=%d rn=%v", i, phaseName(p.phase), p.made, p.rn)
		if p.has {
			fmt.Fprintf(&b, " has ln=%v q=%v", p.ln, p.q)
		}
		b.WriteString("] ")
	}
	b.WriteString("net{")
	b.WriteString(sortedJoin(s.netKeys()))
	b.WriteString("}")
	return b.String()
}

func (s skState) String() string { return s.key() }

func skInitial(n int) skState {
	s := skState{procs: make([]skProc, n)}
	for i := range s.procs {
		s.procs[i] = skProc{phase: idle, rn: make([]int, n)}
	}
	s.procs[0].has = true
	s.procs[0].ln = make([]int, n)
	s.procs[0].q = []int{}
	return s
}

func contains(list []int, x int) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// skSuccessors returns one successor per enabled action of s.
func skSuccessors(s skState, r int) []skState {
	n := len(s.procs)
	var out []skState
	// Request(i): i Idle and made_i < R.
	for i := 0; i < n; i++ {
		if s.procs[i].phase != idle || s.procs[i].made >= r {
			continue
		}
		t := s.clone()
		p := &t.procs[i]
		p.made++
		if p.has {
			p.phase = inCS
		} else {
			p.rn[i]++
			for j := 0; j < n; j++ {
				if j != i {
					t.net = append(t.net, skMsg{kind: skReq, from: i, to: j, sn: p.rn[i]})
				}
			}
			p.phase = waiting
		}
		out = append(out, t)
	}
	// Exit(i): i InCS.
	for i := 0; i < n; i++ {
		if s.procs[i].phase != inCS {
			continue
		}
		t := s.clone()
		p := &t.procs[i]
		if !p.has {
			panic("naive: SK process in CS without the token")
		}
		p.phase = idle
		p.ln[i] = p.rn[i]
		for j := 0; j < n; j++ {
			if !contains(p.q, j) && p.rn[j] == p.ln[j]+1 {
				p.q = append(p.q, j)
			}
		}
		if len(p.q) > 0 {
			h := p.q[0]
			rest := append([]int{}, p.q[1:]...)
			t.net = append(t.net, skMsg{kind: skToken, to: h, ln: p.ln, q: rest})
			p.has = false
			p.ln = nil
			p.q = nil
		}
		out = append(out, t)
	}
	// Deliver(m) for every distinct message m.
	for _, k := range distinctIndexes(s.netKeys()) {
		t := s.clone()
		m := t.net[k]
		t.net = removeAt(t.net, k)
		i := m.to
		p := &t.procs[i]
		switch m.kind {
		case skReq:
			j := m.from
			if m.sn > p.rn[j] {
				p.rn[j] = m.sn
			}
			if p.has && p.phase == idle && p.rn[j] == p.ln[j]+1 {
				t.net = append(t.net, skMsg{kind: skToken, to: j, ln: p.ln, q: p.q})
				p.has = false
				p.ln = nil
				p.q = nil
			}
		case skToken:
			p.has = true
			p.ln = m.ln
			p.q = m.q
			p.phase = inCS
		}
		out = append(out, t)
	}
	return out
}

// SuzukiKasami enumerates the Suzuki-Kasami model of semantics.md §2 with n
// processes and r requests per process, and returns its counts.
func SuzukiKasami(n, r int) Counts {
	c, _, _, _ := suzukiKasami(n, r)
	return c
}

// SuzukiKasamiCheck evaluates, over every reachable state of SuzukiKasami(n,
// r), mutex (at most one process InCS), single-token (processes holding the
// token plus TOKEN messages in transit is exactly 1) and no-deadlock (no state
// where some process is Waiting or InCS and no action is enabled).
func SuzukiKasamiCheck(n, r int) (mutexOK, singleTokenOK, noDeadlockOK bool) {
	_, mutexOK, singleTokenOK, noDeadlockOK = suzukiKasami(n, r)
	return
}

// suzukiKasami does one enumeration and returns both the counts and the
// verdicts of SuzukiKasamiCheck.
func suzukiKasami(n, r int) (c Counts, mutexOK, singleTokenOK, noDeadlockOK bool) {
	mutexOK, singleTokenOK, noDeadlockOK = true, true, true
	visit := func(s skState, enabled int) {
		cs, tokens, busy := 0, 0, false
		for _, p := range s.procs {
			if p.phase == inCS {
				cs++
			}
			if p.has {
				tokens++
			}
			if p.phase != idle {
				busy = true
			}
		}
		for _, m := range s.net {
			if m.kind == skToken {
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
	c = BFS(skInitial(n), skState.key,
		func(s skState) []skState { return skSuccessors(s, r) }, visit)
	return
}
