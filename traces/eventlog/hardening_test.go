package eventlog_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// Issue 12: a header with a huge n is a one-line error, before anything of
// size n is allocated (vector clocks are n x n).
func TestReadRejectsHugeN(t *testing.T) {
	for _, n := range []string{"1000000000000", "1001", "0", "-3"} {
		text := `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":` + n + `}}` + "\n" + `{"p":0,"seq":1,"kind":"request"}` + "\n"
		_, err := eventlog.Read(strings.NewReader(text), "big.jsonl")
		if err == nil || !strings.Contains(err.Error(), "big.jsonl:1: the header's params need \"n\" in 1..1000") {
			t.Errorf("n=%s: err = %v", n, err)
		}
	}
}

// Issue 12: a line over the reader's limit is reported with its line.
func TestReadLongLineHasLineNumber(t *testing.T) {
	header := `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1}}` + "\n"
	text := header + `{"p":0,"seq":1,"kind":"request"}` + "\n" + `{"p":0,"seq":2,"kind":"exit","x":"` + strings.Repeat("a", eventlog.MaxLineBytes) + "\"}\n"
	_, err := eventlog.Read(strings.NewReader(text), "long.jsonl")
	if err == nil || !strings.HasPrefix(err.Error(), "long.jsonl:3: the line is longer than") {
		t.Fatalf("err = %v", err)
	}
}

// Issue 12: validate rejects a log with one more or one less event than
// the run it pretends to record, each at the right event and for the
// right reason. Each edit is checked to be still a well-formed log.
func TestValidateRejectsMalformedSteps(t *testing.T) {
	good := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	base := loadRaw(t, "testdata/suzuki-kasami.jsonl")
	if res := eventlog.Validate(good, readText(t, base.text(true))); !res.OK {
		t.Fatalf("the renumbered log itself does not validate: %s: %s", res.Failed, res.Reason)
	}
	cases := []struct {
		name string
		edit func(r *rawLog)
		kind string // kind of the event named
		p    int
		why  string
		// with steps that may be logged non-atomically (the default),
		// when the event named or the reason differ
		rkind, rwhy string
	}{
		{"two enters in one step", func(r *rawLog) {
			i := r.find(t, map[string]string{"p": "0", "kind": "enter"})
			r.events = append(r.events[:i+1], append([]map[string]any{clone(r.events[i])}, r.events[i+1:]...)...)
		}, "enter", 0, "the log has P0 enter its CS twice in one step", "enter", "the log has P0 enter its CS twice: P0 is in its CS in the model"},
		{"enter removed", func(r *rawLog) {
			i := r.find(t, map[string]string{"p": "0", "kind": "enter"})
			r.events = append(r.events[:i], r.events[i+1:]...)
		}, "request", 0, "the model's step Request(P0) enters P0's CS but the log has no enter",
			"exit", "the log has P0 exit its CS, but the model's step Request(P0) (line 2) enters P0's CS and the log has no enter before this exit"},
		{"send to the wrong process", func(r *rawLog) {
			i := r.find(t, map[string]string{"mid": "2.1", "kind": "send"})
			r.events[i]["to"] = json.Number("1")
		}, "send", 2, "the log sends REQ(P2->P0, sn=1) to P1, but the model's step Request(P2) sends it to P0", "", ""},
		{"receive of an id never sent", func(r *rawLog) {
			i := r.find(t, map[string]string{"mid": "2.1", "kind": "receive"})
			r.events[i]["mid"] = "9.9"
		}, "receive", 0, `message id "9.9" was never sent`, "", ""},
		{"receive of an id already received", func(r *rawLog) {
			i := r.find(t, map[string]string{"mid": "2.1", "kind": "receive"})
			j := r.find(t, map[string]string{"mid": "1.4", "kind": "receive"})
			r.events[j]["mid"] = "2.1"
			r.events[j]["msg"] = r.events[i]["msg"]
			r.events[j]["from"] = json.Number("2")
		}, "receive", 0, `message id "2.1" was already received at line`, "", ""},
		{"wrong from", func(r *rawLog) {
			i := r.find(t, map[string]string{"mid": "1.1", "kind": "receive"})
			r.events[i]["from"] = json.Number("2")
		}, "receive", 0, `the receive says from P2, but message id "1.1" was sent by P1`, "", ""},
		{"receive names another copy", func(r *rawLog) {
			i := r.find(t, map[string]string{"mid": "2.1", "kind": "receive"})
			r.events[i]["mid"] = "1.1"
			r.events[i]["from"] = json.Number("1")
		}, "receive", 0, `the receive's msg REQ(P2->P0, sn=1) is not the message REQ(P1->P0, sn=1) sent with id "1.1"`, "", ""},
	}
	for _, c := range cases {
		for _, atomic := range []bool{true, false} {
			r := loadRaw(t, "testdata/suzuki-kasami.jsonl")
			c.edit(r)
			res := eventlog.Validate(good, readText(t, r.text(true)), eventlog.Options{Atomic: atomic})
			if res.OK {
				t.Errorf("%s (atomic %v): accepted", c.name, atomic)
				continue
			}
			kind, why := c.kind, c.why
			if !atomic && c.rkind != "" {
				kind, why = c.rkind, c.rwhy
			}
			if res.Failed == nil || res.Failed.Kind != kind || res.Failed.P != c.p || !strings.Contains(res.Reason, why) {
				t.Errorf("%s (atomic %v): failed at %v: %s\nwant a %s of P%d: %s", c.name, atomic, res.Failed, res.Reason, kind, c.p, why)
			}
		}
	}
}

// Issue 12: validation respects the recorded happens-before order. The
// two logs below have the same events; in the second, P0's receive of
// P1's request claims (by its vector timestamp) to happen after P1 entered
// its CS. P1 can enter only with the token P0 sends after that receive,
// so the only interleaving the model allows contradicts the timestamps.
func TestValidateRespectsHappensBefore(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})
	head := `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1}}` + "\n"
	log := func(recvVC, sendVC string) string {
		return head +
			`{"p":1,"seq":1,"kind":"request","vc":[0,1]}` + "\n" +
			`{"p":1,"seq":2,"kind":"send","msg":"REQ(P1->P0, sn=1)","mid":"a","to":0,"vc":[0,2]}` + "\n" +
			`{"p":0,"seq":1,"kind":"receive","msg":"REQ(P1->P0, sn=1)","mid":"a","from":1,"vc":` + recvVC + `}` + "\n" +
			`{"p":0,"seq":2,"kind":"send","msg":"TOKEN(->P1, LN=[0,0], Q=[])","mid":"b","to":1,"vc":` + sendVC + `}` + "\n" +
			`{"p":1,"seq":3,"kind":"receive","msg":"TOKEN(->P1, LN=[0,0], Q=[])","mid":"b","from":0,"vc":[2,3]}` + "\n" +
			`{"p":1,"seq":4,"kind":"enter","vc":[2,4]}` + "\n"
	}
	if res := eventlog.Validate(sys, readText(t, log("[1,2]", "[2,2]"))); !res.OK {
		t.Fatalf("consistent timestamps: %s: %s", res.Failed, res.Reason)
	}
	// Such timestamps contradict the messages (P1's receive of "b" does
	// not cover the timestamp of its send): the reader rejects the log.
	if _, err := eventlog.Read(strings.NewReader(log("[1,4]", "[2,4]")), "cyclic.jsonl"); err == nil || !strings.Contains(err.Error(), `cyclic.jsonl:6: message "b": the receive's vector timestamp`) {
		t.Fatalf("timestamps that contradict the messages: %v", err)
	}
	// Given to the checker anyway (as a program could, without Read),
	// the log is rejected where the timestamps block it.
	l := &eventlog.Log{Header: readText(t, log("[1,2]", "[2,2]")).Header, VCGiven: true}
	for _, line := range strings.Split(strings.TrimSpace(log("[1,4]", "[2,4]")), "\n")[1:] {
		var e eventlog.Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		e.Line = len(l.Events) + 2
		l.Events = append(l.Events, e)
	}
	for _, atomic := range []bool{true, false} {
		res := eventlog.Validate(sys, l, eventlog.Options{Atomic: atomic})
		if res.OK {
			t.Fatal("a log whose only explanation contradicts its happens-before order was accepted")
		}
		if res.Failed.Line != 4 || !strings.Contains(res.Reason, "happens after events that cannot be explained: P1's events up to #4 (only 2 explained)") {
			t.Fatalf("atomic %v: failed at %v: %s", atomic, res.Failed, res.Reason)
		}
	}
}

// Following a log: the checker reports a divergence as soon as the
// diverging step is complete, long before the end of the log.
func TestCheckerStopsEarly(t *testing.T) {
	good := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	r := loadRaw(t, "testdata/suzuki-kasami.jsonl")
	i := r.find(t, map[string]string{"mid": "1.1", "kind": "receive"})
	r.events[i]["from"] = json.Number("2")
	l := readText(t, r.text(false))
	c, err := eventlog.NewChecker(good, l.Header, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.StopEarly, c.VCGiven = true, true
	stopped := -1
	for k := range l.Events {
		if c.Add(&l.Events[k]) {
			stopped = l.Events[k].Line
			break
		}
	}
	res := c.Finish()
	if stopped < 0 || stopped > 16 || res.OK || res.Failed.Line != 12 {
		t.Fatalf("stopped at line %d of %d; failed at %v: %s", stopped, len(l.Events)+1, res.Failed, res.Reason)
	}
}
