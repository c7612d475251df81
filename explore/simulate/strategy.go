package simulate

import (
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// chooser is a strategy's per-worker state. start is called at the
// beginning of each run with the run's generator and seed; choose returns
// the index of the transition to fire among en (never empty) at step
// (0-based) of the run.
type chooser interface {
	start(rng *rand.Rand, seed uint64, horizon int)
	choose(rng *rand.Rand, state []byte, en []model.Transition, step int) int
}

func newChooser(s Strategy, w model.Worker, n, depth int) chooser {
	switch s {
	case PCT:
		return &pctChooser{prio: make([]int, n), depth: depth}
	case Swarm:
		return &swarmChooser{w: w, classOf: map[string]int{}, classID: map[string]int{}}
	}
	return uniformChooser{}
}

type uniformChooser struct{}

func (uniformChooser) start(*rand.Rand, uint64, int) {}

func (uniformChooser) choose(rng *rand.Rand, _ []byte, en []model.Transition, _ int) int {
	return rng.IntN(len(en))
}

// pctChooser: processes get distinct priorities depth..depth+n-1 in random
// order; change point c (0-based, at a random step of the horizon) lowers
// the acting process to priority depth-1-c, below every earlier one.
type pctChooser struct {
	prio    []int
	depth   int
	changes []int // sorted steps
	cands   []int
}

func (p *pctChooser) start(rng *rand.Rand, _ uint64, horizon int) {
	perm := rng.Perm(len(p.prio))
	for i, v := range perm {
		p.prio[i] = p.depth + v
	}
	p.changes = p.changes[:0]
	for range p.depth - 1 {
		p.changes = append(p.changes, rng.IntN(max(horizon, 1)))
	}
	slices.Sort(p.changes)
}

func (p *pctChooser) best(en []model.Transition) int {
	top := -1
	for k := range en {
		if pr := p.prio[en[k].Proc]; pr > top {
			top = pr
		}
	}
	return top
}

func (p *pctChooser) choose(rng *rand.Rand, _ []byte, en []model.Transition, step int) int {
	top := p.best(en)
	for c, at := range p.changes {
		if at != step {
			continue
		}
		// the process about to act drops below every priority so far
		for k := range en {
			if p.prio[en[k].Proc] == top {
				p.prio[en[k].Proc] = p.depth - 1 - c
				break
			}
		}
		top = p.best(en)
	}
	p.cands = p.cands[:0]
	for k := range en {
		if p.prio[en[k].Proc] == top {
			p.cands = append(p.cands, k)
		}
	}
	return p.cands[rng.IntN(len(p.cands))]
}

// maxCachedMessages bounds the swarm chooser's cache from message bytes to
// action class; beyond it classes are computed from labels every time.
const maxCachedMessages = 1 << 15

// swarmChooser: each action class is off for a run with probability 1/2,
// decided by a hash of the run seed and the class name (so the decision
// does not depend on the order in which classes are met).
type swarmChooser struct {
	w       model.Worker
	seed    uint64
	classOf map[string]int // message bytes -> class id (Deliver and Lose)
	classID map[string]int // class name -> class id
	names   []string
	off     []int8 // per class in this run: 0 unknown, 1 on, 2 off
	on      []int
}

func (s *swarmChooser) start(_ *rand.Rand, seed uint64, _ int) {
	s.seed = seed
	clear(s.off)
}

func (s *swarmChooser) id(name string) int {
	if id, ok := s.classID[name]; ok {
		return id
	}
	id := len(s.names)
	s.classID[name] = id
	s.names = append(s.names, name)
	s.off = append(s.off, 0)
	return id
}

// classOf returns the swarm action class of a transition: its kind, with
// the timer number for timers and the message type (the label up to "(")
// for deliveries and losses, e.g. "Deliver TOKEN".
func classOf(w model.Worker, state []byte, t *model.Transition) string {
	switch t.Kind {
	case model.Deliver, model.Lose:
		l := w.Label(state, t)
		if k := strings.IndexByte(l, '('); k > 0 {
			l = l[:k]
		}
		return l
	case model.Timer:
		return "Timer " + strconv.Itoa(t.Arg)
	}
	return t.Kind.String()
}

func (s *swarmChooser) class(state []byte, t *model.Transition) int {
	if t.Kind == model.Deliver || t.Kind == model.Lose {
		// the cache holds deliveries only: a Lose of the same bytes is
		// another class
		if id, ok := s.classOf[string(t.Msg)]; ok && t.Kind == model.Deliver {
			return id
		}
		id := s.id(classOf(s.w, state, t))
		if t.Kind == model.Deliver && len(s.classOf) < maxCachedMessages {
			s.classOf[string(t.Msg)] = id
		}
		return id
	}
	if t.Kind == model.Timer {
		return s.id(classOf(s.w, state, t))
	}
	return s.id(t.Kind.String())
}

func (s *swarmChooser) isOff(id int) bool {
	if s.off[id] == 0 {
		h := fnv.New64a()
		h.Write([]byte(s.names[id]))
		s.off[id] = 1 + int8(splitmix64(s.seed^h.Sum64())&1)
	}
	return s.off[id] == 2
}

func (s *swarmChooser) choose(rng *rand.Rand, state []byte, en []model.Transition, _ int) int {
	s.on = s.on[:0]
	for k := range en {
		if !s.isOff(s.class(state, &en[k])) {
			s.on = append(s.on, k)
		}
	}
	if len(s.on) == 0 {
		return rng.IntN(len(en))
	}
	return s.on[rng.IntN(len(s.on))]
}
