package banerjee_test

import (
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"
)

// §6 recovery does not survive a lost NEW-ARBITER (package doc, "Findings"):
// P1 never learns who the arbiter is, sends its REQUEST to the old one, which
// drops it, and retransmits on every timeout, forever. Found by
// `tokenmc check --algo banerjee-rec --props starvation-freedom` (N=3, F=1,
// 5,570,890 states before the HAD-first reading of the ENQUIRY replies,
// 5,582,608 since: the same lasso); the shipped lasso must keep replaying.
func TestRecoveryStarvesAfterLostNewArbiter(t *testing.T) {
	a, v, err := algorithms.Lookup("banerjee-rec")
	if err != nil {
		t.Fatal(err)
	}
	sys, extra, err := a.Build(v.Name, map[string]int{"n": 3, "r": 1, "faults": 1})
	if err != nil {
		t.Fatal(err)
	}
	algotest.ReplayShipped(t, sys, extra, "testdata/rec-n3-f1-lost-new-arbiter.starvation-freedom.trace.json", "starvation-freedom", 11)
}
