package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces"
)

// --channel-capacity K (design notes §10.2). The counts are those of
// model/protocol's TestCapacityMatchesFilteredGraph, which builds the
// bounded graph independently (the unbounded graph with the successors
// over the bound removed).
func TestCheckChannelCapacity(t *testing.T) {
	rep, r := check(t, exitOK, "--algo", "raymond", "--n", "3", "--r", "2", "--channel-capacity", "1")
	if rep.States != 726 || rep.Transitions != 1378 || rep.ChannelCapacity != 1 || rep.CapacityBlocked == nil || *rep.CapacityBlocked != 33 {
		t.Fatalf("raymond n=3 r=2 capacity 1: %d states, %d transitions, capacity %d, blocked %v; want 726, 1378, 1, 33\n%s",
			rep.States, rep.Transitions, rep.ChannelCapacity, rep.CapacityBlocked, r.stdout)
	}
	// Without the flag nothing changes: the unbounded counts, no new fields.
	rep, r = check(t, exitOK, "--algo", "raymond", "--n", "3", "--r", "2")
	if rep.States != 1012 || rep.Transitions != 2071 || strings.Contains(r.stdout, "capacity") {
		t.Fatalf("raymond n=3 r=2: %d states, %d transitions; want 1012, 2071 and no capacity field\n%s", rep.States, rep.Transitions, r.stdout)
	}
	// The text summary says the search is an under-approximation.
	r = runCLI(t, "check", "--algo", "raymond", "--n", "3", "--r", "2", "--channel-capacity", "1", "--progress", "0")
	r.wantCode(t, exitOK)
	for _, want := range []string{"33 capacity-blocked states (not deadlocks)", "under-approximation"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestCheckChannelCapacityRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		word string
	}{
		{[]string{"--algo", "raymond", "--channel-capacity", "-1"}, "negative"},
		// suzuki-kasami's TOKEN does not record its sender
		{[]string{"--algo", "suzuki-kasami", "--channel-capacity", "1"}, "does not support a channel capacity"},
		{[]string{"--algo", "fapp", "--cyclic", "1", "--props", "starvation-freedom", "--channel-capacity", "1"}, "cannot be combined with starvation-freedom"},
		// the quotient would not tell capacity-blocked states from deadlocks
		{[]string{"--algo", "raymond", "--n", "3", "--r", "2", "--symmetry", "--channel-capacity", "1"}, "cannot be combined with --symmetry"},
	} {
		r := runCLI(t, append([]string{"check"}, c.args...)...)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, c.word)
	}
}

// A trace found under a capacity records it, and replay rebuilds the same
// bounded system.
func TestChannelCapacityTraceReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kh.json")
	rep, _ := check(t, exitViolation, "--algo", "raymond/keep-holder", "--n", "3", "--r", "1", "--channel-capacity", "1", "--trace-out", path)
	if rep.Violation == nil || rep.Violation.TraceFile != path {
		t.Fatalf("violation %+v, want its trace in %s", rep.Violation, path)
	}
	tr, err := traces.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Options["channel-capacity"] != "1" {
		t.Fatalf("trace options %v, want channel-capacity 1", tr.Options)
	}
	if rr := replay(t, exitOK, path); !rr.Reproduced {
		t.Fatalf("replay: %+v", rr)
	}
	bad := editTrace(t, path, func(tr *traces.Trace) { tr.Options["channel-capacity"] = "x" })
	r := runCLI(t, "replay", bad)
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "channel-capacity")
}
