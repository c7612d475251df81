package live_test

import (
	"context"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/cmd/internal/live"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// A run whose guard refuses some processes' requests for good (torus
// --requesters: only P0 and P2 of the 2x2 torus may request) ends, as
// completed, once the requesters are served, although the token keeps
// circulating: the processes the guard refuses are counted in Refused. It
// ends well before its deadline; its log is a behaviour of the model, with
// exactly the requesters' requests, each served.
func TestRunEndsWhenNoRequestIsPossible(t *testing.T) {
	params := map[string]int{"n": 4, "r": 2, "requesters": 5}
	sys := build(t, "torus", params)
	const deadline = 10 * time.Second
	h, events, st, err := live.Run(context.Background(), live.Config{Algorithm: "torus", Params: params, System: sys, Duration: deadline, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Completed || st.Refused != 2 || st.Elapsed > deadline/2 {
		t.Fatalf("stats %+v; want completed with 2 processes refused, well before %v", st, deadline)
	}
	requests := map[int]int{}
	for _, e := range events {
		if e.Kind == eventlog.KindRequest {
			requests[e.P]++
		}
	}
	if len(requests) != 2 || requests[0] != 2 || requests[2] != 2 || st.Entries != 4 || st.Exits != 4 {
		t.Errorf("requests by process %v, %d entries, %d exits; want 2 each by P0 and P2, all served", requests, st.Entries, st.Exits)
	}
	if res := eventlog.Validate(sys, &eventlog.Log{Header: h, Events: events, VCGiven: true}); !res.OK {
		t.Fatalf("%s: %s", res.Failed, res.Reason)
	}
}

// A guard that refuses requests only for a while does not end the run:
// Banerjee-Chrysanthis's cyclic clients (a backlog bound on requests, R
// unbounded) run to the deadline, with more requests than processes.
func TestRunGoesOnWhileRequestsArePossible(t *testing.T) {
	params := map[string]int{"n": 3, "cyclic": 1, "backlog": 0}
	sys := build(t, "banerjee", params)
	_, _, st, err := live.Run(context.Background(), live.Config{Algorithm: "banerjee", Params: params, System: sys, Duration: 300 * time.Millisecond, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if st.Completed || st.Refused != 0 || st.Requests <= 3 {
		t.Fatalf("stats %+v; want a run to the deadline with many requests", st)
	}
}
