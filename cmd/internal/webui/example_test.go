package webui_test

import (
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/cmd/internal/webui"
	"github.com/tokenmc/tokenmc/traces"
)

// TracePath finds where a trace file's steps go in the explorer: the
// initial state's number and, per step, the index of the enabled action
// with the step's label. The explorer's URL holds the same position
// (#i=0&p=0.3.3...).
func ExampleTracePath() {
	tr, err := traces.ReadFile("../../../algorithms/torus/testdata/literal-d2-r1.starvation-freedom.P1.trace.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	a, v, _ := algorithms.Lookup(tr.Algorithm)
	sys, _, err := a.BuildSim(v.Name, tr.Params)
	if err != nil {
		fmt.Println(err)
		return
	}
	init, path, err := webui.TracePath(sys, tr)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tr.Algorithm, "initial state", init, "path", path)
	fmt.Println("step 1 is", tr.Steps[0].Action, "and the cycle starts at step", *tr.Loop)
	// Output:
	// torus/literal initial state 0 path [0 3 3 3 3 0 2 2 0 2 2 2 2]
	// step 1 is Request(P0) and the cycle starts at step 10
}
