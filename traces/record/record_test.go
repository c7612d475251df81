package record_test

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces/eventlog"
	"github.com/tokenmc/tokenmc/traces/record"
)

func sk2(t *testing.T) func(*eventlog.Log) eventlog.Result { return sk(t, 2, 1) }

// sk validates logs against Suzuki-Kasami with n processes, r requests each.
func sk(t *testing.T, n, r int) func(*eventlog.Log) eventlog.Result {
	a, v, err := algorithms.Lookup("suzuki-kasami")
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.BuildSim(v.Name, map[string]int{"n": n, "r": r})
	if err != nil {
		t.Fatal(err)
	}
	return func(l *eventlog.Log) eventlog.Result { return eventlog.Validate(sys, l, eventlog.Options{}) }
}

// One behaviour of Suzuki-Kasami with two processes, recorded with
// structured messages: P1 requests, P0 (idle, holding the token) sends
// it, P1 enters.
func play(l *record.Log) {
	l.Request(1)
	st := l.Send(1, 0, map[string]any{"kind": "REQ", "sn": 1})
	l.Receive(0, st, map[string]any{"kind": "REQ", "sn": 1})
	tok := map[string]any{"kind": "TOKEN", "ln": []int{0, 0}, "q": []int{}}
	st = l.Send(0, 1, tok)
	l.Receive(1, st, tok)
	l.Enter(1)
}

func TestRecordedLogValidates(t *testing.T) {
	validate := sk2(t)
	for _, kinds := range [][]string{nil, {"request", "enter", "exit"}, {"send", "receive"}} {
		var buf bytes.Buffer
		l, err := record.New(&buf, record.Config{Algorithm: "suzuki-kasami", Params: map[string]int{"n": 2, "r": 1}, Kinds: kinds})
		if err != nil {
			t.Fatal(err)
		}
		play(l)
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		log, err := eventlog.Read(strings.NewReader(buf.String()), "rec.jsonl")
		if err != nil {
			t.Fatalf("kinds %v: %v\n%s", kinds, err, buf.String())
		}
		want := map[int]int{0: 6, 3: 2, 2: 4}[len(kinds)]
		if len(log.Events) != want || log.Partial() != (kinds != nil) {
			t.Fatalf("kinds %v: %d events, partial=%v; want %d", kinds, len(log.Events), log.Partial(), want)
		}
		if res := validate(log); !res.OK {
			t.Fatalf("kinds %v: %v: %s\n%s", kinds, res.Failed, res.Reason, buf.String())
		}
	}
	// The same calls with a wrong field: the log records what the
	// implementation did, and validation rejects it.
	var buf bytes.Buffer
	l, _ := record.New(&buf, record.Config{Algorithm: "suzuki-kasami", Params: map[string]int{"n": 2, "r": 1}})
	l.Request(1)
	st := l.Send(1, 0, map[string]any{"kind": "REQ", "sn": 2})
	l.Receive(0, st, map[string]any{"kind": "REQ", "sn": 2})
	l.Close()
	log, err := eventlog.Read(strings.NewReader(buf.String()), "rec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if res := validate(log); res.OK || res.Failed.Line != 3 {
		t.Fatalf("wrong sn accepted or misplaced: %v: %s", res.Failed, res.Reason)
	}
}

// Many goroutines logging at once: every line is whole, every process's
// seq runs 1, 2, 3, ... and the vector clocks are consistent (Read
// checks all three).
func TestConcurrentWriters(t *testing.T) {
	var buf bytes.Buffer
	const n, each = 8, 500
	l, err := record.New(&buf, record.Config{Algorithm: "suzuki-kasami", Params: map[string]int{"n": n, "r": each}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for p := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range each {
				l.Request(p)
				st := l.Send(p, (p+1)%n, "X")
				l.Receive((p+k)%n, st, "X") // racing with (p+k)%n's own goroutine on purpose
			}
		}()
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	log, err := eventlog.Read(strings.NewReader(buf.String()), "conc.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Events) != 3*n*each {
		t.Fatalf("%d events, want %d", len(log.Events), 3*n*each)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []record.Config{{Params: map[string]int{"n": 2}}, {Algorithm: "x", Params: map[string]int{"n": 0}}, {Algorithm: "x", Params: map[string]int{"n": 2}, Processes: []int{2}}} {
		if _, err := record.New(&bytes.Buffer{}, c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// TestNBounds: record takes as many processes as an event log may have,
// and no more: a log of n=1000 (the format's bound) reads back with its
// format, version and global clock; n=1001 is refused before anything is
// written.
func TestNBounds(t *testing.T) {
	var buf bytes.Buffer
	l, err := record.New(&buf, record.Config{Algorithm: "x", Params: map[string]int{"n": 1000}})
	if err != nil {
		t.Fatal(err)
	}
	l.Request(999)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	log, err := eventlog.Read(&buf, "big.jsonl")
	if err != nil {
		t.Fatalf("n=1000: %v", err)
	}
	if h := log.Header; h.Format != "tokenmc-eventlog" || h.Version != 1 || h.Clock != "global" || log.N() != 1000 {
		t.Errorf("header %+v", h)
	}
	buf.Reset()
	if _, err := record.New(&buf, record.Config{Algorithm: "x", Params: map[string]int{"n": 1001}}); err == nil || buf.Len() != 0 {
		t.Errorf("n=1001: %v, wrote %q", err, buf.String())
	}
}

// With Config.Names the log calls the processes by their names, and a
// mapping file reads them back.
func TestNamedProcesses(t *testing.T) {
	var buf bytes.Buffer
	l, err := record.New(&buf, record.Config{Algorithm: "suzuki-kasami", Params: map[string]int{"n": 2, "r": 1}, Names: []string{"db-a", "db-b"}})
	if err != nil {
		t.Fatal(err)
	}
	play(l)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !strings.Contains(text, `"p":"db-b","seq":2,"kind":"send"`) || !strings.Contains(text, `"to":"db-a"`) || !strings.Contains(text, `"from":"db-b"`) || strings.Contains(text, `"p":1`) {
		t.Fatalf("the log does not use the names:\n%s", text)
	}
	if _, err := eventlog.Read(strings.NewReader(text), "rec.jsonl"); err == nil {
		t.Fatal("a log with names reads without a mapping")
	}
	m := &eventlog.Mapping{Processes: map[string]int{"db-a": 0, "db-b": 1}}
	if err := m.Compile(); err != nil {
		t.Fatal(err)
	}
	log, err := m.Read(strings.NewReader(text), "rec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if res := sk2(t)(log); !res.OK || res.Events != 6 {
		t.Fatalf("%v: %s", res.Failed, res.Reason)
	}
	if _, err := record.New(&buf, record.Config{Algorithm: "suzuki-kasami", Params: map[string]int{"n": 2}, Names: []string{"x"}}); err == nil || !strings.Contains(err.Error(), "1 names for 2 processes") {
		t.Fatalf("too few names: %v", err)
	}
}

// Thread marks each event with the thread that logged it, and the
// validator takes a send for an effect of the latest trigger of its
// thread: P1's REQs, logged after P1 received P2's REQ, belong to P1's
// request when its application thread logs them, and cannot belong to
// the receive (P1 has no token to send) when the receiver thread does.
func TestThreads(t *testing.T) {
	validate := sk(t, 3, 1)
	req := map[string]any{"kind": "REQ", "sn": 1}
	for _, sender := range []string{"app", "receiver"} {
		var buf bytes.Buffer
		l, err := record.New(&buf, record.Config{Algorithm: "suzuki-kasami", Params: map[string]int{"n": 3, "r": 1}})
		if err != nil {
			t.Fatal(err)
		}
		app, recv := l.Thread("app"), l.Thread("receiver")
		app.Request(2)
		app.Send(2, 0, req)
		st := app.Send(2, 1, req)
		app.Request(1)
		recv.Receive(1, st, req)
		l.Thread(sender).Send(1, 0, req)
		if err := app.Close(); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		if !strings.Contains(text, `"kind":"receive","msg":{"kind":"REQ","sn":1},"mid":"2.2","from":2,"vc":[0,2,3],"lamport":4,"t_ns":`) || !strings.Contains(text, `"thread":"receiver"}`) {
			t.Fatalf("the log does not name the threads:\n%s", text)
		}
		log, err := eventlog.Read(strings.NewReader(text), "rec.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		res := validate(log)
		if ok := sender == "app"; res.OK != ok || !ok && (res.Failed == nil || res.Failed.Line != 7) {
			t.Fatalf("P1's REQ sent from its %s thread: ok=%v at %v: %s\n%s", sender, res.OK, res.Failed, res.Reason, text)
		}
	}
}
