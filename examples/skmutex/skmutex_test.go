package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces/eventlog"
	"github.com/tokenmc/tokenmc/traces/record"
)

// The tests run the implementation, record its log, and check the log
// with tokenmc's validator against the registered suzuki-kasami model,
// reading the implementation's own names through mapping.json.

func runLogged(t *testing.T, opts Options, kinds []string) (string, Result) {
	t.Helper()
	var buf bytes.Buffer
	log, err := record.New(&buf, record.Config{Algorithm: "suzuki-kasami", Params: map[string]int{"n": opts.Nodes, "r": opts.Rounds}, Kinds: kinds})
	if err != nil {
		t.Fatal(err)
	}
	if opts.Stall == 0 {
		opts.Stall = 300 * time.Millisecond
	}
	res := Run(opts, log)
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String(), res
}

func validate(t *testing.T, text string) (*eventlog.Log, eventlog.Result) {
	t.Helper()
	m, err := eventlog.ReadMapping("mapping.json")
	if err != nil {
		t.Fatal(err)
	}
	l, err := m.Read(strings.NewReader(text), "skmutex.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	a, v, err := algorithms.Lookup(l.Header.Algorithm)
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.BuildSim(v.Name, l.Header.Params)
	if err != nil {
		t.Fatal(err)
	}
	return l, eventlog.Validate(sys, l, eventlog.Options{})
}

var csKinds = []string{eventlog.KindRequest, eventlog.KindEnter, eventlog.KindExit}

func TestCorrectRunsValidate(t *testing.T) {
	for seed := range uint64(3) {
		opts := Options{Nodes: 3, Rounds: 15, MaxDelay: 200 * time.Microsecond, MaxCS: 200 * time.Microsecond, Seed: seed}
		for _, kinds := range [][]string{nil, csKinds} {
			text, res := runLogged(t, opts, kinds)
			if res.Stalled || res.Entries != 45 {
				t.Fatalf("seed %d: the correct implementation stalled after %d entries", seed, res.Entries)
			}
			l, v := validate(t, text)
			if !v.OK {
				t.Fatalf("seed %d, kinds %v: %v: %s", seed, kinds, v.Failed, v.Reason)
			}
			enters := 0
			for _, e := range l.Events {
				if e.Kind == eventlog.KindEnter {
					enters++
				}
			}
			if enters != 45 || v.Events != len(l.Events) {
				t.Fatalf("seed %d, kinds %v: %d enters logged, %d of %d events explained", seed, kinds, enters, v.Events, len(l.Events))
			}
		}
	}
}

// buggyRun runs with the bug until it fires (it needs a request to
// arrive while the holder is in its critical section).
func buggyRun(t *testing.T, kinds []string) string {
	t.Helper()
	for seed := range uint64(10) {
		text, res := runLogged(t, Options{Nodes: 3, Rounds: 10, MaxDelay: 200 * time.Microsecond, MaxCS: time.Millisecond, Seed: seed, Bug: true}, kinds)
		if res.BugFired > 0 {
			return text
		}
	}
	t.Fatal("the bug never fired in 10 runs")
	return ""
}

// firstHandOverInCS finds, from the full log alone, the first send of the
// privilege by a node that is inside its critical section: the event the
// bug produces and the model cannot explain.
func firstHandOverInCS(t *testing.T, text string) int {
	inside := map[float64]bool{}
	for k, line := range strings.Split(strings.TrimSpace(text), "\n")[1:] {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		p := e["p"].(float64)
		switch e["kind"] {
		case "enter":
			inside[p] = true
		case "exit":
			inside[p] = false
		case "send":
			if inside[p] && e["msg"].(map[string]any)["type"] == "Privilege" {
				return k + 2
			}
		}
	}
	t.Fatal("the bug fired but the log shows no privilege sent from inside a critical section")
	return 0
}

func TestBuggyRunIsRejectedAtTheBug(t *testing.T) {
	text := buggyRun(t, nil)
	want := firstHandOverInCS(t, text)
	_, v := validate(t, text)
	if v.OK {
		t.Fatal("the buggy run validates")
	}
	if v.Failed.Line != want || v.Failed.Kind != eventlog.KindSend || !strings.Contains(v.Reason, "but the model's step Deliver REQ(") {
		t.Fatalf("rejected at %v: %s; want the privilege sent at line %d", v.Failed, v.Reason, want)
	}
}

// overlap returns two processes whose CS stays overlap in time in a
// CS-only log, or false.
func overlap(l *eventlog.Log) (int, int, bool) {
	in := map[int]bool{}
	for _, e := range l.Events {
		switch e.Kind {
		case eventlog.KindEnter:
			for q := range in {
				if in[q] && q != e.P {
					return q, e.P, true
				}
			}
			in[e.P] = true
		case eventlog.KindExit:
			in[e.P] = false
		}
	}
	return 0, 0, false
}

// The buggy implementation's CS-only logs are rejected. Its runs let two
// nodes into their critical sections at once; the recorded log says so
// by its timestamps alone: with the vector clocks and the event counts
// removed, it is still rejected at an entry or exit of such a node.
func TestBuggyCSOnlyLogIsRejected(t *testing.T) {
	for seed := range uint64(10) {
		text, res := runLogged(t, Options{Nodes: 3, Rounds: 10, MaxDelay: 200 * time.Microsecond, MaxCS: 2 * time.Millisecond, Seed: seed, Bug: true}, csKinds)
		if res.BugFired == 0 {
			continue
		}
		l, v := validate(t, text)
		if v.OK || v.Failed == nil {
			t.Fatalf("seed %d: the buggy CS-only log validates", seed)
		}
		a, b, ok := overlap(l)
		if !ok {
			continue // the privilege left early, but the stays did not overlap in time
		}
		timeOnly := stripClocks(t, text)
		_, v = validate(t, timeOnly)
		if v.OK || v.Failed == nil || v.Failed.Kind != eventlog.KindEnter && v.Failed.Kind != eventlog.KindExit {
			t.Fatalf("seed %d: the time-only CS-only log with P%d and P%d overlapping: ok=%v at %v: %s", seed, a, b, v.OK, v.Failed, v.Reason)
		}
		return
	}
	t.Fatal("no run of the buggy implementation had overlapping CS stays")
}

// stripClocks drops the vector timestamps and renumbers each process's
// events 1, 2, 3, ...: what a lock service that logs only its own CS
// events, with one clock, would write.
func stripClocks(t *testing.T, text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	var h map[string]any
	json.Unmarshal([]byte(lines[0]), &h)
	delete(h["observed"].(map[string]any), "seq_counts_all")
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.Encode(h)
	seq := map[float64]int{}
	for _, line := range lines[1:] {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		p := e["p"].(float64)
		seq[p]++
		e["seq"] = seq[p]
		delete(e, "vc")
		enc.Encode(e)
	}
	return b.String()
}
