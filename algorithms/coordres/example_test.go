package coordres_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/coordres"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// The per-resource coordinator with two resources passes its per-resource
// mutex and single-token; granting on an empty queue creates a second token.
func Example() {
	for _, v := range []string{coordres.Default, coordres.GrantAnyFree} {
		p, _ := coordres.New(v, 3, 2, 1)
		sys := p.System()
		props := invariants.Applicable(invariants.With(coordres.Properties()...), sys.Info())
		res, _ := explore.Check(context.Background(), sys, explore.Options{Workers: 1, Properties: props})
		if res.Violation != nil {
			fmt.Printf("%s: %s violated after %d steps\n", v, res.Violation.Property.Name, res.Violation.Len())
			continue
		}
		fmt.Printf("%s: %s, %d states\n", v, res.Verdict, res.States)
	}
	// Output:
	// coord-res: ok, 629 states
	// coord-res/grant-any-free: single-token violated after 3 steps
}

// Check starvation-freedom with cyclic clients on one resource: aging
// keeps every request moving; without it P1 waits forever behind P2.
func ExampleNewCyclic() {
	for _, v := range []string{coordres.Default, coordres.NoAging} {
		p, _ := coordres.NewCyclic(v, 3, 1)
		res, _ := explore.CheckLiveness(context.Background(), p.System(), explore.LivenessOptions{Starvation: true})
		fmt.Printf("%s: %s, %d states\n", v, res.Verdict, res.States)
		for _, l := range res.Starving {
			fmt.Printf("  P%d starves: prefix %d, cycle %d\n", l.Process, l.Loop, l.CycleLen())
		}
	}
	// Output:
	// coord-res: ok, 119 states
	// coord-res/no-aging: violation, 98 states
	//   P0 starves: prefix 3, cycle 5
	//   P1 starves: prefix 4, cycle 5
}
