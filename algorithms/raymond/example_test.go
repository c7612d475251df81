package raymond_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/raymond"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// Check Raymond's algorithm on a line of three nodes rooted at P0, one
// request each, against every generic property.
func Example() {
	p, _ := raymond.New(raymond.Default, 3, 1, raymond.Line)
	sys := p.System()
	res, _ := explore.Check(context.Background(), sys, explore.Options{
		Properties: invariants.Applicable(invariants.Standard(), sys.Info()),
	})
	fmt.Println(res.Verdict, res.States, "states", res.Transitions, "transitions")
	// Output:
	// ok 158 states 287 transitions
}
