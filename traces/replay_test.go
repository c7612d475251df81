package traces_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// replay replays tr on f's system with the standard properties.
func replay(t *testing.T, f fixture, tr *traces.Trace) traces.Result {
	t.Helper()
	res, err := traces.Replay(f.system(), invariants.Standard(), tr)
	if err != nil {
		t.Fatalf("%s: Replay: %v", f.name, err)
	}
	return res
}

// TestReplayOK: every fixture replays, also after a trip through a file,
// and the verdict says why the property is violated.
func TestReplayOK(t *testing.T) {
	why := map[string]string{
		eagerMutex.name:        "after step 4, mutex is violated: P0 and P1 are both InCS",
		pushUnrequested.name:   "after step 3, no-unrequested-entry is violated: P1 entered its CS from Idle at step 3 (Deliver TOKEN(P0->P1)), without a pending request",
		forgetfulDeadlock.name: "after step 4, no-deadlock is violated: no action is enabled, yet P1 is Waiting",
		lostRequest.name:       "after step 4, no-deadlock is violated: no action is enabled, yet P1 is Waiting",
	}
	for _, f := range fixtures {
		tr := f.trace(t)
		var b bytes.Buffer
		if err := traces.Write(&b, tr); err != nil {
			t.Fatal(err)
		}
		read, err := traces.Read(&b)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range []*traces.Trace{tr, read} {
			res := replay(t, f, tr)
			want := traces.Result{OK: true, Steps: len(f.labels), Reason: "the trace replays: " + why[f.name]}
			if res != want {
				t.Errorf("%s:\n got %+v\nwant %+v", f.name, res, want)
			}
		}
	}
}

// TestReplayDiverges: an edited trace no longer replays, and the verdict
// names the step and what differs.
func TestReplayDiverges(t *testing.T) {
	tests := []struct {
		name string
		f    fixture
		edit func(tr *traces.Trace)
		want traces.Result
	}{
		{"action not enabled", eagerMutex,
			func(tr *traces.Trace) { tr.Steps[2].Action = "Deliver REQ(P0->P1)" },
			traces.Result{Steps: 2, DivergedAt: 3,
				Reason: `diverged at step 3: action "Deliver REQ(P0->P1)" is not enabled; enabled: Exit(P0), Deliver REQ(P1->P0)`}},
		{"nothing enabled", forgetfulDeadlock,
			func(tr *traces.Trace) {
				s := tr.Steps[3]
				s.Index = 5
				tr.Steps = append(tr.Steps, s)
			},
			traces.Result{Steps: 4, DivergedAt: 5,
				Reason: `diverged at step 5: action "Exit(P0)" is not enabled; no action is enabled`}},
		{"phase edited", eagerMutex,
			func(tr *traces.Trace) { tr.Steps[1].State.Processes[1].Phase = "InCS" },
			traces.Result{Steps: 1, DivergedAt: 2,
				Reason: "diverged at step 2: Request(P1) leads to another state than recorded: P1: phase InCS in the trace, Waiting in the replay"}},
		{"variable edited", eagerMutex,
			func(tr *traces.Trace) { tr.Steps[2].State.Processes[0].Vars = []byte(`{"has":true,"pending":false}`) },
			traces.Result{Steps: 2, DivergedAt: 3,
				Reason: "diverged at step 3: Deliver REQ(P1->P0) leads to another state than recorded: P0: has true in the trace, false in the replay"}},
		{"network edited", eagerMutex,
			func(tr *traces.Trace) { tr.Steps[1].State.Network[0].Message = "REQ(P1->P1)" },
			traces.Result{Steps: 1, DivergedAt: 2,
				Reason: "diverged at step 2: Request(P1) leads to another state than recorded: only the trace has in transit REQ(P1->P1); only the replay has in transit REQ(P1->P0)"}},
		{"sent edited", eagerMutex,
			func(tr *traces.Trace) { tr.Steps[1].Sent = nil },
			traces.Result{Steps: 1, DivergedAt: 2,
				Reason: "diverged at step 2: Request(P1) sends [REQ(P1->P0)], but the trace records []"}},
		{"process edited", eagerMutex,
			func(tr *traces.Trace) { tr.Steps[2].Process = 1 },
			traces.Result{Steps: 2, DivergedAt: 3,
				Reason: "diverged at step 3: Deliver REQ(P1->P0) is a Deliver by P0, but the trace records a Deliver by P1"}},
		{"initial state edited", eagerMutex,
			func(tr *traces.Trace) { tr.Initial.Processes[0].Made = 1 },
			traces.Result{Reason: "the trace's initial state is not an initial state of tiny/eager: P0: made 1 in the trace, 0 in the replay"}},
		{"truncated: invariant holds", eagerMutex,
			func(tr *traces.Trace) { tr.Steps = tr.Steps[:3] },
			traces.Result{Steps: 3, Reason: "all 3 steps replay, but the final state does not violate mutex"}},
		{"truncated: transition allowed", pushUnrequested,
			func(tr *traces.Trace) { tr.Steps = tr.Steps[:2] },
			traces.Result{Steps: 2, Reason: "all 2 steps replay, but the last step (Exit(P0)) does not violate no-unrequested-entry"}},
		{"truncated: not terminal", forgetfulDeadlock,
			func(tr *traces.Trace) { tr.Steps = tr.Steps[:3] },
			traces.Result{Steps: 3, Reason: "all 3 steps replay, but the final state is not terminal (Exit(P0) is enabled), so it cannot violate no-deadlock"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := tc.f.trace(t)
			tc.edit(tr)
			if res := replay(t, tc.f, tr); res != tc.want {
				t.Errorf("\n got %+v\nwant %+v", res, tc.want)
			}
		})
	}
}

// TestReplayTerminalHolds: a path to a terminal state where every process
// is Idle replays but does not violate no-deadlock.
func TestReplayTerminalHolds(t *testing.T) {
	f := forgetfulDeadlock
	f.labels = []string{"Request(P0)", "Exit(P0)", "Request(P1)", "Deliver REQ(P1->P0)", "Deliver TOKEN(P0->P1)", "Exit(P1)"}
	want := traces.Result{Steps: 6, Reason: "all 6 steps replay to a terminal state, but it does not violate no-deadlock"}
	if res := replay(t, f, f.trace(t)); res != want {
		t.Errorf("\n got %+v\nwant %+v", res, want)
	}
}

// TestReplayErrors: input that cannot be replayed at all is an error, not
// a verdict.
func TestReplayErrors(t *testing.T) {
	loop := 1
	tests := []struct {
		name  string
		sys   model.System
		props []model.Property
		edit  func(tr *traces.Trace)
		want  string
	}{
		{"other algorithm", tinyProtocol("tiny", 1, 0).System(), invariants.Standard(), nil,
			`traces: the trace is of algorithm "tiny/eager", but the system is "tiny"`},
		{"unknown property", eagerMutex.system(), []model.Property{invariants.NoDeadlock, invariants.SingleToken}, nil,
			`traces: the trace violates property "mutex", which is not among the properties given for tiny/eager (no-deadlock, single-token)`},
		{"wrong kind", eagerMutex.system(), invariants.Standard(),
			func(tr *traces.Trace) { tr.PropertyKind = "terminal" },
			`traces: the trace gives property "mutex" the kind terminal, but its kind is invariant`},
		{"loop on a safety trace", eagerMutex.system(), invariants.Standard(),
			func(tr *traces.Trace) { tr.Loop = &loop },
			`trace: loop: a trace of kind invariant has no loop; only liveness traces (lassos) do`},
		{"malformed", eagerMutex.system(), invariants.Standard(),
			func(tr *traces.Trace) { tr.Steps = nil },
			"trace: steps: the trace has no steps; want at least one step from the initial state"},
	}
	for _, tc := range tests {
		tr := eagerMutex.trace(t)
		if tc.edit != nil {
			tc.edit(tr)
		}
		_, err := traces.Replay(tc.sys, tc.props, tr)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

// TestReplayCorrectPath: a path of the correct algorithm replays step by
// step but violates nothing.
func TestReplayCorrectPath(t *testing.T) {
	res := replay(t, correct, correct.trace(t))
	if res.OK || res.Steps != len(correct.labels) || res.DivergedAt != 0 || !strings.Contains(res.Reason, "does not violate mutex") {
		t.Errorf("got %+v", res)
	}
}
