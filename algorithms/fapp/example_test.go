package fapp_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/fapp"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// FAPP on a line of three processes passes; the literal reading, whose idle
// root never hands the token over, deadlocks.
func Example() {
	for _, v := range []string{fapp.Default, fapp.Literal} {
		p, _ := fapp.New(v, 3, fapp.Line, 1)
		sys := p.System()
		props, _ := invariants.Select(invariants.With(fapp.Properties()...), sys.Info(), "mutex,single-token,no-deadlock")
		res, _ := explore.Check(context.Background(), sys, explore.Options{Workers: 1, Properties: props})
		if res.Violation != nil {
			fmt.Printf("%s: %s violated after %d steps\n", v, res.Violation.Property.Name, res.Violation.Len())
			continue
		}
		fmt.Printf("%s: %s, %d states\n", v, res.Verdict, res.States)
	}
	// Output:
	// fapp: ok, 498 states
	// fapp/literal: no-deadlock violated after 6 steps
}

// Without rule 1 (aging) the cyclic model at n = 2 is finite, and P0,
// whose priority 0 is below P1's, starves.
func ExampleNewCyclic() {
	p, _ := fapp.NewCyclic(fapp.NoAging, 2, fapp.Line)
	res, _ := explore.CheckLiveness(context.Background(), p.System(), explore.LivenessOptions{Starvation: true})
	fmt.Printf("%s: %s, %d states\n", fapp.NoAging, res.Verdict, res.States)
	for _, l := range res.Starving {
		fmt.Printf("  P%d starves: prefix %d, cycle %d\n", l.Process, l.Loop, l.CycleLen())
	}
	// Output:
	// fapp/no-aging: violation, 16 states
	//   P0 starves: prefix 3, cycle 6
}
