package measure

import (
	"math/rand/v2"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore/internal/capability"
	"github.com/tokenmc/tokenmc/model"
)

// The layout reader agrees with the model's own Describe on every state of
// random walks, and sent() finds exactly the messages Describe's network
// gained: an independent check of the message counts.
func TestLayoutMatchesDescribe(t *testing.T) {
	for _, name := range []string{"suzuki-kasami", "banerjee", "torus", "ricart-agrawala", "raymond", "drs-gme"} {
		a, v, err := algorithms.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		sys, _, err := a.BuildSim(v.Name, map[string]int{"r": 2})
		if err != nil {
			t.Fatal(err)
		}
		w := sys.NewWorker()
		smp := w.(capability.Sampler)
		n := sys.Info().Processes
		var cur []byte
		w.Initial(func(s []byte) bool { cur = append([]byte(nil), s...); return false })
		rng := rand.New(rand.NewPCG(1, 2))
		var pv, nv layout
		var en []model.Transition
		steps := 0
		for step := range 300 {
			steps = step
			if err := pv.parse(cur, n); err != nil {
				t.Fatalf("%s step %d: %v", name, step, err)
			}
			d := w.Describe(cur)
			for i, p := range d.Processes {
				if p.Phase != pv.phases[i].String() {
					t.Fatalf("%s step %d: P%d phase %s, layout says %s", name, step, i, p.Phase, pv.phases[i])
				}
			}
			if len(d.Network) != len(pv.msgs) {
				t.Fatalf("%s step %d: %d distinct messages, layout says %d", name, step, len(d.Network), len(pv.msgs))
			}
			before := map[string]int{}
			for k, m := range d.Network {
				if m.Count != pv.msgs[k].count {
					t.Fatalf("%s step %d: %s has %d copies, layout says %d", name, step, m.Message, m.Count, pv.msgs[k].count)
				}
				before[m.Message] = m.Count
			}
			en = smp.Enabled(en[:0], cur)
			if len(en) == 0 {
				break
			}
			tr := en[rng.IntN(len(en))]
			removed := -1
			if tr.Kind == model.Deliver {
				removed = tr.Arg
				before[d.Network[tr.Arg].Message]--
			}
			next := append([]byte(nil), smp.Apply(cur, &tr)...)
			if err := nv.parse(next, n); err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			sent(&pv, removed, &nv, func(m []byte, k int) {
				got[w.Label(next, &model.Transition{Kind: model.Deliver, Msg: m})[len("Deliver "):]] += k
			})
			for _, m := range w.Describe(next).Network {
				if diff := max(m.Count-before[m.Message], 0); got[m.Message] != diff {
					t.Fatalf("%s step %d: %s sent %d times, sent() says %d", name, step, m.Message, diff, got[m.Message])
				}
				delete(got, m.Message)
			}
			for m, k := range got {
				t.Fatalf("%s step %d: sent() reports %d copies of %s that were not sent", name, step, k, m)
			}
			cur = next
		}
		if steps < 20 {
			t.Errorf("%s: the walk ended after %d steps; too short to check anything", name, steps)
		}
	}
}
