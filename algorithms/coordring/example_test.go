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
