package traces

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

// handmade builds a valid one-step trace whose final state has the given
// processes (phase, group, token) and network; the initial state is all
// Idle with an empty network.
func handmade(prop, kind string, procs []model.ProcessDescription, network []model.MessageDescription) *Trace {
	initial := model.StateDescription{Network: []model.MessageDescription{}}
	for i := range procs {
		procs[i].ID = i
		initial.Processes = append(initial.Processes, model.ProcessDescription{ID: i, Phase: "Idle", Vars: json.RawMessage(`{}`)})
	}
	return &Trace{
		Format: traceFormat, Version: traceVersion, Algorithm: "handmade", Params: map[string]int{"n": len(procs)},
		Property: prop, PropertyKind: kind, Initial: initial,
		Steps: []Step{{Index: 1, Action: "Request(P0)", Kind: "Request", Process: 0,
			State: model.StateDescription{Processes: procs, Network: network}}},
	}
}

func proc(phase string, group int, token bool) model.ProcessDescription {
	return model.ProcessDescription{Phase: phase, Group: group, HoldsToken: token, Vars: json.RawMessage(`{}`)}
}

func TestViolation(t *testing.T) {
	tok := func(to, n int) model.MessageDescription {
		return model.MessageDescription{Message: "T", To: to, Count: n, Token: true}
	}
	tests := []struct {
		tr   *Trace
		want string
	}{
		{handmade("mutex", "invariant", []model.ProcessDescription{proc("InCS", 0, false), proc("InCS", 0, false), proc("InCS", 0, false)}, nil),
			"P0, P1 and P2 are all InCS"},
		{handmade("gme-safety", "invariant", []model.ProcessDescription{proc("InCS", 0, false), proc("Idle", 0, false), proc("InCS", 1, false)}, nil),
			"P0 (group 0) and P2 (group 1) are InCS together, in different groups"},
		{handmade("single-token", "invariant", []model.ProcessDescription{proc("Idle", 0, false), proc("Idle", 0, false)}, nil),
			"no token exists: no process holds one and none is in transit"},
		{handmade("single-token", "invariant", []model.ProcessDescription{proc("Idle", 0, true), proc("Idle", 0, false)}, []model.MessageDescription{tok(1, 2)}),
			"3 tokens exist: at P0, 2 in transit to P1"},
		{handmade("no-deadlock", "terminal", []model.ProcessDescription{proc("InCS", 0, false), proc("Waiting", 0, false)}, nil),
			"no action is enabled, yet P0 is InCS and P1 is Waiting"},
		{handmade("mine", "invariant", []model.ProcessDescription{proc("Idle", 0, false)}, nil),
			"the final state violates it"},
		{handmade("mine", "transition-invariant", []model.ProcessDescription{proc("Idle", 0, false)}, nil),
			"step 1 (Request(P0)) violates it"},
		{handmade("mine", "terminal", []model.ProcessDescription{proc("Idle", 0, false)}, nil),
			"no action is enabled in the final state, and it violates the property"},
		// A known property whose violation is not visible in the states
		// (e.g. a token the algorithm deems invalid) falls back too.
		{handmade("mutex", "invariant", []model.ProcessDescription{proc("InCS", 0, false)}, nil),
			"the final state violates it"},
	}
	for _, tc := range tests {
		if err := validate(tc.tr); err != nil {
			t.Fatal(err)
		}
		if got := violation(tc.tr); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.tr.Property, got, tc.want)
		}
	}
}

// TestRenderGroupsNoTokens: a system without tokens gets no token column
// or lines; one with groups gets a group column.
func TestRenderGroupsNoTokens(t *testing.T) {
	tr := handmade("gme-safety", "invariant", []model.ProcessDescription{proc("InCS", 0, false), proc("InCS", 1, false)},
		[]model.MessageDescription{{Message: "OK(P0->P1)", To: 1, Count: 2}})
	tr.Steps[0].State.Processes[0].Made = 1
	tr.Steps[0].State.Processes[1].Vars = json.RawMessage(`{"x":1}`)
	tr.Steps[0].Sent = []string{"OK(P0->P1)", "OK(P0->P1)"}
	var b strings.Builder
	if err := Render(&b, tr, RenderOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	const want = `trace of handmade (n=2)
violates gme-safety (invariant) after 1 step

initial state:
  P0  Idle     made 0  group 0
  P1  Idle     made 0  group 0
  in transit: nothing

step 1: Request(P0)
  P0: Idle -> InCS, made 0 -> 1
  P1: Idle -> InCS, group 0 -> 1, x (none) -> 1
  sends: OK(P0->P1) x2
  now: InCS: P0, P1; Waiting: none; in transit: OK(P0->P1) x2

gme-safety is violated: P0 (group 0) and P1 (group 1) are InCS together, in different groups
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	// without Full, the step gives the network as a difference and the
	// end lists it once
	b.Reset()
	if err := Render(&b, tr); err != nil {
		t.Fatal(err)
	}
	short := strings.Replace(want, "in transit: OK(P0->P1) x2\n", "in transit: 2 (+2 sent)\n\nin transit at the end: OK(P0->P1) x2\n", 1)
	if b.String() != short {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), short)
	}
}
