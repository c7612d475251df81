package banerjee

import (
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
)

// A4 alone (algorithms.md §6.8): with the round test of handler 5 removed
// and nothing else changed, a stale NEW-ARBITER delivered after a newer
// one makes its addressee collect again after its term, beside the real
// arbiter: single-arbiter fails after 10 steps at N = 2 and N = 3 (R = 1),
// P1 collecting again while P0, which P1 named, collects. The default,
// which differs only in that test, keeps one arbiter on every reachable
// state of the same configurations (and of N = 2, R = 2): the rounds are
// what repairs A4. Both readings deadlock after the same number of steps
// at N = 3, since A6's dropped request comes first.
func TestLiteralA4(t *testing.T) {
	for _, o := range []Options{{N: 2, R: 1}, {N: 3, R: 1}, {N: 2, R: 2}} {
		def, err := System(Default, o)
		if err != nil {
			t.Fatal(err)
		}
		if res := check(t, def, []model.Property{SingleArbiter}); res.Verdict != explore.OK {
			t.Errorf("banerjee %+v: single-arbiter %s, want ok", o, res.Verdict)
		}
		if o.R > 1 {
			continue
		}
		lit, err := System(LiteralA4, o)
		if err != nil {
			t.Fatal(err)
		}
		res := check(t, lit, []model.Property{SingleArbiter})
		if res.Violation == nil || len(res.Violation.Path)-1 != 10 {
			t.Errorf("literal-a4 %+v: single-arbiter %s, want a violation after 10 steps", o, res.Verdict)
		}
	}
	o := Options{N: 3, R: 1}
	sys, err := System(LiteralA4, o)
	if err != nil {
		t.Fatal(err)
	}
	tr := algotest.ReplayShipped(t, sys, Properties(LiteralA4), "testdata/literal-a4-n3.single-arbiter.trace.json", NameSingleArbiter, 10)
	if last := tr.Steps[len(tr.Steps)-1].Action; last != "Deliver NEW-ARBITER(->P1, a=P1, Q=[1], round=1)" {
		t.Errorf("the trace ends with %q, want the stale round-1 NEW-ARBITER reaching P1", last)
	}
	def, err := System(Default, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		sys  model.System
	}{{Default, def}, {LiteralA4, sys}} {
		name := c.name
		res := check(t, c.sys, props(t, c.sys, name, "no-deadlock"))
		if res.Violation == nil || len(res.Violation.Path)-1 != 12 {
			t.Errorf("%s: no-deadlock %s, want a violation after 12 steps", name, res.Verdict)
		}
	}
}
