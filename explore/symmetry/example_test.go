package symmetry_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/naimitrehel"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/explore/symmetry"
	"github.com/tokenmc/tokenmc/invariants"
)

// Reduce Naimi-Trehel with four processes by all 24 permutations of the
// ids, find the send-in-cs mutant's mutual-exclusion violation in the
// quotient, and turn it into a concrete counterexample.
func Example() {
	p, _ := naimitrehel.New(naimitrehel.Default, 4, 1)
	sym, _ := naimitrehel.Symmetry(naimitrehel.Default, 4, 1)
	opts := explore.Options{Properties: invariants.Standard()[:1], Workers: 1} // mutex
	full, _ := explore.Check(context.Background(), p.System(), opts)
	quotient, _ := symmetry.Reduce(p.System(), sym, opts.Properties, nil)
	red, _ := explore.Check(context.Background(), quotient, opts)
	fmt.Printf("%s: %d states, %d orbits under %s (%d)\n", full.Verdict, full.States, red.States, sym.Name, sym.Order())

	m, _ := naimitrehel.New(naimitrehel.SendInCS, 4, 1)
	msym, _ := naimitrehel.Symmetry(naimitrehel.SendInCS, 4, 1)
	mq, _ := symmetry.Reduce(m.System(), msym, opts.Properties, nil)
	res, _ := explore.Check(context.Background(), mq, opts)
	path, _, err := symmetry.ConcretizeSteps(m.System(), msym, res.Violation.Path, nil)
	fmt.Println(res.Verdict, res.Violation.Property.Name, "after", len(path)-1, "steps; concrete:", err == nil)
	// Output:
	// ok: 1476 states, 210 orbits under all permutations (24)
	// violation mutex after 4 steps; concrete: true
}
