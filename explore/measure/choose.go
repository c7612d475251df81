package measure

import (
	"bytes"
	"math/rand/v2"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// Models whose handlers leave a choice open (protocol.Protocol's
// Nondeterministic, Ctx.Choose: suzuki-kasami/any-order appends the
// waiting ids in any order) have one successor per alternative, and their
// Worker offers no Sampler capability. The simulation steps them through
// the system's LocalWorker instead: the acting process alone, with one
// alternative drawn uniformly from a random source of its own, seeded
// from Config.Seed and the replication (so a seed gives the same run, and
// the delays and requests are drawn as for a model without choices).

// choosing reports whether sys can be stepped through its LocalWorker: a
// protocol system without a channel capacity (whose worker reports
// CapacityBlocked, and which local steps would not honour). build uses it
// for a Nondeterministic protocol (whose Worker is no Sampler capability)
// and for one with a whole-state hook (guard.go).
func choosing(sys model.System) bool {
	if _, ok := sys.(protosys.LocalSystem); !ok {
		return false
	}
	_, capped := sys.NewWorker().(interface{ CapacityBlocked() bool })
	return !capped
}

// localStepper steps a local system one process at a time.
type localStepper struct {
	lw     protosys.LocalWorker
	rng    *rand.Rand
	chosen int64 // steps with more than one alternative
	other  int64 // of those, steps that took another alternative than the first
}

func newLocalStepper(sys model.System, seed uint64, rep int) *localStepper {
	return &localStepper{
		lw:  sys.(protosys.LocalSystem).NewLocalWorker(),
		rng: rand.New(rand.NewPCG(seed, uint64(rep)+0x6a09e667f3bcc908)),
	}
}

// apply runs t in state (a delivery names its message by t.Msg) with an
// alternative drawn at random, and returns the successor; it sets t.Proc,
// t.Flags and t.Choice as Sampler capability's Apply does.
func (l *localStepper) apply(state []byte, t *model.Transition) []byte {
	locals, network, faults := l.lw.Split(state)
	ev := protosys.LocalEvent{Kind: t.Kind, Arg: t.Arg}
	if t.Kind == model.Deliver {
		t.Proc = l.lw.To(t.Msg)
		ev.Arg, ev.Msg = 0, t.Msg
		for k, m := range network {
			if bytes.Equal(m, t.Msg) {
				network = append(network[:k], network[k+1:]...)
				break
			}
		}
	}
	p := t.Proc
	k, err := l.lw.Alternatives(p, locals[p], ev)
	if err != nil {
		panic("measure: " + err.Error())
	}
	if k > 1 {
		ev.Choice = l.rng.IntN(k)
		l.chosen++
		if ev.Choice > 0 {
			l.other++
		}
	}
	res, err := l.lw.Step(p, locals[p], ev)
	if err != nil {
		panic("measure: " + err.Error())
	}
	t.Flags, t.Choice = res.Flags, ev.Choice
	locals[p] = res.Next
	return l.lw.Assemble(locals, append(network, res.Sent...), faults)
}

// timers appends to dst the timers enabled in state, process by process.
func (l *localStepper) timers(dst []model.Transition, state []byte) []model.Transition {
	if l.lw.Timers() == 0 {
		return dst
	}
	locals, _, _ := l.lw.Split(state)
	for i, s := range locals {
		for t := range l.lw.Timers() {
			if l.lw.TimerEnabled(i, s, t) {
				dst = append(dst, model.Transition{Kind: model.Timer, Proc: i, Arg: t})
			}
		}
	}
	return dst
}
