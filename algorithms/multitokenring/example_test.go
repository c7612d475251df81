package multitokenring_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/multitokenring"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// The repaired ring passes at four processes and one resource; the literal
// reading (forwarders rewrite the sequence number) deadlocks.
func Example() {
	for _, v := range []string{multitokenring.Default, multitokenring.Literal} {
		p, _ := multitokenring.New(v, 4, 1, 1)
		sys := p.System()
		props := invariants.Applicable(invariants.With(multitokenring.Properties()...), sys.Info())
		res, _ := explore.Check(context.Background(), sys, explore.Options{Workers: 1, Properties: props})
		if res.Violation != nil {
			fmt.Printf("%s: %s violated after %d steps\n", v, res.Violation.Property.Name, res.Violation.Len())
			continue
		}
		fmt.Printf("%s: %s, %d states\n", v, res.Verdict, res.States)
	}
	// Output:
	// multi-token-ring: ok, 7802 states
	// multi-token-ring/literal: no-deadlock violated after 11 steps
}
