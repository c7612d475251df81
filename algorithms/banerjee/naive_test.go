package banerjee

// An independent, deliberately naive enumerator of banerjee and
// banerjee/literal, written from algorithms.md §6.1 (and the decisions in
// doc.go) without any code of the model: plain structs, messages as
// strings, a map[string]int of BFS distances. It shares nothing with
// banerjee.go except the package name; it exists only to cross-check the
// explorer's counts (semantics.md §1 "Counts").

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/internal/naive"
)

type nvProc struct {
	phase string // "I", "W", "C"
	made  int
	arb   int
	role  string // "none", "col", "fwd", "col2"
	q     []int
	has   bool
	tq    []int
	round int
}

type nvState struct {
	p   []nvProc
	net []string // one entry per copy: "R to j", "P to round q...", "A to a round q..."
}

func nvInts(v []int) string {
	s := make([]string, len(v))
	for k, x := range v {
		s[k] = strconv.Itoa(x)
	}
	return strings.Join(s, ".")
}

func nvParse(s string) []int {
	if s == "" {
		return nil
	}
	var out []int
	for _, f := range strings.Split(s, ".") {
		x, _ := strconv.Atoi(f)
		out = append(out, x)
	}
	return out
}

func (s nvState) key() string {
	var b strings.Builder
	for _, p := range s.p {
		q, tq := "", ""
		if p.role == "col" || p.role == "col2" {
			q = nvInts(p.q)
		}
		if p.has {
			tq = nvInts(p.tq)
		}
		fmt.Fprintf(&b, "%s%d a%d %s[%s] h%v[%s] r%d|", p.phase, p.made, p.arb, p.role, q, p.has, tq, p.round)
	}
	n := append([]string(nil), s.net...)
	sort.Strings(n)
	b.WriteString(strings.Join(n, ","))
	return b.String()
}

func (s nvState) clone() nvState {
	c := nvState{p: make([]nvProc, len(s.p)), net: append([]string(nil), s.net...)}
	for i, p := range s.p {
		p.q = append([]int(nil), p.q...)
		p.tq = append([]int(nil), p.tq...)
		c.p[i] = p
	}
	return c
}

func nvHas(v []int, x int) bool {
	for _, y := range v {
		if y == x {
			return true
		}
	}
	return false
}

// naiveCount returns distinct states, transitions and BFS depth of
// banerjee (literal=false) or banerjee/literal with n processes and r
// requests each, and whether a reachable terminal state has a process not
// Idle (a no-deadlock violation) and whether two processes are ever InCS.
func naiveCount(n, r int, literal bool) (states, transitions, depth int, deadlock, twoInCS bool) {
	init := nvState{p: make([]nvProc, n)}
	for i := range init.p {
		init.p[i] = nvProc{phase: "I", role: "none"}
	}
	init.p[0].role = "col"
	init.p[0].has = true
	succ := func(s nvState) []nvState { return nvSuccessors(s, n, r, literal) }
	c := naive.BFS(init, nvState.key, succ, func(s nvState, enabled int) {
		in := 0
		for _, p := range s.p {
			if p.phase == "C" {
				in++
			}
			if enabled == 0 && p.phase != "I" {
				deadlock = true
			}
		}
		if in > 1 {
			twoInCS = true
		}
	})
	return c.States, c.Transitions, c.Depth, deadlock, twoInCS
}

func nvSuccessors(s nvState, n, r int, literal bool) []nvState {
	var out []nvState
	for i := range s.p {
		p := s.p[i]
		if p.phase == "I" && p.made < r {
			t := s.clone()
			me := &t.p[i]
			me.made++
			me.phase = "W"
			if me.role == "col" || me.role == "col2" {
				if !nvHas(me.q, i) {
					me.q = append(me.q, i)
				}
			} else if me.arb != i {
				t.net = append(t.net, fmt.Sprintf("R %d %d", me.arb, i))
			}
			out = append(out, t)
		}
		if p.phase == "C" {
			t := s.clone()
			me := &t.p[i]
			me.phase = "I"
			me.tq = me.tq[1:]
			if len(me.tq) > 0 {
				t.net = append(t.net, fmt.Sprintf("P %d %d %s", me.tq[0], me.round, nvInts(me.tq)))
				me.has = false
				me.tq = nil
			}
			out = append(out, t)
		}
		// collection end
		if p.role == "col2" {
			t := s.clone()
			t.p[i].role = "none"
			t.p[i].q = nil
			out = append(out, t)
		} else if p.role == "col" && p.has && len(p.tq) == 0 && p.phase != "C" && (literal || len(p.q) > 0) {
			t := s.clone()
			me := &t.p[i]
			if len(me.q) == 0 {
				me.role = "col2"
			} else {
				q := me.q
				me.q = nil
				if !literal {
					me.round++
				}
				last := q[len(q)-1]
				if len(q) == 1 && last == i {
					me.tq = []int{i}
					me.phase = "C"
				} else {
					for k := 0; k < n; k++ {
						if k != i {
							t.net = append(t.net, fmt.Sprintf("A %d %d %d %s", k, last, me.round, nvInts(q)))
						}
					}
					me.arb = last
					if last != i {
						me.role = "fwd"
					}
					if q[0] == i {
						me.tq = q
						me.phase = "C"
					} else {
						t.net = append(t.net, fmt.Sprintf("P %d %d %s", q[0], me.round, nvInts(q)))
						me.has = false
						me.tq = nil
					}
				}
			}
			out = append(out, t)
		}
		if p.role == "fwd" {
			t := s.clone()
			t.p[i].role = "none"
			out = append(out, t)
		}
	}
	seen := map[string]bool{}
	for k, m := range s.net {
		if seen[m] {
			continue
		}
		seen[m] = true
		t := s.clone()
		t.net = append(t.net[:k:k], t.net[k+1:]...)
		f := strings.Fields(m)
		to, _ := strconv.Atoi(f[1])
		me := &t.p[to]
		switch f[0] {
		case "R":
			j, _ := strconv.Atoi(f[2])
			switch me.role {
			case "col", "col2":
				if !nvHas(me.q, j) {
					me.q = append(me.q, j)
				}
			case "fwd":
				t.net = append(t.net, fmt.Sprintf("R %d %d", me.arb, j))
			}
		case "P":
			rd, _ := strconv.Atoi(f[2])
			q := nvParse(f[3])
			me.has = true
			me.tq = q
			if rd > me.round {
				me.round = rd
			}
			if !literal && q[len(q)-1] == to && me.role != "col" {
				me.role = "col"
				me.arb = to
				me.q = nil
			}
			me.phase = "C"
		case "A":
			a, _ := strconv.Atoi(f[2])
			rd, _ := strconv.Atoi(f[3])
			if literal {
				me.arb = a
				if a == to {
					me.role = "col"
					me.q = nil
				}
			} else if rd > me.round {
				me.round = rd
				me.arb = a
				if a == to && me.role != "col" {
					me.role = "col"
					me.q = nil
				}
			}
		}
		out = append(out, t)
	}
	return out
}
