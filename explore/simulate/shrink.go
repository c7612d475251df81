package simulate

import (
	"github.com/tokenmc/tokenmc/model"
)

// Shrink minimises a counterexample: path is a walk from an initial state
// whose last state (or last step, for a transition invariant) violates the
// property named property (looked up in props). It returns a path of at
// most the same length, from the same initial state, that violates the
// same property. Two reductions alternate until neither applies or budget
// steps have been replayed:
//
//   - loop removal: when a state occurs twice, the steps between the two
//     occurrences go;
//   - step deletion (delta debugging): chunks of actions, halving in size
//     down to single actions, are deleted and the rest replayed; an action
//     is identified by kind, process and argument or message, and one that
//     is no longer enabled when its turn comes is skipped. The replay stops
//     at the first violation of the property, so a candidate can also
//     shorten the tail.
//
// The result is 1-minimal with respect to deleting one action when the
// budget suffices. A path that does not violate the property is returned
// unchanged.
func Shrink(sys model.System, props []model.Property, property string, path [][]byte, budget int) [][]byte {
	var target []model.Property
	for _, p := range props {
		if p.Name == property {
			target = append(target, p)
		}
	}
	if len(target) == 0 || len(path) < 2 {
		return path
	}
	w := sys.NewWorker()
	s := &shrinker{w: w, st: newStepper(w), props: splitProps(target), budget: budget, init: path[0]}
	acts, ok := s.actionsOf(path)
	if !ok {
		return path
	}
	states, acts, ok := s.replay(acts)
	if !ok {
		return path
	}
	states, acts = removeLoops(states, acts)
	for improved := true; improved && s.budget > 0; {
		improved = false
		for chunk := max(len(acts)/2, 1); chunk >= 1 && s.budget > 0; chunk /= 2 {
			for i := 0; i < len(acts) && s.budget > 0; {
				// the first i actions are kept, so the replay starts from
				// states[i], which they reach
				rest := acts[min(i+chunk, len(acts)):]
				if st, a, ok := s.replayFrom(states[:i+1], acts[:i], rest); ok && len(a) < len(acts) {
					states, acts = removeLoops(st, a)
					improved = true
					continue
				}
				i += chunk
			}
		}
	}
	return states
}

type shrinker struct {
	w      model.Worker
	st     stepper
	props  props
	budget int
	init   []byte
	en     []model.Transition
}

// actionsOf recovers the actions of a path.
func (s *shrinker) actionsOf(path [][]byte) ([]model.Transition, bool) {
	var acts []model.Transition
	for k := 0; k+1 < len(path); k++ {
		s.en = s.st.enabled(s.en[:0], path[k])
		found := false
		for i := range s.en {
			t := s.en[i]
			if string(s.st.apply(path[k], &t)) == string(path[k+1]) {
				t.Msg = append([]byte(nil), t.Msg...)
				acts = append(acts, t)
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return acts, true
}

// replay runs acts from the initial state, skipping actions that are not
// enabled, until the property is violated. It returns the states and the
// actions actually taken, and whether the property was violated.
func (s *shrinker) replay(acts []model.Transition) ([][]byte, []model.Transition, bool) {
	if s.props.violatedState(s.w, s.init, false) != nil {
		return [][]byte{s.init}, nil, true
	}
	return s.replayFrom([][]byte{s.init}, nil, acts)
}

// replayFrom continues a replay whose prefix (states and the actions
// between them, free of violations) is given: it runs acts from the last
// state of the prefix.
func (s *shrinker) replayFrom(prefix [][]byte, done, acts []model.Transition) ([][]byte, []model.Transition, bool) {
	states := append([][]byte(nil), prefix...)
	taken := append([]model.Transition(nil), done...)
	cur := states[len(states)-1]
	for k := range acts {
		if s.budget <= 0 {
			return nil, nil, false
		}
		s.en = s.st.enabled(s.en[:0], cur)
		if len(s.en) == 0 {
			break
		}
		idx := -1
		for i := range s.en {
			if sameAction(&s.en[i], &acts[k]) {
				idx = i
				break
			}
		}
		if idx < 0 {
			continue
		}
		t := s.en[idx]
		cur = append([]byte(nil), s.st.apply(cur, &t)...)
		s.budget--
		t.Msg = acts[k].Msg
		states = append(states, cur)
		taken = append(taken, t)
		if s.props.Transition(&t) != nil {
			return states, taken, true
		}
		terminal := false
		if len(s.props.Terminals) > 0 {
			s.en = s.st.enabled(s.en[:0], cur)
			terminal = len(s.en) == 0 && !capacityBlocked(s.w)
		}
		if s.props.violatedState(s.w, cur, terminal) != nil {
			return states, taken, true
		}
	}
	return nil, nil, false
}

// removeLoops cuts the steps between two occurrences of a state; the
// result visits no state twice.
func removeLoops(states [][]byte, acts []model.Transition) ([][]byte, []model.Transition) {
	last := make(map[string]int, len(states))
	for i, s := range states {
		last[string(s)] = i
	}
	var os [][]byte
	var oa []model.Transition
	for i := 0; i < len(states); {
		j := last[string(states[i])]
		os = append(os, states[j])
		if j < len(acts) {
			oa = append(oa, acts[j])
		}
		i = j + 1
	}
	return os, oa
}
