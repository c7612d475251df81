package symmetry

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// Verify checks that sym is a symmetry of sys on its reachable states (at
// most maxStates of them, in breadth-first order; 0: all), in the sense
// the reduced search needs: for every such state s and every element g of
// the group, the transitions of g(s) and of s lead to the same orbits
// (equal multisets of canonical successors, with the same kinds, flags and
// transition-invariant verdicts), renaming by the identity gives s back,
// and every property in props gives the same answer on s and g(s).
//
// Then, by induction, every member of a reachable orbit has the same
// successor orbits as a reachable member, so the quotient search reaches
// exactly the orbits of the reachable states, with the same breadth-first
// distances, and ConcretizeSteps always finds a concrete step. This is weaker
// than renaming commuting with every transition (a model may break ties
// by id between processes that the renaming swaps, as long as the
// outcomes are renamings of each other) and it is what soundness needs.
//
// It returns the number of states checked, and an error describing the
// first mismatch. It enumerates the whole group for every state: use it
// on small configurations (tests).
func Verify(sys model.System, sym *model.Symmetry, props []model.Property, maxStates int) (int, error) {
	if sym.N != sys.Info().Processes {
		return 0, fmt.Errorf("symmetry %s is declared for %d processes, the system has %d", sym.Name, sym.N, sys.Info().Processes)
	}
	w := sys.NewWorker()
	r := sym.NewRenamer()
	c := newCanonicalizer(sym)
	id := make([]int, sym.N) // the identity renaming
	for i := range id {
		id[i] = i
	}
	var trans []model.Property
	for _, p := range props {
		if p.Kind == model.TransitionInvariant {
			trans = append(trans, p)
		}
	}
	var err error
	n := 0
	reach(sys, maxStates, func(s []byte) bool {
		n++
		if back := r.Rename(nil, s, id); !bytes.Equal(back, s) {
			err = fmt.Errorf("renaming by the identity changes state %s", describe(w, s))
			return false
		}
		mine := successors(w, c, s, trans)
		elements(sym, func(g []int) bool {
			gs := r.Rename(nil, s, g)
			got := successors(w, c, gs, trans)
			if d := diff(mine, got, len(trans)); d != "" {
				err = fmt.Errorf("renaming %v is not a symmetry: from %s\nand its image %s\n%s", g, describe(w, s), describe(w, gs), d)
				return false
			}
			for _, p := range props {
				if p.Kind == model.TransitionInvariant || (p.Kind == model.Terminal && len(mine) > 0) {
					continue // transition invariants are part of each successor's key
				}
				a := p.Holds(w.Snapshot(s))
				b := p.Holds(w.Snapshot(gs))
				if a != b {
					err = fmt.Errorf("property %s is not symmetric under %v: %v on %s, %v on %s", p.Name, g, a, describe(w, s), b, describe(w, gs))
					return false
				}
			}
			return true
		})
		return err == nil
	})
	return n, err
}

// step is one transition in a comparable form.
type step struct {
	key string
}

// successors lists the transitions of s as comparable strings: kind,
// flags, the verdict of each transition invariant in trans and the
// canonical form of the successor; sorted.
func successors(w model.Worker, c *canonicalizer, s []byte, trans []model.Property) []step {
	var out []step
	var key []byte
	w.Successors(s, func(t *model.Transition, next []byte) bool {
		key = append(key[:0], byte(t.Kind))
		key = binary.AppendUvarint(key, uint64(t.Flags))
		for _, p := range trans {
			if p.HoldsOn(t) {
				key = append(key, 1)
			} else {
				key = append(key, 0)
			}
		}
		key = append(key, c.Canonical(next)...)
		out = append(out, step{key: string(key)})
		return true
	})
	sort.Slice(out, func(a, b int) bool { return out[a].key < out[b].key })
	return out
}

// readable renders a step's key for an error message.
func readable(k string, trans int) string {
	kind := model.ActionKind(k[0])
	flags, n := binary.Uvarint([]byte(k[1:]))
	rest := k[1+n:]
	return fmt.Sprintf("%v flags=%d invariants=%v -> %x", kind, flags, []byte(rest[:trans]), rest[trans:])
}

func diff(want, got []step, trans int) string {
	var b strings.Builder
	if len(want) != len(got) {
		fmt.Fprintf(&b, "the image has %d transitions, the original %d\n", len(got), len(want))
	}
	for k := 0; k < min(len(want), len(got)); k++ {
		if want[k].key != got[k].key {
			fmt.Fprintf(&b, "a transition of the original: %s\nthe image's instead:          %s\n", readable(want[k].key, trans), readable(got[k].key, trans))
			break
		}
	}
	return b.String()
}

func describe(w model.Worker, s []byte) string {
	d := w.Describe(s)
	var b strings.Builder
	for _, p := range d.Processes {
		fmt.Fprintf(&b, "[P%d %s made %d %s] ", p.ID, p.Phase, p.Made, p.Vars)
	}
	for _, m := range d.Network {
		fmt.Fprintf(&b, "%s x%d ", m.Message, m.Count)
	}
	return strings.TrimSpace(b.String())
}

// reach calls f on every reachable state of sys in breadth-first order (at
// most maxStates; 0: all) until f returns false. It keeps every state in
// memory: for small configurations only.
func reach(sys model.System, maxStates int, f func([]byte) bool) {
	w := sys.NewWorker()
	seen := map[string]bool{}
	var queue [][]byte
	add := func(s []byte) {
		if !seen[string(s)] && (maxStates == 0 || len(seen) < maxStates) {
			seen[string(s)] = true
			queue = append(queue, append([]byte(nil), s...))
		}
	}
	w.Initial(func(s []byte) bool { add(s); return true })
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if !f(s) {
			return
		}
		w.Successors(s, func(_ *model.Transition, next []byte) bool { add(next); return true })
	}
}

// countOrbits walks every reachable state of sys (unreduced, at most
// maxStates; 0: all) and returns how many there are, how many distinct
// canonical forms they have under sym, and the sum of the out-degrees of
// one member of each orbit: the numbers of states and transitions a
// search of Reduce's quotient must find, computed without it.
func countOrbits(sys model.System, sym *model.Symmetry, maxStates int) (states, orbits int, transitions int64) {
	c := newCanonicalizer(sym)
	w := sys.NewWorker()
	forms := map[string]bool{}
	reach(sys, maxStates, func(s []byte) bool {
		states++
		f := c.Canonical(s)
		if !forms[string(f)] {
			forms[string(f)] = true
			w.Successors(s, func(*model.Transition, []byte) bool { transitions++; return true })
		}
		return true
	})
	return states, len(forms), transitions
}
