package traces_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/traces"
)

// A trace is built from a path of encoded states, here four steps of
// tiny/eager (tiny_test.go), which hands its token over while in its
// critical section, and rendered for people.
func ExampleRender() {
	sys := tinyProtocol("tiny/eager", 1, 0).System()
	path := walk(sys, "Request(P0)", "Request(P1)", "Deliver REQ(P1->P0)", "Deliver TOKEN(P0->P1)")
	meta := traces.Meta{
		Algorithm:    "tiny/eager",
		Params:       map[string]int{"n": 2, "r": 1},
		Property:     invariants.Mutex.Name,
		PropertyKind: invariants.Mutex.Kind,
	}
	tr, err := traces.FromPath(sys.NewWorker(), meta, path)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := traces.Render(os.Stdout, tr); err != nil {
		fmt.Println(err)
	}
	// Output:
	// trace of tiny/eager (n=2, r=1)
	// violates mutex (invariant) after 4 steps
	//
	// initial state:
	//   P0  Idle     made 0  token  has=true pending=false
	//   P1  Idle     made 0         has=false pending=false
	//   in transit: nothing
	//
	// step 1: Request(P0)
	//   P0: Idle -> InCS, made 0 -> 1
	//   now: token at P0; InCS: P0; Waiting: none; in transit: nothing
	//
	// step 2: Request(P1)
	//   P1: Idle -> Waiting, made 0 -> 1
	//   sends: REQ(P1->P0)
	//   now: token at P0; InCS: P0; Waiting: P1; in transit: 1 (+1 sent)
	//
	// step 3: Deliver REQ(P1->P0)
	//   P0: has true -> false
	//   token: at P0 -> in transit to P1
	//   sends: TOKEN(P0->P1)
	//   now: token in transit to P1; InCS: P0; Waiting: P1; in transit: 1 (+1 sent, -1 delivered)
	//
	// step 4: Deliver TOKEN(P0->P1)
	//   P1: Waiting -> InCS, has false -> true
	//   token: in transit to P1 -> at P1
	//   now: token at P1; InCS: P0, P1; Waiting: none; in transit: nothing (-1 delivered)
	//
	// in transit at the end: nothing
	//
	// mutex is violated: P0 and P1 are both InCS
}

// Replay re-runs a trace against the system and checks that it still ends
// in a violation; an edited trace diverges at the step that was changed.
func ExampleReplay() {
	sys := tinyProtocol("tiny/eager", 1, 0).System()
	path := walk(sys, "Request(P0)", "Request(P1)", "Deliver REQ(P1->P0)", "Deliver TOKEN(P0->P1)")
	meta := traces.Meta{Algorithm: "tiny/eager", Property: "mutex", PropertyKind: invariants.Mutex.Kind}
	tr, err := traces.FromPath(sys.NewWorker(), meta, path)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := traces.Replay(sys, invariants.Standard(), tr)
	fmt.Println(res.OK, res, err)

	tr.Steps[1].Action = "Request(P0)"
	res, err = traces.Replay(sys, invariants.Standard(), tr)
	fmt.Println(res.OK, res.DivergedAt, err)
	fmt.Println(res.Reason)
	// Output:
	// true the trace replays: after step 4, mutex is violated: P0 and P1 are both InCS <nil>
	// false 2 <nil>
	// diverged at step 2: action "Request(P0)" is not enabled; enabled: Exit(P0), Request(P1)
}

// Read checks a trace file strictly and says where and what is wrong.
func ExampleRead() {
	_, err := traces.Read(strings.NewReader(`{
  "format": "tokenmc-trace",
  "version": 2
}`))
	fmt.Println(err)
	// Output:
	// trace:3:14: version: version 2 is not supported; this tokenmc reads tokenmc-trace version 1
}
