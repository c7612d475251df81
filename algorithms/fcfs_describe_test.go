package algorithms_test

import (
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore/modeltest"
)

// drs-gme/fcfs keeps its request-order history (Proc.Ahead) in the state;
// Describe must show it, or two states that differ only in the order of
// two requests render alike and a trace hides what the fcfs property
// depends on (the conformance kit's injectivity check fails on n=3,
// groups=2 when the field is hidden; TestPropEncodingCanonical found it
// at random).
func TestFCFSDescribesItsHistory(t *testing.T) {
	a, v, _ := algorithms.Lookup("drs-gme/fcfs")
	sys, _, err := a.Build(v.Name, map[string]int{"n": 3, "r": 1, "groups": 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := modeltest.Verify(sys, modeltest.Options{MaxStates: 200000}); err != nil {
		t.Fatal(err)
	}
}
