package lelann_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// Check Le Lann's ring with three processes, one request each, against
// every generic property.
func Example() {
	p, _ := lelann.New(lelann.Default, 3, 1)
	sys := p.System()
	res, _ := explore.Check(context.Background(), sys, explore.Options{
		Properties: invariants.Applicable(invariants.Standard(), sys.Info()),
	})
	fmt.Println(res.Verdict, res.States, "states", res.Transitions, "transitions")
	// Output:
	// ok 108 states 207 transitions
}
