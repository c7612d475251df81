package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces/eventlog"
	"github.com/tokenmc/tokenmc/traces/record"
)

// The tests run the program, record its log in its own words, and check
// the log with tokenmc's validator against the registered suzuki-kasami
// model through mapping.json (regular expressions for the node names and
// the string messages).

var csKinds = []string{eventlog.KindRequest, eventlog.KindEnter, eventlog.KindExit}

func testOptions(seed uint64) Options {
	return Options{Nodes: 3, Rounds: 8, Seed: seed, MaxDelay: 100 * time.Microsecond, MaxCS: 100 * time.Microsecond,
		MaxThink: 100 * time.Microsecond, Poll: 10 * time.Microsecond, Stall: 500 * time.Millisecond}
}

func runLogged(t *testing.T, opts Options, csOnly bool) (string, Result) {
	t.Helper()
	var buf bytes.Buffer
	log, err := record.New(&buf, config(opts, csOnly))
	if err != nil {
		t.Fatal(err)
	}
	res := Run(opts, log)
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String(), res
}

var checked sync.Once

// validate reads the log through mapping.json and validates it.
func validate(t *testing.T, text string) (*eventlog.Log, eventlog.Result) {
	return validateWith(t, text, eventlog.Options{})
}

func validateWith(t *testing.T, text string, opts eventlog.Options) (*eventlog.Log, eventlog.Result) {
	t.Helper()
	m, err := eventlog.ReadMapping("mapping.json")
	if err != nil {
		t.Fatal(err)
	}
	l, err := m.Read(strings.NewReader(text), "sklock.jsonl")
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
	checked.Do(func() {
		if err := m.CheckModel(sys); err != nil {
			t.Errorf("mapping.json does not fit the model: %v", err)
		}
	})
	return l, eventlog.Validate(sys, l, opts)
}

// keep writes a log that failed to a file the failure names.
func keep(t *testing.T, name, text string) string {
	path := filepath.Join(os.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Log(err)
	}
	return path
}

func TestCorrectRunsValidate(t *testing.T) {
	seeds := uint64(10)
	if os.Getenv("TOKENMC_HEAVY") != "" {
		seeds = 50 // CI
	}
	nonAtomic := 0
	for seed := range seeds {
		opts := testOptions(seed)
		for _, csOnly := range []bool{false, true} {
			text, res := runLogged(t, opts, csOnly)
			if res.Stalled || res.Entries != opts.Nodes*opts.Rounds || res.Fired != 0 {
				t.Fatalf("seed %d: the correct program stalled after %d entries (fired %d)", seed, res.Entries, res.Fired)
			}
			// A full log is complete: the run ended cleanly.
			l, v := validateWith(t, text, eventlog.Options{Complete: !csOnly})
			if !csOnly {
				if _, a := validateWith(t, text, eventlog.Options{Atomic: true}); !a.OK {
					nonAtomic++
				}
			}
			if !v.OK {
				t.Fatalf("seed %d, cs-only %v: rejected at %v: %s (log: %s)", seed, csOnly, v.Failed, v.Reason, keep(t, fmt.Sprintf("sklock-seed%d-cs%v.jsonl", seed, csOnly), text))
			}
			enters := 0
			for _, e := range l.Events {
				if e.Kind == eventlog.KindEnter {
					enters++
				}
			}
			if enters != opts.Nodes*opts.Rounds || v.Events != len(l.Events) {
				t.Fatalf("seed %d, cs-only %v: %d enters logged, %d of %d events explained", seed, csOnly, enters, v.Events, len(l.Events))
			}
		}
	}
	// The program logs where it acts, so its steps are not logged
	// atomically: read as atomic steps, its logs are rejected.
	if nonAtomic == 0 {
		t.Fatalf("all %d full logs are also logged atomically: the test does not exercise late effects", seeds)
	}
	t.Logf("%d of %d full logs are not logged atomically", nonAtomic, seeds)
}

// With Threads each event names its goroutine, and the runs validate
// with the grouping that the names give.
func TestThreadsMarkedRunsValidate(t *testing.T) {
	for seed := range uint64(5) {
		opts := testOptions(seed)
		opts.Threads = true
		text, _ := runLogged(t, opts, false)
		if !strings.Contains(text, `"thread":"receiver"`) || !strings.Contains(text, `"thread":"app"`) {
			t.Fatalf("seed %d: the log does not name the goroutines", seed)
		}
		if _, v := validateWith(t, text, eventlog.Options{Complete: true}); !v.OK {
			t.Fatalf("seed %d: rejected at %v: %s (log: %s)", seed, v.Failed, v.Reason, keep(t, fmt.Sprintf("sklock-threads-seed%d.jsonl", seed), text))
		}
	}
}

func isToken(e *eventlog.Event) bool { return strings.Contains(e.Msg, `"kind":"TOKEN"`) }

// firstInWindow is, from the log alone, the first token sent by a node
// between its receipt of the token and its next entry: for the
// algorithm the node is in its critical section from the token's
// arrival, so the token cannot leave before the node's exit.
func firstInWindow(l *eventlog.Log) *eventlog.Event {
	waiting := map[int]bool{}
	for k := range l.Events {
		e := &l.Events[k]
		switch {
		case e.Kind == eventlog.KindReceive && isToken(e):
			waiting[e.P] = true
		case e.Kind == eventlog.KindEnter:
			waiting[e.P] = false
		case e.Kind == eventlog.KindSend && isToken(e) && waiting[e.P]:
			return e
		}
	}
	return nil
}

// firstWithoutToken is, from the log alone, the first entry or token
// send by a node that does not hold the token: P0 holds it at first; a
// node gets it by a receive and gives it up by a send.
func firstWithoutToken(l *eventlog.Log) *eventlog.Event {
	holds := map[int]bool{0: true}
	for k := range l.Events {
		e := &l.Events[k]
		switch {
		case e.Kind == eventlog.KindReceive && isToken(e):
			holds[e.P] = true
		case e.Kind == eventlog.KindSend && isToken(e):
			if !holds[e.P] {
				return e
			}
			holds[e.P] = false
		case e.Kind == eventlog.KindEnter && !holds[e.P]:
			return e
		}
	}
	return nil
}

// firstOf is the first send among the message ids mids.
func firstOf(l *eventlog.Log, mids []string) *eventlog.Event {
	for k := range l.Events {
		e := &l.Events[k]
		for _, mid := range mids {
			if e.Kind == eventlog.KindSend && e.MID == mid {
				return e
			}
		}
	}
	return nil
}

// Each planted bug is rejected at the first event that departs from the
// algorithm, found without the validator: from the log (Window, Keep)
// or from the program, which knows which of its sends the bug made
// (NoAppend).
func TestBugsAreRejectedWhereTheyAct(t *testing.T) {
	for _, c := range []struct {
		name  string
		bugs  Bugs
		first func(*eventlog.Log, Result) *eventlog.Event
	}{
		{"window", Bugs{Window: true}, func(l *eventlog.Log, _ Result) *eventlog.Event { return firstInWindow(l) }},
		{"noappend", Bugs{NoAppend: true}, func(l *eventlog.Log, r Result) *eventlog.Event { return firstOf(l, r.BugSends) }},
		{"keep", Bugs{Keep: true}, func(l *eventlog.Log, _ Result) *eventlog.Event { return firstWithoutToken(l) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			tried := 0
			for seed := range uint64(30) {
				opts := testOptions(seed)
				opts.Bugs = c.bugs
				opts.Poll = 20 * time.Microsecond
				opts.Threads = tried%2 == 1 // the second firing run names its goroutines
				text, res := runLogged(t, opts, false)
				if res.Fired == 0 {
					continue
				}
				tried++
				l, v := validate(t, text)
				want := c.first(l, res)
				if want == nil {
					t.Fatalf("seed %d: the bug fired %d times but the log shows no event of it (log: %s)", seed, res.Fired, keep(t, "sklock-"+c.name+".jsonl", text))
				}
				if v.OK || v.Failed == nil || v.Failed.Line != want.Line || v.Failed.Kind != want.Kind {
					t.Fatalf("seed %d: ok=%v, rejected at %v: %s; want the %s at line %d (log: %s)", seed, v.OK, v.Failed, v.Reason, want.Kind, want.Line, keep(t, "sklock-"+c.name+".jsonl", text))
				}
				if tried == 3 {
					return
				}
			}
			if tried == 0 {
				t.Fatal("the bug never fired in 30 runs")
			}
		})
	}
}

// firstOverlap is the first entry of a node while another node is in its
// critical section, in the log's order (a CS-only log written by one
// recorder, whose order is the order of the calls).
func firstOverlap(l *eventlog.Log) *eventlog.Event {
	in := map[int]bool{}
	for k := range l.Events {
		e := &l.Events[k]
		switch e.Kind {
		case eventlog.KindEnter:
			for q, inside := range in {
				if inside && q != e.P {
					return e
				}
			}
			in[e.P] = true
		case eventlog.KindExit:
			in[e.P] = false
		}
	}
	return nil
}

// A CS-only log of the Keep bug shows two nodes in their critical
// sections at once: no behaviour of the model explains it, and the
// validator says so at that entry at the latest.
func TestKeptTokenCSOnlyLogIsRejected(t *testing.T) {
	for seed := range uint64(30) {
		opts := testOptions(seed)
		opts.Bugs.Keep = true
		opts.MaxCS = 500 * time.Microsecond
		text, res := runLogged(t, opts, true)
		if res.Fired == 0 {
			continue
		}
		l, v := validate(t, text)
		overlap := firstOverlap(l)
		if overlap == nil {
			continue
		}
		if v.OK || v.Failed == nil || v.Failed.Line > overlap.Line {
			t.Fatalf("seed %d: ok=%v, rejected at %v: %s; want a rejection at line %d (P%d enters while another node is inside) at the latest (log: %s)", seed, v.OK, v.Failed, v.Reason, overlap.Line, overlap.P, keep(t, "sklock-keep-cs.jsonl", text))
		}
		t.Logf("seed %d: rejected at line %d; P%d enters while another node is inside at line %d", seed, v.Failed.Line, overlap.P, overlap.Line)
		return
	}
	t.Fatal("no CS-only run of the Keep bug had two nodes inside at once in 30 runs")
}
