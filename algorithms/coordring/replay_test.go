package coordring_test

import (
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/coordring"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/traces"
)

// The shipped lassos replay with the properties the CLI uses (traces.Replay
// checks that the cycle returns to its start, that the process waits
// throughout and that the cycle is weakly fair). They are fair in the raw
// model too: some state of the cycle has an empty network, so no message
// stays in transit through the cycle, whatever renumbering does to its
// bytes (package doc, "Cyclic clients").
func TestLIFOTracesReplay(t *testing.T) {
	for _, c := range []struct {
		file                    string
		n, waiting, loop, steps int
	}{
		{"testdata/lifo-n2-cyclic.starvation-freedom.trace.json", 2, 0, 13, 17},
		{"testdata/lifo-n3-cyclic.P1.starvation-freedom.trace.json", 3, 1, 9, 20},
	} {
		tr, err := traces.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Algorithm != coordring.LIFO || tr.Params["n"] != c.n || tr.Params["cyclic"] != 1 || !tr.IsLasso() {
			t.Fatalf("%s: trace of %s %v, lasso %v", c.file, tr.Algorithm, tr.Params, tr.IsLasso())
		}
		if *tr.Loop != c.loop || len(tr.Steps) != c.steps || *tr.WaitingProcess != c.waiting {
			t.Errorf("%s: cycle %d..%d with P%d waiting; want %d..%d with P%d", c.file, *tr.Loop, len(tr.Steps), *tr.WaitingProcess, c.loop, c.steps, c.waiting)
		}
		empty := false
		for _, s := range tr.Steps[*tr.Loop-1:] {
			empty = empty || len(s.State.Network) == 0
		}
		if !empty {
			t.Errorf("%s: no state of the cycle has an empty network", c.file)
		}
		a, v, err := algorithms.Lookup(tr.Algorithm)
		if err != nil {
			t.Fatal(err)
		}
		sys, extra, err := a.BuildSim(v.Name, tr.Params)
		if err != nil {
			t.Fatal(err)
		}
		res, err := traces.Replay(sys, invariants.With(extra...), tr)
		if err != nil {
			t.Fatal(err)
		}
		if !res.OK {
			t.Errorf("%s: replay: %s", c.file, res.Reason)
		}
	}
}
