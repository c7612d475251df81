package live_test

import (
	"context"
	"fmt"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/cmd/internal/live"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// Run Suzuki-Kasami as three goroutines, then check the log against the
// model it ran. The interleaving differs from run to run; the verdict
// does not.
func Example() {
	a, v, _ := algorithms.Lookup("suzuki-kasami")
	params := map[string]int{"n": 3, "r": 2}
	sys, _, _ := a.Build(v.Name, params)
	h, events, st, err := live.Run(context.Background(), live.Config{
		Algorithm: v.Name, Params: params, System: sys, Transport: live.Chan, Duration: 2 * time.Second, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	res := eventlog.Validate(sys, &eventlog.Log{Header: h, Events: events})
	fmt.Println("served:", st.Completed, st.Entries)
	fmt.Println("behaviour of the model:", res.OK)
	// Output:
	// served: true 6
	// behaviour of the model: true
}
