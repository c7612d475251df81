package webui

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// newTestServer serves algorithm name with params and every safety
// property that applies.
func newTestServer(t *testing.T, name string, params map[string]int, trs ...*traces.Trace) (*httptest.Server, model.System) {
	t.Helper()
	sys, extra, v := build(t, name, params)
	props, err := invariants.Select(invariants.With(extra...), sys.Info(), "")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{System: sys, Algorithm: v.Name, Params: params, Properties: props, Traces: trs})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts, sys
}

// build builds algorithm name with params.
func build(t testing.TB, name string, params map[string]int) (model.System, []model.Property, algorithms.Variant) {
	t.Helper()
	a, v, err := algorithms.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	sys, extra, err := a.Build(v.Name, params)
	if err != nil {
		t.Fatal(err)
	}
	return sys, extra, v
}

// newSystem builds algorithm name with params.
func newSystem(t testing.TB, name string, params map[string]int) model.System {
	t.Helper()
	sys, _, _ := build(t, name, params)
	return sys
}

func getJSON(t *testing.T, method, url string, body []byte, out any) int {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	return resp.StatusCode
}

// The initial state of Suzuki-Kasami with two processes: the actions are
// exactly the worker's successors, in order; taking Request(P1) changes
// P1's phase and sends one REQ to P0, which the page marks as new.
func TestStateAndStep(t *testing.T) {
	ts, sys := newTestServer(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})
	var v view
	if code := getJSON(t, "GET", ts.URL+"/api/state", nil, &v); code != 200 {
		t.Fatalf("status %d", code)
	}
	// independent count: the worker's own successors of its initial state
	w := sys.NewWorker()
	var labels []string
	w.Initial(func(s []byte) bool {
		w.Successors(s, func(tr *model.Transition, _ []byte) bool { labels = append(labels, w.Label(s, tr)); return true })
		return false
	})
	if len(v.Actions) != len(labels) || len(labels) != 2 {
		t.Fatalf("%d actions, the worker has %d successors (want 2: a Request per process)", len(v.Actions), len(labels))
	}
	k1 := -1
	for k, a := range v.Actions {
		if a.Label != labels[k] || a.Index != k {
			t.Fatalf("action %d is %q (index %d), the worker's is %q", k, a.Label, a.Index, labels[k])
		}
		if a.Label == "Request(P1)" {
			k1 = k
		}
	}
	if k1 < 0 {
		t.Fatalf("no Request(P1) among %q", labels)
	}
	if want := "sends REQ(P1->P0, sn=1)"; len(v.Actions[k1].Sends) != 1 || "sends "+v.Actions[k1].Sends[0] != want {
		t.Fatalf("Request(P1) sends %q, want %q", v.Actions[k1].Sends, want)
	}
	if v.InTransit != 0 || len(v.Network) != 0 {
		t.Fatalf("initially %d messages in transit", v.InTransit)
	}
	var after view
	getJSON(t, "GET", ts.URL+"/api/state?init=0&path="+itoa(k1), nil, &after)
	if len(after.Steps) != 1 || after.Steps[0] != "Request(P1)" {
		t.Fatalf("steps %q", after.Steps)
	}
	phase := -1
	for c, name := range after.Columns {
		if name == "phase" {
			phase = c
		}
	}
	p1 := after.Processes[1].Cells[phase]
	if p1.Value != "Waiting" || !p1.Changed || p1.Was != "Idle" {
		t.Fatalf("P1's phase cell %+v, want Waiting, changed from Idle", p1)
	}
	if p0 := after.Processes[0].Cells[phase]; p0.Changed {
		t.Fatalf("P0's phase is marked changed: %+v", p0)
	}
	if len(after.Network) != 1 || after.Network[0].To != 0 || len(after.Network[0].Messages) != 1 ||
		!after.Network[0].Messages[0].New || after.Network[0].Messages[0].Text != "REQ(P1->P0, sn=1)" {
		t.Fatalf("network %+v, want the new REQ(P1->P0, sn=1) in P0's inbox", after.Network)
	}
	if !strings.Contains(after.Chart, "<svg") || !strings.Contains(after.Chart, "Request(P1)") {
		t.Fatal("no chart of the path")
	}
	for _, p := range after.Properties {
		if p.Status == "violated" {
			t.Fatalf("%s violated on a state of the correct algorithm", p.Name)
		}
	}
}

func itoa(k int) string { b, _ := json.Marshal(k); return string(b) }

// A position that does not exist is a 400 with a message that says why.
func TestBadPosition(t *testing.T) {
	ts, _ := newTestServer(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})
	for q, want := range map[string]string{
		"path=7":   "the state has 2 enabled actions, not 8",
		"path=x":   `"x" is not a transition index`,
		"init=3":   "there is no initial state 3; the system has 1",
		"init=-1":  "not a non-negative number",
		"path=0.9": "step 2: the state has",
	} {
		var e map[string]string
		if code := getJSON(t, "GET", ts.URL+"/api/state?"+q, nil, &e); code != 400 || !strings.Contains(e["error"], want) {
			t.Errorf("%s: status %d, error %q; want 400 and %q", q, code, e["error"], want)
		}
	}
}

// The counterexample search of the page finds the shortest violation of
// single-token of suzuki-kasami/keep-copy (2 steps, as README shows and
// tokenmc check finds), and its last state shows the violation.
func TestCounterexample(t *testing.T) {
	ts, _ := newTestServer(t, "suzuki-kasami/keep-copy", map[string]int{"n": 3, "r": 1})
	var np namedPath
	if code := getJSON(t, "POST", ts.URL+"/api/counterexample?prop=single-token", nil, &np); code != 200 {
		t.Fatalf("status %d", code)
	}
	if len(np.Path) != 2 {
		t.Fatalf("counterexample of %d steps, want 2", len(np.Path))
	}
	var v view
	getJSON(t, "GET", ts.URL+"/api/state?path="+dotted(np.Path), nil, &v)
	status := map[string]string{}
	for _, p := range v.Properties {
		status[p.Name] = p.Status
	}
	if status["single-token"] != "violated" || status["mutex"] != "holds" {
		t.Fatalf("properties at the end %v, want single-token violated and mutex holding", status)
	}
	var info info
	getJSON(t, "GET", ts.URL+"/api/info", nil, &info)
	if len(info.Paths) != 1 || info.Paths[0].Name != "counterexample: single-token, 2 steps" {
		t.Fatalf("jump box offers %+v", info.Paths)
	}
	var e map[string]string
	if code := getJSON(t, "POST", ts.URL+"/api/counterexample?prop=nope", nil, &e); code != 400 || !strings.Contains(e["error"], `no property "nope"`) {
		t.Fatalf("unknown property: %d %q", code, e["error"])
	}
}

func dotted(p []int) string {
	var s []string
	for _, k := range p {
		s = append(s, itoa(k))
	}
	return strings.Join(s, ".")
}

// A lasso trace file (the torus's literal reading starves P1) maps to a
// position whose states are exactly the trace's states: a round trip
// through labels.
func TestTracePathRoundTrip(t *testing.T) {
	tr, err := traces.ReadFile("../../../algorithms/torus/testdata/literal-d2-r1.starvation-freedom.P1.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	a, v, err := algorithms.Lookup(tr.Algorithm)
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.BuildSim(v.Name, tr.Params)
	if err != nil {
		t.Fatal(err)
	}
	init, path, err := TracePath(sys, tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(path) != len(tr.Steps) {
		t.Fatalf("%d steps mapped, the trace has %d", len(path), len(tr.Steps))
	}
	w := sys.NewWorker()
	states, _, err := walk(context.Background(), w, init, path)
	if err != nil {
		t.Fatal(err)
	}
	for k := range tr.Steps {
		got, _ := json.Marshal(w.Describe(states[k+1]))
		want, _ := json.Marshal(tr.Steps[k].State)
		if !bytes.Equal(got, want) {
			t.Fatalf("step %d: the position reaches\n%s\nthe trace records\n%s", k+1, got, want)
		}
	}
	// a trace whose step is not enabled is refused with the step named
	bad := *tr
	bad.Steps = append([]traces.Step(nil), tr.Steps...)
	bad.Steps[2].Action = "Request(P9)"
	if _, _, err := TracePath(sys, &bad); err == nil || !strings.Contains(err.Error(), "trace step 3 (Request(P9)) is not enabled") {
		t.Fatalf("err = %v", err)
	}
}
