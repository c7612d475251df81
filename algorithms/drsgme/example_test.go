package drsgme_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/drsgme"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// Check the repaired DRS_GME with three processes and two groups, without
// timers or faults, and the literal Appendix A, whose first hand-over
// leaves no valid token (item D1).
func Example() {
	for _, variant := range []string{drsgme.Default, drsgme.Literal} {
		cfg := drsgme.Config{Variant: variant, N: 3, M: 2, R: 1}
		sys, err := drsgme.System(cfg)
		if err != nil {
			fmt.Println(err)
			return
		}
		props := invariants.Applicable(drsgme.AllProperties(cfg), sys.Info())
		res, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: 1})
		if err != nil {
			fmt.Println(err)
			return
		}
		if res.Violation != nil {
			fmt.Printf("%s: %s of %s after %d steps\n", variant, res.Verdict, res.Violation.Property.Name, len(res.Violation.Path)-1)
			continue
		}
		fmt.Printf("%s: %s, %d states, %d transitions\n", variant, res.Verdict, res.States, res.Transitions)
	}
	// Output:
	// drs-gme: ok, 11389 states, 29548 transitions
	// drs-gme/literal: violation of single-token after 2 steps
}
