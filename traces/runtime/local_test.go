package runtime_test

import (
	"bytes"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/model"
)

// Every registered algorithm whose system is a LocalSystem steps each
// process locally exactly as its global system does, on the first states
// of a breadth-first search with its default parameters.
func TestLocalStepMatchesGlobalForEveryAlgorithm(t *testing.T) {
	const budget = 1500 // states per algorithm
	for _, a := range algorithms.All() {
		sys, _, err := a.Build("", nil)
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		ls, ok := sys.(model.LocalSystem)
		if !ok {
			t.Logf("%s: not a LocalSystem (it cannot run as processes)", a.Name)
			continue
		}
		w, lw := sys.NewWorker(), ls.NewLocalWorker()
		var queue [][]byte
		seen := map[string]bool{}
		w.Initial(func(s []byte) bool {
			queue = append(queue, append([]byte(nil), s...))
			seen[string(s)] = true
			return true
		})
		compared := 0
		for len(queue) > 0 && len(seen) < budget {
			s := queue[0]
			queue = queue[1:]
			locals, network, faults := lw.Split(s)
			type succ struct {
				t    model.Transition
				next []byte
			}
			var succs []succ
			w.Successors(s, func(tr *model.Transition, next []byte) bool {
				c := *tr
				c.Msg = append([]byte(nil), tr.Msg...)
				succs = append(succs, succ{c, append([]byte(nil), next...)})
				return true
			})
			for _, sc := range succs {
				if !seen[string(sc.next)] {
					seen[string(sc.next)] = true
					queue = append(queue, sc.next)
				}
				if sc.t.Kind == model.Lose {
					continue
				}
				i := sc.t.Proc
				res, err := lw.Step(i, locals[i], model.LocalEvent{Kind: sc.t.Kind, Arg: sc.t.Arg, Msg: sc.t.Msg})
				if err != nil {
					t.Fatalf("%s: %s: %v", a.Name, w.Label(s, &sc.t), err)
				}
				nl := append([]model.LocalState(nil), locals...)
				nl[i] = res.Next
				var net [][]byte
				removed := false
				for _, m := range network {
					if sc.t.Kind == model.Deliver && !removed && bytes.Equal(m, sc.t.Msg) {
						removed = true
						continue
					}
					net = append(net, m)
				}
				if !bytes.Equal(lw.Assemble(nl, append(net, res.Sent...), faults), sc.next) {
					t.Fatalf("%s: local step of %s differs from the global successor", a.Name, w.Label(s, &sc.t))
				}
				compared++
			}
		}
		if compared == 0 {
			t.Fatalf("%s: nothing compared", a.Name)
		}
	}
}
