package measure

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// The Guard's side of the whole-state hooks (package doc, "Whole-state
// hooks"): events the Guard refuses are held in sim.pending and tried
// again after every later step, in the order they were due.

// allowed reports whether the Guard of a guarded system allows t in the
// current state (true without a Guard). A Deliver names its message by
// t.Msg.
func (s *sim) allowed(t *model.Transition) bool {
	if !s.b.guarded {
		return true
	}
	lw := s.loc.lw
	p, ev := t.Proc, protosys.LocalEvent{Kind: t.Kind, Arg: t.Arg}
	if t.Kind == model.Deliver {
		p, ev.Arg, ev.Msg = lw.To(t.Msg), 0, t.Msg
	}
	return lw.Allowed(s.cur, p, ev)
}

// retry fires the first held event that can fire now and reports whether
// it did; it forgets the held events that have nothing left to do. When
// none fires it clears s.dirty, so the held events are tried again only
// after the next step.
func (s *sim) retry() bool {
	for k := 0; k < len(s.pending); {
		e := s.pending[k]
		switch s.fire(&e) {
		case held:
			k++
			continue
		case fired:
			s.pending = append(s.pending[:k], s.pending[k+1:]...)
			return true
		default:
			s.pending = append(s.pending[:k], s.pending[k+1:]...)
		}
	}
	s.dirty = false
	return false
}
