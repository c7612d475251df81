package explore_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// Check Suzuki-Kasami with three processes, then find the shortest
// counterexample of a mutant that hands the token away from inside its CS.
func Example() {
	for _, name := range []string{"suzuki-kasami", "suzuki-kasami/send-in-cs"} {
		alg, v, _ := algorithms.Lookup(name)
		sys, _, _ := alg.Build(v.Name, map[string]int{"n": 3, "r": 1})
		res, err := explore.Check(context.Background(), sys, explore.Options{
			Properties: invariants.Applicable(invariants.Standard(), sys.Info()),
		})
		if err != nil {
			panic(err)
		}
		fmt.Println(name, res.Verdict, res.States, "states")
		if res.Violation != nil {
			fmt.Println("  violates", res.Violation.Property.Name, "in", res.Violation.Len(), "steps")
		}
	}
	// Output:
	// suzuki-kasami ok 726 states
	// suzuki-kasami/send-in-cs violation 65 states
	//   violates mutex in 4 steps
}
