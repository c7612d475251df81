package eventlog_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

func system(t *testing.T, name string, params map[string]int) model.System {
	t.Helper()
	a, v, err := algorithms.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.Build(v.Name, params)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func read(t *testing.T, file string) *eventlog.Log {
	t.Helper()
	l, err := eventlog.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// testdata/suzuki-kasami.jsonl and send-in-cs.jsonl were recorded by
// 'tokenmc run' (n=3, r=2); the edited-*.jsonl files are the first with one
// line inserted and the later sequence numbers and vector timestamps shifted.
func TestValidateRecordedLogs(t *testing.T) {
	params := map[string]int{"n": 3, "r": 2}
	good := system(t, "suzuki-kasami", params)
	mut := system(t, "suzuki-kasami/send-in-cs", params)

	l := read(t, "testdata/suzuki-kasami.jsonl")
	res := eventlog.Validate(good, l)
	if !res.OK || res.Events != 48 || res.Steps != 27 || len(res.Order) != 27 {
		t.Fatalf("correct log: ok=%v events=%d steps=%d: %s", res.OK, res.Events, res.Steps, res.Reason)
	}
	// The interleaving found ends in the state the log implies: every
	// process made 2 requests and is Idle; P2 entered last, so it holds the token.
	final := res.Order[len(res.Order)-1].State
	for _, p := range final.Processes {
		if p.Phase != "Idle" || p.Made != 2 || p.HoldsToken != (p.ID == 2) {
			t.Fatalf("final state: %+v", p)
		}
	}

	ml := read(t, "testdata/send-in-cs.jsonl")
	if res := eventlog.Validate(mut, ml); !res.OK {
		t.Fatalf("the mutant's log is not a behaviour of the mutant: %s: %s", res.Failed, res.Reason)
	}
	res = eventlog.Validate(good, ml)
	if res.OK || res.Failed.Line != 12 || res.Failed.Kind != eventlog.KindSend || !strings.HasPrefix(res.Failed.Msg, "TOKEN(") {
		t.Fatalf("the mutant's log against the correct model: %v: %s", res.Failed, res.Reason)
	}
	if got := res.Reached.Processes[res.Failed.P].Phase; got != "InCS" {
		t.Fatalf("the token is sent by a process that is %s, want InCS", got)
	}
}

func TestValidateRejectsEditedLogs(t *testing.T) {
	good := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	cases := []struct {
		file, kind string
		line       int
		reason     string
	}{
		{"testdata/edited-never-sent.jsonl", eventlog.KindReceive, 14, `message id "forged" was never sent`},
		{"testdata/edited-enter-without-token.jsonl", eventlog.KindEnter, 10, "the log has P1 enter its CS but the model's step Request(P1) does not enter"},
	}
	for _, c := range cases {
		res := eventlog.Validate(good, read(t, c.file))
		if res.OK {
			t.Fatalf("%s accepted", c.file)
		}
		if res.Failed.Line != c.line || res.Failed.Kind != c.kind || !strings.Contains(res.Reason, c.reason) {
			t.Fatalf("%s: failed at %s: %s", c.file, res.Failed, res.Reason)
		}
	}
}

// Without vector timestamps the happens-before order comes from process
// order and the message ids, and the verdicts are the same.
func TestValidateWithoutVectorTimestamps(t *testing.T) {
	good := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	for _, c := range []struct {
		file string
		ok   bool
	}{{"testdata/suzuki-kasami.jsonl", true}, {"testdata/edited-never-sent.jsonl", false}, {"testdata/edited-enter-without-token.jsonl", false}} {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatal(err)
			}
			delete(m, "vc")
			b, _ := json.Marshal(m)
			out.Write(append(b, '\n'))
		}
		l, err := eventlog.Read(&out, c.file)
		if err != nil {
			t.Fatal(err)
		}
		if res := eventlog.Validate(good, l); res.OK != c.ok {
			t.Fatalf("%s without vc: ok=%v, want %v (%s)", c.file, res.OK, c.ok, res.Reason)
		}
	}
}

func TestReadRejectsBadLines(t *testing.T) {
	header := `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1}}` + "\n"
	cases := []struct{ name, text, want string }{
		{"empty", "", "x.jsonl:1: empty log"},
		{"not JSON header", "hello\n", "x.jsonl:1: the header is not a JSON object"},
		{"wrong format", `{"format":"x","version":1,"algorithm":"a","params":{"n":2}}` + "\n", `x.jsonl:1: the header says format "x"`},
		{"not JSON", header + "{\"p\":0,\"seq\":1,\"kind\":\"request\"}\nnot json\n", "x.jsonl:3: not a JSON event object"},
		{"unknown process", header + `{"p":5,"seq":1,"kind":"request"}` + "\n", "x.jsonl:2: unknown process P5; the header says n=2, so processes are P0..P1"},
		{"unknown kind", header + `{"p":0,"seq":1,"kind":"jump"}` + "\n", `x.jsonl:2: unknown kind "jump"`},
		{"seq gap", header + `{"p":0,"seq":2,"kind":"request"}` + "\n", "x.jsonl:2: P0 seq is 2; want 1"},
		{"effect first", header + `{"p":0,"seq":1,"kind":"enter"}` + "\n", "x.jsonl:2: P0 enter before any request"},
		{"send without to", header + `{"p":0,"seq":1,"kind":"request"}` + "\n" + `{"p":0,"seq":2,"kind":"send","msg":"REQ(P0->P1, sn=1)"}` + "\n", `x.jsonl:3: a send needs "to"`},
		{"unknown field", header + `{"p":0,"seq":1,"kind":"request","proc":1}` + "\n", `x.jsonl:2: not a JSON event object`},
		{"bad vc", header + `{"p":0,"seq":1,"kind":"request","vc":[1]}` + "\n", "x.jsonl:2: vector timestamp has 1 entries; want n=2"},
	}
	for _, c := range cases {
		_, err := eventlog.Read(strings.NewReader(c.text), "x.jsonl")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	l := read(t, "testdata/suzuki-kasami.jsonl")
	var buf bytes.Buffer
	if err := eventlog.Write(&buf, l.Header, l.Events); err != nil {
		t.Fatal(err)
	}
	orig, _ := os.ReadFile("testdata/suzuki-kasami.jsonl")
	if buf.String() != string(orig) {
		t.Fatal("Write(Read(file)) differs from file")
	}
}
