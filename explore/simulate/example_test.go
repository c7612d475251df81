package simulate_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// Random walks over a broken Suzuki-Kasami at N=8 (the holder sends the
// token on a REQ even while in its CS) find the mutex violation; shrinking
// leaves a six-step story in which no step can be dropped: P4 gets the
// token and enters, then hands it to P1 from inside its CS. (BFS's
// shortest has four steps, with P0, the initial holder, in P4's role.)
func Example() {
	p, _ := suzukikasami.New(suzukikasami.SendInCS, 8, 1)
	sys := p.System()
	props := invariants.Applicable(invariants.With(suzukikasami.Properties()...), sys.Info())
	res, _ := simulate.Run(context.Background(), sys, simulate.Options{Properties: props, Runs: 100, Seed: 1})
	v := res.Violation
	fmt.Printf("%s violated; shrunk to %d steps\n", v.Property.Name, v.Len())
	w := sys.NewWorker()
	for k := 0; k+1 < len(v.Path); k++ {
		w.Successors(v.Path[k], func(t *model.Transition, next []byte) bool {
			if string(next) != string(v.Path[k+1]) {
				return true
			}
			fmt.Println(w.Label(v.Path[k], t))
			return false
		})
	}
	// Output:
	// mutex violated; shrunk to 6 steps
	// Request(P4)
	// Request(P1)
	// Deliver REQ(P4->P0, sn=1)
	// Deliver TOKEN(->P4, LN=[0,0,0,0,0,0,0,0], Q=[])
	// Deliver REQ(P1->P4, sn=1)
	// Deliver TOKEN(->P1, LN=[0,0,0,0,0,0,0,0], Q=[])
}
