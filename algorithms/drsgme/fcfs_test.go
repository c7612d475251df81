package drsgme

import (
	"context"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// D22: §VIII's FCFS claim, an informational property, fails: the shortest
// counterexample (N=3, M=2, R=1) is P1's request followed by the idle
// holder P0's own request, which enters at once while P1's REQ is in
// transit. The history variable changes no behaviour: the wrapped system's
// states project onto exactly the 11,389 states of the default reading,
// where gme-safety, single-token and no-deadlock hold.
func TestFCFSInformational(t *testing.T) {
	cfg := Config{Variant: FCFS, N: 3, M: 2, R: 1}
	sys, err := System(cfg)
	if err != nil {
		t.Fatal(err)
	}
	props, err := invariants.Select(AllProperties(cfg), sys.Info(), NameFCFS)
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.Check(context.Background(), sys, explore.Options{Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != explore.Violated || res.Violation.Property.Name != NameFCFS || res.Violation.Len() != 2 {
		t.Fatalf("verdict %s, want fcfs violated after 2 steps", res.Verdict)
	}
	algotest.ReplayShipped(t, sys, Properties(cfg), "testdata/fcfs-n3.fcfs.trace.json", NameFCFS, 2)

	// every wrapped state, projected onto the inner system
	w := sys.NewWorker()
	seen, inner := map[string]bool{}, map[string]bool{}
	var queue [][]byte
	w.Initial(func(s []byte) bool { queue = append(queue, append([]byte(nil), s...)); return true })
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if seen[string(s)] {
			continue
		}
		seen[string(s)] = true
		in, _ := split(s)
		inner[string(in)] = true
		w.Successors(s, func(_ *model.Transition, next []byte) bool {
			if !seen[string(next)] {
				queue = append(queue, append([]byte(nil), next...))
			}
			return true
		})
	}
	def, err := System(Config{Variant: Default, N: 3, M: 2, R: 1})
	if err != nil {
		t.Fatal(err)
	}
	dres, err := explore.Check(context.Background(), def, explore.Options{Properties: invariants.Applicable(AllProperties(Config{Variant: Default, N: 3, M: 2, R: 1}), def.Info())})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 13965 || int64(len(inner)) != dres.States || dres.States != 11389 || dres.Verdict != explore.OK {
		t.Fatalf("%d wrapped states projecting onto %d; the default has %d (%s); want 13965 onto 11389", len(seen), len(inner), dres.States, dres.Verdict)
	}
}
