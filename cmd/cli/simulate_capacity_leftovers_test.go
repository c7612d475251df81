package cli

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// simCapacityJSON holds the members of simulate --json that
// --channel-capacity adds, and the counts they relate to.
type simCapacityJSON struct {
	Verdict         string `json:"verdict"`
	Runs            int    `json:"runs"`
	Terminal        int    `json:"terminal_runs"`
	ChannelCapacity *int   `json:"channel_capacity"`
	CapacityBlocked *int   `json:"capacity_blocked_runs"`
}

// simulate --channel-capacity K: cyclic fapp, whose network grows without
// bound, ends its walks in capacity-blocked states under K=1, which the
// summary and --json count and which are not deadlocks (no-deadlock is
// checked: verdict ok); without the flag nothing changes and the new
// members are absent.
func TestSimulateChannelCapacity(t *testing.T) {
	args := []string{"simulate", "--algo", "fapp", "--cyclic", "1", "--runs", "20", "--steps", "2000", "--progress", "0"}
	r := runCLI(t, append(args, "--channel-capacity", "1", "--json")...)
	r.wantCode(t, exitOK)
	var rep simCapacityJSON
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != "ok" || rep.ChannelCapacity == nil || *rep.ChannelCapacity != 1 || rep.CapacityBlocked == nil ||
		*rep.CapacityBlocked == 0 || *rep.CapacityBlocked+rep.Terminal > rep.Runs {
		t.Fatalf("capacity 1: %s", r.stdout)
	}
	r = runCLI(t, append(args, "--channel-capacity", "1")...)
	r.wantCode(t, exitOK)
	if !regexp.MustCompile(`channel capacity 1: under-approximation .*; \d+ runs ended capacity-blocked \(not deadlocks\)`).MatchString(r.stdout) {
		t.Fatalf("the summary does not say the capacity and the blocked runs:\n%s", r.stdout)
	}
	r = runCLI(t, append(args, "--json")...)
	r.wantCode(t, exitOK)
	if strings.Contains(r.stdout, "capacity") {
		t.Fatalf("without --channel-capacity the JSON has capacity members:\n%s", r.stdout)
	}
}

// The refusals are check's: a model whose messages do not name their
// sender, a negative bound.
func TestSimulateChannelCapacityRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algo", "suzuki-kasami", "--channel-capacity", "1"}, "suzuki-kasami does not support a channel capacity: its protocol does not say who sent a message"},
		{[]string{"--algo", "raymond", "--channel-capacity", "-1"}, "--channel-capacity -1 is negative"},
	} {
		r := runCLI(t, append([]string{"simulate", "--progress", "0"}, c.args...)...)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, c.want)
		check := runCLI(t, append([]string{"check", "--progress", "0"}, c.args...)...)
		if check.stderr != r.stderr {
			t.Errorf("simulate and check refuse differently:\n%s%s", r.stderr, check.stderr)
		}
	}
}

// A violation found under a capacity: its trace records the bound, every
// state of it has at most one message per channel, and replay rebuilds
// the bounded system and reproduces it.
func TestSimulateChannelCapacityTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kh.json")
	r := runCLI(t, "simulate", "--algo", "raymond/keep-holder", "--n", "3", "--r", "1", "--runs", "200",
		"--channel-capacity", "1", "--no-shrink", "--progress", "0", "--trace-out", path)
	r.wantCode(t, exitViolation)
	tr, err := traces.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Options["channel-capacity"] != "1" {
		t.Fatalf("trace options %v, want channel-capacity 1", tr.Options)
	}
	channel := regexp.MustCompile(`\(P(\d+)->P(\d+)`)
	states := []model.StateDescription{tr.Initial}
	for _, s := range tr.Steps {
		states = append(states, s.State)
	}
	for k, s := range states {
		per := map[string]int{}
		for _, m := range s.Network {
			g := channel.FindStringSubmatch(m.Message)
			if g == nil {
				t.Fatalf("message %q does not name its channel", m.Message)
			}
			if per[g[0]] += m.Count; per[g[0]] > 1 {
				t.Fatalf("state %d of the trace has %d messages on channel %s", k, per[g[0]], g[0][1:])
			}
		}
	}
	if rr := replay(t, exitOK, path); !rr.Reproduced {
		t.Fatalf("replay: %+v", rr)
	}
}
