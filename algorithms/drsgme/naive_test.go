package drsgme

// An independent, deliberately naive enumerator of the repaired DRS_GME
// (algorithms.md §7.1-§7.2, timers off, no faults, basic GME), written from
// the notes with plain structs, fmt-rendered string keys and a map-based
// BFS. It shares no code with the model: not the types, not the queue
// helpers, not the encoding. It exists to cross-check state and transition
// counts (TestNaiveCrossCheck).

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/internal/naive"
)

type nvTok struct {
	sess, typ, fol int
	ln             []int
	q              [][][2]int // entries: [0] = {group, -1}, then members {pid, sn}
}

type nvProc struct {
	phase, made, grp int // client: 0 Idle, 1 Waiting, 2 InCS
	st               string
	capt             int
	sn, sx           []int
	rs               map[int]bool
	acc              int
	old              nvTok
	fols             map[[2]int]bool
	tok              *nvTok
}

type nvMsg struct {
	kind     string
	from, to int
	sn, x    int
	tok      *nvTok
}

type nvState struct {
	ps  []nvProc
	net map[string]int
	msg map[string]nvMsg
}

func (t nvTok) String() string {
	return fmt.Sprintf("s%d t%d f%d ln%v q%v", t.sess, t.typ, t.fol, t.ln, t.q)
}

func (t nvTok) copyTok() nvTok {
	c := nvTok{sess: t.sess, typ: t.typ, fol: t.fol, ln: append([]int(nil), t.ln...)}
	for _, e := range t.q {
		c.q = append(c.q, append([][2]int(nil), e...))
	}
	return c
}

func (m nvMsg) key() string {
	s := fmt.Sprintf("%s %d>%d sn%d x%d", m.kind, m.from, m.to, m.sn, m.x)
	if m.kind == "TOKEN" {
		s = fmt.Sprintf("TOKEN >%d %s", m.to, m.tok.String())
	}
	return s
}

func (s *nvState) key() string {
	var b strings.Builder
	for _, p := range s.ps {
		var rs, fl []string
		for k := range p.rs {
			rs = append(rs, fmt.Sprint(k))
		}
		for k := range p.fols {
			fl = append(fl, fmt.Sprint(k))
		}
		sort.Strings(rs)
		sort.Strings(fl)
		capt := -1
		if p.st == "EF" {
			capt = p.capt
		}
		tok := "-"
		if p.tok != nil {
			tok = p.tok.String()
		}
		fmt.Fprintf(&b, "[%d %d %d %s %d %v %v %v %d %s %v %s]", p.phase, p.made, p.grp, p.st, capt, p.sn, p.sx, rs, p.acc, p.old.String(), fl, tok)
	}
	var ks []string
	for k, c := range s.net {
		ks = append(ks, fmt.Sprintf("%s*%d", k, c))
	}
	sort.Strings(ks)
	b.WriteString(strings.Join(ks, "|"))
	return b.String()
}

func (s *nvState) clone() *nvState {
	c := &nvState{net: map[string]int{}, msg: map[string]nvMsg{}}
	for k, v := range s.net {
		c.net[k] = v
		c.msg[k] = s.msg[k]
	}
	for _, p := range s.ps {
		q := p
		q.sn = append([]int(nil), p.sn...)
		q.sx = append([]int(nil), p.sx...)
		q.rs = map[int]bool{}
		for k := range p.rs {
			q.rs[k] = true
		}
		q.fols = map[[2]int]bool{}
		for k := range p.fols {
			q.fols[k] = true
		}
		q.old = p.old.copyTok()
		if p.tok != nil {
			t := p.tok.copyTok()
			q.tok = &t
		}
		c.ps = append(c.ps, q)
	}
	return c
}

func (s *nvState) put(m nvMsg) {
	if m.kind == "TOKEN" {
		t := m.tok.copyTok()
		m.tok = &t
	}
	k := m.key()
	s.net[k]++
	s.msg[k] = m
}

// nvInQueue reports whether j is a member of an entry.
func nvInQueue(t *nvTok, j int) bool {
	for _, e := range t.q {
		for _, m := range e[1:] {
			if m[0] == j {
				return true
			}
		}
	}
	return false
}

func nvAdd(t *nvTok, j, sn, x int) {
	if nvInQueue(t, j) {
		return
	}
	for k, e := range t.q {
		if e[0][0] == x {
			t.q[k] = append(t.q[k], [2]int{j, sn})
			return
		}
	}
	t.q = append(t.q, [][2]int{{x, -1}, {j, sn}})
}

type naiveDRS struct {
	n, m, r   int
	e5literal bool // Event 5's HI branch keeps type and old_token (drs-gme.md)
}

func (d naiveDRS) pass(s *nvState, i int) {
	p := &s.ps[i]
	t := p.tok
	p.old = t.copyTok()
	p.rs = map[int]bool{}
	for _, e := range t.q {
		if e[1][0] != i {
			p.rs[e[1][0]] = true
		}
	}
	t.sess++
	h := t.q[0][1][0]
	p.tok = nil
	if h == i {
		d.accept(s, i, t)
		return
	}
	s.put(nvMsg{kind: "TOKEN", to: h, tok: t})
}

func (d naiveDRS) holderReq(s *nvState, i, j, sn, x int) {
	p := &s.ps[i]
	t := p.tok
	if sn <= t.ln[j] || p.fols[[2]int{j, sn}] || nvInQueue(t, j) {
		return
	}
	if t.typ == x && (p.st == "EC" || (p.st == "HS" && len(t.q) == 0)) {
		t.fol++
		p.fols[[2]int{j, sn}] = true
		t.ln[j] = sn
		s.put(nvMsg{kind: "START", from: i, to: j, x: x, sn: sn})
		return
	}
	if p.st == "HI" {
		p.rs[j] = true
		nvAdd(t, j, sn, x)
		p.st = "N"
		d.pass(s, i)
		return
	}
	nvAdd(t, j, sn, x)
}

func (d naiveDRS) accept(s *nvState, i int, t *nvTok) {
	p := &s.ps[i]
	if t.sess <= p.acc {
		return
	}
	p.acc = t.sess
	front := t.q[0]
	t.q = t.q[1:]
	t.typ = front[0][0]
	for _, m := range front[1:] {
		if m[1] > t.ln[m[0]] {
			t.ln[m[0]] = m[1]
		}
	}
	t.fol = 0
	p.fols = map[[2]int]bool{}
	for _, m := range front[2:] {
		t.fol++
		p.fols[m] = true
		s.put(nvMsg{kind: "START", from: i, to: m[0], x: front[0][0], sn: m[1]})
	}
	p.st = "EC"
	p.rs = map[int]bool{}
	p.tok = t
	p.phase = 2
	for j := 0; j < d.n; j++ {
		if j != i && p.sn[j] > t.ln[j] && !nvInQueue(t, j) && !p.fols[[2]int{j, p.sn[j]}] {
			d.holderReq(s, i, j, p.sn[j], p.sx[j])
		}
	}
}

func (d naiveDRS) initial() *nvState {
	s := &nvState{net: map[string]int{}, msg: map[string]nvMsg{}}
	for i := 0; i < d.n; i++ {
		p := nvProc{st: "N", capt: -1, sn: make([]int, d.n), sx: make([]int, d.n), rs: map[int]bool{}, fols: map[[2]int]bool{},
			old: nvTok{typ: -1, ln: make([]int, d.n)}}
		if i == 0 {
			p.st = "HI"
			p.tok = &nvTok{typ: -1, ln: make([]int, d.n)}
		} else {
			for k := 0; k < d.n; k++ {
				if k != i {
					p.rs[k] = true
				}
			}
		}
		s.ps = append(s.ps, p)
	}
	return s
}

func (d naiveDRS) successors(s *nvState) []*nvState {
	var out []*nvState
	for i := 0; i < d.n; i++ {
		switch s.ps[i].phase {
		case 0:
			if s.ps[i].made >= d.r {
				continue
			}
			for x := 0; x < d.m; x++ {
				c := s.clone()
				p := &c.ps[i]
				p.made++
				p.grp = x
				p.phase = 1
				p.sn[i]++
				p.sx[i] = x
				sn := p.sn[i]
				switch p.st {
				case "HI":
					p.tok.typ = x
					p.tok.sess++
					p.acc = p.tok.sess
					p.tok.fol = 0
					p.tok.ln[i] = sn
					p.st = "EC"
					p.phase = 2
				case "HS":
					if len(p.tok.q) == 0 && p.tok.typ == x {
						p.tok.ln[i] = sn
						p.st = "EC"
						p.phase = 2
					} else {
						nvAdd(p.tok, i, sn, x)
					}
				default:
					p.st = "R"
					for k := range p.rs {
						c.put(nvMsg{kind: "REQ", from: i, to: k, sn: sn, x: x})
					}
				}
				out = append(out, c)
			}
		case 2:
			c := s.clone()
			p := &c.ps[i]
			p.phase = 0
			if p.st == "EF" {
				c.put(nvMsg{kind: "COMPLETE", from: i, to: p.capt, sn: p.sn[i]})
				p.capt = -1
				p.st = "N"
			} else {
				t := p.tok
				switch {
				case t.fol == 0 && len(t.q) == 0:
					p.st = "HI"
					t.typ = -1
					p.old = t.copyTok()
				case t.fol == 0:
					p.st = "N"
					d.pass(c, i)
				default:
					p.st = "HS"
				}
			}
			out = append(out, c)
		}
	}
	var keys []string
	for k := range s.net {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m := s.msg[k]
		c := s.clone()
		c.net[k]--
		if c.net[k] == 0 {
			delete(c.net, k)
			delete(c.msg, k)
		}
		i := m.to
		p := &c.ps[i]
		switch m.kind {
		case "REQ":
			j := m.from
			if m.sn <= p.sn[j] {
				break
			}
			p.sn[j] = m.sn
			p.sx[j] = m.x
			switch p.st {
			case "R":
				if !p.rs[j] {
					p.rs[j] = true
					c.put(nvMsg{kind: "REQ", from: i, to: j, sn: p.sn[i], x: p.sx[i]})
				}
			case "EC", "HS", "HI":
				d.holderReq(c, i, j, m.sn, m.x)
			default:
				p.rs[j] = true
			}
		case "TOKEN":
			t := m.tok.copyTok()
			d.accept(c, i, &t)
		case "START":
			if p.st == "R" && p.sx[i] == m.x && p.sn[i] == m.sn {
				p.capt = m.from
				p.st = "EF"
				p.phase = 2
			}
		case "COMPLETE":
			key := [2]int{m.from, m.sn}
			if p.tok == nil || !p.fols[key] {
				break
			}
			delete(p.fols, key)
			t := p.tok
			t.fol--
			if t.fol == 0 && p.st == "HS" {
				if len(t.q) == 0 {
					p.st = "HI"
					if !d.e5literal {
						t.typ = -1
						p.old = t.copyTok()
					}
				} else {
					if nvInQueue(t, i) {
						p.st = "R"
					} else {
						p.st = "N"
					}
					d.pass(c, i)
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// count returns distinct states, transitions and BFS depth.
func (d naiveDRS) count() (states, transitions, depth int) {
	init := d.initial()
	c := naive.BFS(init, (*nvState).key, d.successors, nil)
	return c.States, c.Transitions, c.Depth
}
