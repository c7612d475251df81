package protocol_test

import (
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/internal/cputime"
)

// BenchmarkSuccessors measures the protocol layer's successor generation
// alone, as a search runs it (explore's BFS expands a state by Successors,
// copies every successor, and checks the invariants on LastSnapshot): on
// the first states of the benchmark models in breadth-first order, it
// reports the time per transition (ns/transition, and cpu-ns/transition,
// the processor time, steadier on a shared machine), without the seen set. Compare runs with benchstat:
//
//	go test -run '^$' -bench Successors -count 5 ./model/protocol/
func BenchmarkSuccessors(b *testing.B) {
	for _, c := range []struct {
		name string
		sys  func() (model.System, error)
	}{
		{"torus/literal/n=4/r=2", func() (model.System, error) {
			p, err := torus.New(torus.Literal, 4, 2)
			if err != nil {
				return nil, err
			}
			return p.System(), nil
		}},
		{"suzuki-kasami/n=3/r=3", func() (model.System, error) {
			p, err := suzukikasami.New(suzukikasami.Default, 3, 3)
			if err != nil {
				return nil, err
			}
			return p.System(), nil
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			sys, err := c.sys()
			if err != nil {
				b.Fatal(err)
			}
			states := bfsStates(sys, 200_000)
			var props []model.Property // the state invariants, checked on every state
			for _, p := range invariants.Applicable(invariants.Standard(), sys.Info()) {
				if p.Kind == model.Invariant {
					props = append(props, p)
				}
			}
			w := sys.NewWorker()
			last := w.(interface{ LastSnapshot() model.Snapshot })
			var buf []byte
			trans := 0
			yield := func(t *model.Transition, next []byte) bool {
				trans++
				buf = append(buf[:0], next...)
				return true
			}
			b.ResetTimer()
			cpu0 := cputime.Used()
			for b.Loop() {
				for _, s := range states {
					w.Successors(s, yield)
					snap := last.LastSnapshot()
					for _, p := range props {
						if !p.Holds(snap) {
							b.Fatalf("%s fails", p.Name)
						}
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(trans), "ns/transition")
			b.ReportMetric(float64((cputime.Used()-cpu0).Nanoseconds())/float64(trans), "cpu-ns/transition")
		})
	}
}

// bfsStates returns the first (at most) max states of sys in breadth-first
// order.
func bfsStates(sys model.System, max int) [][]byte {
	w := sys.NewWorker()
	seen := map[string]bool{}
	var states [][]byte
	add := func(s []byte) {
		if len(states) < max && !seen[string(s)] {
			seen[string(s)] = true
			states = append(states, append([]byte(nil), s...))
		}
	}
	w.Initial(func(s []byte) bool { add(s); return true })
	for k := 0; k < len(states) && len(states) < max; k++ {
		w.Successors(states[k], func(_ *model.Transition, next []byte) bool { add(next); return true })
	}
	if len(states) == 0 {
		panic(fmt.Sprintf("%s has no initial state", sys.Info().Name))
	}
	return states
}
