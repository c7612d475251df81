package explore_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
)

// The hand-made two-process algorithm of the tests whose token always
// returns to P0 first: P1 sees the token every other step but may never
// use it. CheckLiveness reports P1's lasso; with fair hand-off nobody
// starves.
func ExampleCheckLiveness() {
	for _, starving := range []bool{true, false} {
		sys := handoff(1, starving)
		res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{
			Starvation: true,
			Fairness:   model.WeakFairness,
		})
		if err != nil {
			panic(err)
		}
		fmt.Println(sys.Info().Name, res.Verdict, res.States, "states")
		for _, l := range res.Starving {
			fmt.Printf("  P%d starves: prefix %d steps, cycle %d steps\n", l.Process, l.Loop, l.CycleLen())
		}
	}
	// Output:
	// handoff/starving violation 14 states
	//   P1 starves: prefix 1 steps, cycle 2 steps
	// handoff/fair ok 24 states
}
