package coordring_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/coordring"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// Check the coordinator ring with three processes, then show that the
// grant-if-queue-empty mutant creates a second token.
func Example() {
	for _, v := range []string{coordring.Default, coordring.GrantIfQueueEmpty} {
		p, _ := coordring.New(v, 3, 1)
		sys := p.System()
		props := invariants.Applicable(invariants.With(coordring.Properties()...), sys.Info())
		res, _ := explore.Check(context.Background(), sys, explore.Options{Workers: 1, Properties: props})
		if res.Violation != nil {
			fmt.Printf("%s: %s violated after %d steps\n", v, res.Violation.Property.Name, res.Violation.Len())
			continue
		}
		fmt.Printf("%s: %s, %d states\n", v, res.Verdict, res.States)
	}
	// Output:
	// coord-ring: ok, 263 states
	// coord-ring/grant-if-queue-empty: single-token violated after 4 steps
}

// Check starvation-freedom with cyclic clients: the default serves the
// smallest stamp and nobody waits forever; the lifo mutant serves the
// newest stamp and starves the coordinator P0 behind P1.
func ExampleNewCyclic() {
	for _, v := range []string{coordring.Default, coordring.LIFO} {
		p, _ := coordring.NewCyclic(v, 2)
		res, _ := explore.CheckLiveness(context.Background(), p.System(), explore.LivenessOptions{Starvation: true})
		fmt.Printf("%s: %s, %d states\n", v, res.Verdict, res.States)
		for _, l := range res.Starving {
			fmt.Printf("  P%d starves: prefix %d, cycle %d\n", l.Process, l.Loop, l.CycleLen())
		}
	}
	// Output:
	// coord-ring: ok, 32 states
	// coord-ring/lifo: violation, 36 states
	//   P0 starves: prefix 12, cycle 5
}
