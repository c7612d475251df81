package chart_test

import (
	"fmt"
	"os"

	"github.com/tokenmc/tokenmc/cmd/internal/chart"
	"github.com/tokenmc/tokenmc/traces"
)

// The text chart of the shortest mutex counterexample of
// suzuki-kasami/send-in-cs: the token (T) leaves P0 while P0 is in its CS
// (#), and P1 enters: step 4 (X) violates mutex.
func ExampleText() {
	tr, err := traces.ReadFile("testdata/suzuki-kasami_send-in-cs.mutex.trace.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = chart.Text(os.Stdout, chart.FromTrace(tr))
	// Output:
	// suzuki-kasami/send-in-cs (n=2, r=1)
	// violates mutex (invariant) after 4 steps
	//
	//  step  P0  P1   action
	//     1  T   |    Request(P0); Idle -> InCS
	//     2  #   *    Request(P1); sends REQ(P1->P0, sn=1); Idle -> Waiting
	//     3  *   |    Deliver REQ(P1->P0, sn=1) (sent at step 2); sends TOKEN(->P1, LN=[0,0], Q=[])
	//     4  #   X    Deliver TOKEN(->P1, LN=[0,0], Q=[]) (sent at step 3); Waiting -> InCS
	//
	// step 4 violates mutex
	// legend: * acting process, T acting and holding the token after the step, # in its CS, X the violating step, > start of a cycle
}
