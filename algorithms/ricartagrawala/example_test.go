package ricartagrawala_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/ricartagrawala"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// Check Ricart-Agrawala with three processes, one request each, against every
// generic property.
func Example() {
	p, _ := ricartagrawala.New(ricartagrawala.Default, 3, 1)
	sys := p.System()
	res, _ := explore.Check(context.Background(), sys, explore.Options{
		Properties: invariants.Applicable(invariants.Standard(), sys.Info()),
	})
	fmt.Println(res.Verdict, res.States, "states", res.Transitions, "transitions")
	// Output:
	// ok 2858 states 9050 transitions
}
