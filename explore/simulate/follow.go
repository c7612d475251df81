package simulate

import "github.com/tokenmc/tokenmc/model"

// Walk performs one walk on sys whose choices come from choose, checking
// props at every step (invariants on every state, transition invariants on
// every step, terminal properties where nothing is enabled). It is the
// building block for property-based testing and fuzzing, where the choices
// come from rapid or from fuzzer bytes.
//
// choose(n, en) returns an index in 0..n-1, or -1 to end the walk: first
// (en nil) to pick one of the n initial states, then at each step to pick
// one of the n enabled transitions en. Walk stops after steps steps, where
// nothing is enabled, or at the first violation; a capacity-blocked state
// (see Result.CapacityBlocked) ends it without the terminal check. It
// returns the states visited (copies, so they may be kept) and the
// violated property, nil if none.
func Walk(sys model.System, props []model.Property, steps int, choose func(n int, en []model.Transition) int) ([][]byte, *model.Property) {
	w := sys.NewWorker()
	st := newStepper(w)
	ps := splitProps(props)
	var initial [][]byte
	w.Initial(func(s []byte) bool {
		initial = append(initial, append([]byte(nil), s...))
		return true
	})
	k := choose(len(initial), nil)
	if k < 0 || k >= len(initial) {
		return nil, nil
	}
	cur := initial[k]
	path := [][]byte{cur}
	if p := ps.violatedState(w, cur, false); p != nil {
		return path, p
	}
	var en []model.Transition
	for range steps {
		en = st.enabled(en[:0], cur)
		if len(en) == 0 {
			if capacityBlocked(w) {
				return path, nil // capacity-blocked: not a terminal state
			}
			return path, ps.violatedState(w, cur, true)
		}
		k := choose(len(en), en)
		if k < 0 || k >= len(en) {
			return path, nil
		}
		t := en[k]
		cur = append([]byte(nil), st.apply(cur, &t)...)
		path = append(path, cur)
		if p := ps.Transition(&t); p != nil {
			return path, p
		}
		if p := ps.violatedState(w, cur, false); p != nil {
			return path, p
		}
	}
	return path, nil
}
