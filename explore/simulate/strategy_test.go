package simulate

import (
	"math/rand/v2"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

// TestPCTChoice: without change points PCT always fires a transition of
// the highest-priority process that has one; a change point demotes that
// process below every other, once.
func TestPCTChoice(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := &pctChooser{prio: make([]int, 4), depth: 1}
	p.start(rng, 0, 100)
	top := -1
	for i, pr := range p.prio {
		if top < 0 || pr > p.prio[top] {
			top = i
		}
	}
	en := []model.Transition{{Proc: 0}, {Proc: 1}, {Proc: 2}, {Proc: 3}, {Proc: top}}
	for step := range 50 {
		if k := p.choose(rng, nil, en, step); en[k].Proc != top {
			t.Fatalf("step %d: fired P%d, the top priority is P%d", step, en[k].Proc, top)
		}
	}
	// only lower processes enabled: the best of them acts
	var rest []model.Transition
	second := -1
	for i := range 4 {
		if i != top {
			rest = append(rest, model.Transition{Proc: i})
			if second < 0 || p.prio[i] > p.prio[second] {
				second = i
			}
		}
	}
	if k := p.choose(rng, nil, rest, 0); rest[k].Proc != second {
		t.Fatalf("fired P%d, want P%d", rest[k].Proc, second)
	}
	// a change point at step 3 demotes the top process there
	p = &pctChooser{prio: make([]int, 4), depth: 2}
	p.start(rng, 0, 1)
	p.changes = []int{3}
	first := en[p.choose(rng, nil, en, 0)].Proc
	if got := en[p.choose(rng, nil, en, 3)].Proc; got == first {
		t.Fatalf("the change point at step 3 did not demote P%d", first)
	}
	if p.prio[first] != p.depth-1 {
		t.Fatalf("demoted priority %d, want %d (below the initial %d..)", p.prio[first], p.depth-1, p.depth)
	}
}

// TestSwarmChoice: a switched-off class fires only when nothing else is
// enabled, and the on/off decision of a class is a function of the run
// seed alone.
func TestSwarmChoice(t *testing.T) {
	s := &swarmChooser{classOf: map[string]int{}, classID: map[string]int{}}
	rng := rand.New(rand.NewPCG(1, 2))
	en := []model.Transition{{Kind: model.Request, Proc: 0}, {Kind: model.Exit, Proc: 1}}
	seen := map[[2]bool]bool{}
	for seed := range uint64(64) {
		s.start(rng, seed, 0)
		offReq, offExit := s.isOff(s.id("Request")), s.isOff(s.id("Exit"))
		seen[[2]bool{offReq, offExit}] = true
		for range 20 {
			k := s.choose(rng, nil, en, 0)
			if en[k].Kind == model.Request && offReq && !offExit || en[k].Kind == model.Exit && offExit && !offReq {
				t.Fatalf("seed %d: fired a switched-off %s while the other class was on", seed, en[k].Kind)
			}
		}
		s2 := &swarmChooser{classOf: map[string]int{}, classID: map[string]int{}}
		s2.start(rng, seed, 0)
		s2.id("Exit") // met in the other order
		if s2.isOff(s2.id("Request")) != offReq || s2.isOff(s2.id("Exit")) != offExit {
			t.Fatalf("seed %d: the decision depends on the order classes are met", seed)
		}
	}
	if len(seen) != 4 {
		t.Errorf("64 seeds produced only %d of the 4 on/off combinations", len(seen))
	}
}
