package proptest_test

import (
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/explore/proptest"
	"github.com/tokenmc/tokenmc/invariants"
)

// In a test, proptest.Check(t, sys, props, proptest.Options{}) is the one
// call; Find, used here so the example can print, runs the same rapid
// checks and returns the minimal failing schedule. The mutant's holder
// sends the token while in its CS; rapid shrinks the schedule to the
// four-step story: P0 enters, P1 requests, P0 sends the token, P1 enters.
func Example() {
	p, _ := suzukikasami.New(suzukikasami.SendInCS, 3, 1)
	sys := p.System()
	props := invariants.Applicable(invariants.With(suzukikasami.Properties()...), sys.Info())
	f, err := proptest.Find(sys, props, proptest.Options{Params: map[string]int{"n": 3, "r": 1}})
	if err != nil || f == nil {
		fmt.Println("no failure", err)
		return
	}
	fmt.Println("violated:", f.Property)
	for _, s := range f.Trace.Steps {
		fmt.Println(s.Action)
	}
	// Output:
	// violated: mutex
	// Request(P0)
	// Request(P1)
	// Deliver REQ(P1->P0, sn=1)
	// Deliver TOKEN(->P1, LN=[0,0,0], Q=[])
}
