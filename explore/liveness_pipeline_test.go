package explore_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
)

// The liveness graph built with a second goroutine generating the next
// batch of successors while the first numbers the current one is the
// graph of the one-goroutine build: the same counts, families, verdicts,
// lassos (paths and actions), deadlock and occupancy violations, on models
// that pass and fail, under weak, strong and no fairness, with a state
// bound cutting the graph. So is the graph of exact mode, which numbers
// every successor by a look-up in the set (fingerprint mode takes the
// numbers of successors met shortly before from a small table).
func TestLivenessPipelineChangesNothing(t *testing.T) {
	for _, c := range []struct {
		algo      string
		params    map[string]int
		fairness  model.Fairness
		occupancy bool
		maxStates int64
	}{
		{"torus/literal", map[string]int{"n": 4, "r": 1}, model.WeakFairness, false, 0},
		{"torus", map[string]int{"n": 4, "r": 1}, model.WeakFairness, false, 0},
		{"suzuki-kasami", map[string]int{"n": 3, "r": 2}, model.NoFairness, false, 0},
		{"coord-res/no-aging", map[string]int{"n": 3}, model.StrongFairness, false, 0},
		{"drs-gme/no-rs-add", nil, model.WeakFairness, true, 0},
		{"torus/literal", map[string]int{"n": 4, "r": 1}, model.WeakFairness, false, 20000},
		{"suzuki-kasami/no-increment", map[string]int{"n": 2}, model.WeakFairness, false, 0},
	} {
		a, v, err := algorithms.Lookup(c.algo)
		if err != nil {
			t.Fatal(err)
		}
		sys, _, err := a.Build(v.Name, c.params)
		if err != nil {
			t.Fatal(err)
		}
		run := func(workers int, exact bool) *explore.LivenessResult {
			res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{
				Starvation: true, Occupancy: c.occupancy, Fairness: c.fairness,
				Options: explore.Options{Workers: workers, MaxStates: c.maxStates, Exact: exact},
			})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		want := run(1, false)
		for _, exact := range []bool{false, true} {
			got := run(2, exact)
			name := fmt.Sprintf("%s %v %v max=%d exact=%v", c.algo, c.params, c.fairness, c.maxStates, exact)
			compareLiveness(t, name, got, want)
		}
		t.Logf("%s %v: %s, %d states, %d lassos", c.algo, c.params, want.Verdict, want.States, len(want.Starving))
	}
}

// compareLiveness fails the test if got and want differ in anything but
// the time and memory they took.
func compareLiveness(t *testing.T, name string, got, want *explore.LivenessResult) {
	t.Helper()
	if got.Verdict != want.Verdict || got.States != want.States || got.Transitions != want.Transitions ||
		got.Depth != want.Depth || got.Families != want.Families || got.FairComponents != want.FairComponents ||
		got.StopReason != want.StopReason {
		t.Fatalf("%s: %s %d states %d edges depth %d %d families %d fair %q, one goroutine %s %d %d %d %d %d %q", name,
			got.Verdict, got.States, got.Transitions, got.Depth, got.Families, got.FairComponents, got.StopReason,
			want.Verdict, want.States, want.Transitions, want.Depth, want.Families, want.FairComponents, want.StopReason)
	}
	if !reflect.DeepEqual(got.Starving, want.Starving) {
		t.Errorf("%s: lassos differ", name)
	}
	if (got.Deadlock == nil) != (want.Deadlock == nil) || got.Deadlock != nil &&
		(got.Deadlock.Property.Name != want.Deadlock.Property.Name ||
			!reflect.DeepEqual(got.Deadlock.Path, want.Deadlock.Path) || !reflect.DeepEqual(got.Deadlock.Actions, want.Deadlock.Actions)) {
		t.Errorf("%s: deadlock differs", name)
	}
	// Property holds functions, which reflect.DeepEqual never finds
	// equal: the occupancy violation is plain data.
	if !reflect.DeepEqual(got.Occupancy, want.Occupancy) {
		t.Errorf("%s: occupancy violation differs", name)
	}
}
