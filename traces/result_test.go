package traces_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// FromViolation on explore.Check's violation of tiny/eager, written by
// WriteFile, gives the same bytes as the hand-built Meta and FromSteps of
// the fixture (BFS's shortest counterexample is the fixture's 4-step
// path), and the file replays.
func TestFromViolation(t *testing.T) {
	sys := eagerMutex.system()
	props := []model.Property{invariants.Mutex}
	res, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: 1})
	if err != nil || res.Violation == nil {
		t.Fatalf("no violation: %v %v", res, err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "v.trace.json")
	tr, err := traces.FromViolation(sys, res.Violation)
	if err != nil {
		t.Fatal(err)
	}
	if err := traces.WriteFile(file, tr); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := traces.Write(&want, eagerMutex.trace(t)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("FromViolation and WriteFile wrote\n%s\nthe hand-built trace is\n%s", got, want.Bytes())
	}
	if len(tr.Steps) != 4 {
		t.Errorf("%d steps, want 4", len(tr.Steps))
	}
	back, err := traces.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := traces.Replay(sys, props, back); err != nil || !r.OK {
		t.Errorf("replay: %+v %v", r, err)
	}
}

// The metadata comes from the system: Info.Params when the protocol
// records them, else n, r, groups and faults as they differ from the
// defaults.
func TestMetaOf(t *testing.T) {
	p := tinyProtocol("tiny", 2, 1)
	m := traces.MetaOf(p.System(), invariants.NoDeadlock)
	want := traces.Meta{Algorithm: "tiny", Params: map[string]int{"n": 2, "r": 2, "faults": 1},
		Property: "no-deadlock", PropertyKind: model.Terminal}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("derived: %+v, want %+v", m, want)
	}
	p.Params = map[string]int{"n": 2, "r": 2, "faults": 1, "delay": 7}
	m = traces.MetaOf(p.System(), invariants.NoDeadlock)
	want.Params = map[string]int{"n": 2, "r": 2, "faults": 1, "delay": 7}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("recorded: %+v, want %+v", m, want)
	}
	m.Params["delay"] = 8 // a copy: the protocol's map is untouched
	if p.Params["delay"] != 7 {
		t.Error("MetaOf returned the protocol's own map")
	}
	cyc := model.Info{Name: "c", Processes: 3, Requests: 0, Groups: 2}
	if got := traces.ParamsOf(cyc); !reflect.DeepEqual(got, map[string]int{"n": 3, "groups": 2}) {
		t.Errorf("cyclic GME: %v", got)
	}
}

// The trace of a simulate.Run violation (FromViolation), written with
// WriteFile, reads back with every step and replays.
func TestSimulationTraceWritten(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sim.trace.json")
	sys := eagerMutex.system()
	props := []model.Property{invariants.Mutex}
	res, err := simulate.Run(context.Background(), sys, simulate.Options{Properties: props, Runs: 100, Seed: 1})
	if err != nil || res.Violation == nil {
		t.Fatalf("no violation in 100 runs: %v", err)
	}
	tr, err := traces.FromViolation(sys, res.Violation)
	if err != nil {
		t.Fatal(err)
	}
	if err := traces.WriteFile(file, tr); err != nil {
		t.Fatal(err)
	}
	back, err := traces.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Steps) != len(tr.Steps) || len(tr.Steps) != res.Violation.Len() {
		t.Errorf("file %d steps, trace %d, violation %d", len(back.Steps), len(tr.Steps), res.Violation.Len())
	}
	if r, err := traces.Replay(sys, props, back); err != nil || !r.OK {
		t.Errorf("replay: %+v %v", r, err)
	}
}

// FromSteps records the literal torus's lasso (d=2, R=1) with its
// fairness, as docs/api.md shows; the file replays as a lasso of the same
// process and lengths.
func TestLassoTrace(t *testing.T) {
	p, err := torus.New(torus.Literal, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	sys := p.System()
	res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true, Fairness: model.WeakFairness})
	if err != nil || len(res.Starving) == 0 {
		t.Fatalf("no lasso: %v %v", res.Verdict, err)
	}
	l := &res.Starving[0]
	file := filepath.Join(t.TempDir(), "l.trace.json")
	m := traces.MetaOf(sys, model.Property{Name: invariants.NameStarvationFreedom})
	m.Options = map[string]string{"fairness": model.WeakFairness.String()}
	m.Loop, m.WaitingProcess = &l.Loop, &l.Process
	tr, err := traces.FromSteps(sys.NewWorker(), m, l.Path, l.Actions)
	if err != nil {
		t.Fatal(err)
	}
	if err := traces.WriteFile(file, tr); err != nil {
		t.Fatal(err)
	}
	back, err := traces.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !back.IsLasso() || *back.Loop != l.Loop+1 || *back.WaitingProcess != l.Process || len(back.Steps) != l.Len() {
		t.Errorf("lasso: loop %v process %v steps %d; want %d %d %d", *back.Loop, *back.WaitingProcess, len(back.Steps), l.Loop+1, l.Process, l.Len())
	}
	if back.Options["fairness"] != "weak" || tr.Algorithm != "torus/literal" {
		t.Errorf("options %v algorithm %q", back.Options, tr.Algorithm)
	}
	if r, err := traces.Replay(sys, nil, back); err != nil || !r.OK {
		t.Errorf("replay: %+v %v", r, err)
	}
}

// From a violation found by explore.Check to a trace file: the metadata
// (algorithm, parameters) comes from the system, the steps from the
// actions the search took.
func ExampleFromViolation() {
	sys := tinyProtocol("tiny/eager", 1, 0).System()
	res, err := explore.Check(context.Background(), sys, explore.Options{Properties: []model.Property{invariants.Mutex}, Workers: 1})
	if err != nil || res.Violation == nil {
		fmt.Println("no violation", err)
		return
	}
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "eager.trace.json")
	tr, err := traces.FromViolation(sys, res.Violation)
	if err == nil {
		err = traces.WriteFile(file, tr)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(filepath.Base(file), tr.Algorithm, tr.Params, tr.Property, len(tr.Steps), "steps")
	// Output:
	// eager.trace.json tiny/eager map[n:2 r:1] mutex 4 steps
}
