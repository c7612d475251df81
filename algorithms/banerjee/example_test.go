package banerjee_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/banerjee"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// Check the repaired reading at N = 3, R = 1: mutual exclusion holds on
// every reachable state, but a late request dropped by the previous arbiter
// (the paper's own §4 admission, algorithms.md A6) leaves a process waiting
// forever; breadth-first search finds the 12-step trace.
func Example() {
	sys, err := banerjee.System(banerjee.Default, banerjee.Options{N: 3, R: 1})
	if err != nil {
		panic(err)
	}
	all := invariants.With(banerjee.Properties(banerjee.Default)...)
	safety, _ := invariants.Select(all, sys.Info(), "mutex,single-token")
	res, _ := explore.Check(context.Background(), sys, explore.Options{Properties: safety, Workers: 1})
	fmt.Println(res.Verdict, res.States, "states")
	live, _ := invariants.Select(all, sys.Info(), "no-deadlock")
	res, _ = explore.Check(context.Background(), sys, explore.Options{Properties: live, Workers: 1})
	fmt.Println(res.Verdict, res.Violation.Property.Name, "after", res.Violation.Len(), "steps")
	// Output:
	// ok 11304 states
	// violation no-deadlock after 12 steps
}

// With cyclic clients (R = infinity, rounds renumbered by rank) the basic
// algorithm shows the paper's own §4 "indefinite forwarding" as a lasso:
// P1's single request is forwarded between two alternating arbiters, P0 and
// P2, forever. Each process has a weakly fair starvation lasso; P1's prefix
// is one step (its request), its cycle 17.
func Example_cyclic() {
	sys, err := banerjee.System(banerjee.Default, banerjee.Options{N: 3, Cyclic: true, Backlog: 0})
	if err != nil {
		panic(err)
	}
	res, _ := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true})
	fmt.Println(res.Verdict, "deadlock:", res.Deadlock != nil)
	for _, l := range res.Starving {
		fmt.Printf("P%d starves: prefix %d, cycle %d\n", l.Process, l.Loop, l.CycleLen())
	}
	// Output:
	// violation deadlock: false
	// P0 starves: prefix 7, cycle 17
	// P1 starves: prefix 1, cycle 17
	// P2 starves: prefix 1, cycle 17
}
