package eventlog_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// Issue 21: a full log whose receive carries a vector timestamp below its
// send's contradicts its own messages; it was accepted for Suzuki-Kasami,
// Ricart-Agrawala and Raymond. The reader now rejects it at the receive
// (or at the send, when the receive comes first in the file).
func TestReceiveClockMustCoverSend(t *testing.T) {
	for _, algo := range relaxedAlgos {
		sys := buildSys(t, algo, 3, 2)
		text := string(concurrentLog(t, algo, 3, 2, 60, rand.New(rand.NewPCG(1, 1)), false))
		if _, res := validateText(t, sys, text, eventlog.Options{}); !res.OK {
			t.Fatalf("%s: the log itself: %v: %s", algo, res.Failed, res.Reason)
		}
		lines := strings.Split(strings.TrimSpace(text), "\n")
		lowered := false
		for k, line := range lines[1:] {
			var e map[string]any
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatal(err)
			}
			if e["kind"] != "receive" || e["from"] == nil {
				continue
			}
			from := int(e["from"].(float64))
			vc := e["vc"].([]any)
			if vc[from].(float64) < 1 {
				continue
			}
			// one less of the sender's events than its send carries
			vc[from] = vc[from].(float64) - 1
			b, _ := json.Marshal(e)
			bad := append(append([]string{}, lines...), "")
			bad[k+1] = string(b)
			_, err := eventlog.Read(strings.NewReader(strings.Join(bad, "\n")), "bad.jsonl")
			want := fmt.Sprintf("bad.jsonl:%d: message %q: the receive's vector timestamp", k+2, e["mid"])
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "does not cover its send's") {
				t.Fatalf("%s: a receive whose clock is below its send's: %v", algo, err)
			}
			lowered = true
			break
		}
		if !lowered {
			t.Fatalf("%s: no receive in the log", algo)
		}
	}
}

// csOnly projects a full log on its requests, entries and exits, without
// vector timestamps, with seq counting every event (seq_counts_all).
func csOnly(t *testing.T, text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	var h map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil {
		t.Fatal(err)
	}
	h["observed"] = map[string]any{"kinds": []string{"request", "enter", "exit"}, "seq_counts_all": true}
	b, _ := json.Marshal(h)
	out := []string{string(b)}
	for _, line := range lines[1:] {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		switch e["kind"] {
		case "request", "enter", "exit":
			delete(e, "vc")
			delete(e, "lamport")
			b, _ := json.Marshal(e)
			out = append(out, string(b))
		}
	}
	return strings.Join(out, "\n") + "\n"
}

// Issue 21: the CS-only projection of a correct Ricart-Agrawala run (no
// clocks, seq_counts_all) was rejected at an enter that needs another
// process's unrecorded steps after that process's last recorded event
// (its REPLY). testdata/ricart-agrawala.jsonl was recorded by 'tokenmc
// run --algo ricart-agrawala --n 3 --r 3 --seed 5' and validates in
// full, so its projection, and every prefix of the projection, are
// observations of a behaviour.
func TestCSOnlyProjectionOfRicartAgrawala(t *testing.T) {
	sys := system(t, "ricart-agrawala", map[string]int{"n": 3, "r": 3})
	full := read(t, "testdata/ricart-agrawala.jsonl")
	if res := eventlog.Validate(sys, full); !res.OK {
		t.Fatalf("the full log: %v: %s", res.Failed, res.Reason)
	}
	var raw strings.Builder
	if err := eventlog.Write(&raw, full.Header, full.Events); err != nil {
		t.Fatal(err)
	}
	proj := csOnly(t, raw.String())
	lines := strings.SplitAfter(proj, "\n")
	for k := 1; k <= len(lines); k++ {
		_, res := validateText(t, sys, strings.Join(lines[:k], ""), eventlog.Options{})
		if !res.OK {
			t.Fatalf("the projection's first %d lines: %v: %s", k, res.Failed, res.Reason)
		}
	}
	// and of generated runs of the three algorithms
	for _, algo := range relaxedAlgos {
		sys := buildSys(t, algo, 3, 2)
		for seed := range uint64(15) {
			text := string(concurrentLog(t, algo, 3, 2, 80, rand.New(rand.NewPCG(seed, 7)), false))
			if _, res := validateText(t, sys, csOnly(t, text), eventlog.Options{}); !res.OK {
				t.Fatalf("%s seed %d: %v: %s", algo, seed, res.Failed, res.Reason)
			}
		}
	}
}

// A CS-only log in which only some processes request validates with a
// note that names the others.
func TestNoteProcessesThatNeverRequested(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	text := `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":3,"r":2},"observed":{"kinds":["request","enter","exit"]}}
{"p":0,"seq":1,"kind":"request","t_ns":1}
{"p":0,"seq":2,"kind":"enter","t_ns":2}
{"p":0,"seq":3,"kind":"exit","t_ns":3}
`
	_, res := validateText(t, sys, text, eventlog.Options{})
	if !res.OK || len(res.Notes) != 1 || !strings.HasPrefix(res.Notes[0], "P1, P2 never requested the CS in this log") {
		t.Fatalf("ok=%v notes %q", res.OK, res.Notes)
	}
	// P1 asks and the log ends: a note, not a violation
	_, res = validateText(t, sys, text+`{"p":1,"seq":1,"kind":"request","t_ns":4}`+"\n", eventlog.Options{})
	if !res.OK || len(res.Notes) != 2 || !strings.HasPrefix(res.Notes[1], "P1's request (line 5) is not served by the end of the log") {
		t.Fatalf("ok=%v notes %q", res.OK, res.Notes)
	}
}

// Options.Complete: a log cut after a request whose token is on its way
// is a prefix (ok), but not a complete run: the request is never served,
// and the model serves it by delivering the messages in transit.
func TestCompleteReportsUnservedRequests(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	full := read(t, "testdata/suzuki-kasami.jsonl")
	if res := eventlog.Validate(sys, full, eventlog.Options{Complete: true}); !res.OK || len(res.Unserved) != 0 {
		t.Fatalf("the complete run: %v: %s %v", res.Failed, res.Reason, res.Unserved)
	}
	// the log up to (and with) P2's receive of P1's request: P1 waits
	var cut []eventlog.Event
	for _, e := range full.Events {
		cut = append(cut, e)
		if e.P == 2 && e.Kind == eventlog.KindReceive && e.MID == "1.2" {
			break
		}
	}
	l := &eventlog.Log{Header: full.Header, Events: cut, VCGiven: true}
	if res := eventlog.Validate(sys, l, eventlog.Options{}); !res.OK {
		t.Fatalf("the prefix: %v: %s", res.Failed, res.Reason)
	}
	res := eventlog.Validate(sys, l, eventlog.Options{Complete: true})
	if res.OK || res.Failed == nil || res.Failed.Kind != eventlog.KindRequest || !strings.Contains(res.Reason, "the log ends without P") ||
		!strings.Contains(res.Reason, "the model serves that request") || len(res.Unserved) == 0 {
		t.Fatalf("complete: ok=%v at %v: %s (unserved %q)", res.OK, res.Failed, res.Reason, res.Unserved)
	}
}

// Options.Complete: a step whose sends the log never shows is a
// divergence that says what the step sends and what the log shows.
func TestCompleteReportsEffectsNeverLogged(t *testing.T) {
	sys := system(t, "ricart-agrawala", map[string]int{"n": 3, "r": 3})
	full := read(t, "testdata/ricart-agrawala.jsonl")
	// P0's first request and the first of its REQUESTs only
	var cut []eventlog.Event
	sends := 0
	for _, e := range full.Events {
		if e.P != 0 {
			continue
		}
		if e.Kind == eventlog.KindSend {
			if sends++; sends > 1 {
				break
			}
		}
		cut = append(cut, e)
	}
	l := &eventlog.Log{Header: full.Header, Events: cut, VCGiven: true}
	if res := eventlog.Validate(sys, l, eventlog.Options{}); !res.OK {
		t.Fatalf("the prefix: %v: %s", res.Failed, res.Reason)
	}
	res := eventlog.Validate(sys, l, eventlog.Options{Complete: true})
	want := fmt.Sprintf("the model's step Request(P0) (line %d) sends REQUEST(P0->P1, sn=1), REQUEST(P0->P2, sn=1); the log shows the send to P%d only", cut[0].Line, *cut[1].To)
	if res.OK || len(res.Divergences) == 0 || !strings.Contains(res.Divergences[0].Reason, want) {
		t.Fatalf("complete: ok=%v %+v", res.OK, res.Divergences)
	}
}

// Options.All reports every divergence: two independent edits of a log
// are both found.
func TestAllReportsEveryDivergence(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	r := loadRaw(t, "testdata/suzuki-kasami.jsonl")
	var enters []int
	for k, e := range r.events {
		if e["kind"] == "enter" {
			enters = append(enters, k)
		}
	}
	// duplicate the first and the last enter
	first, last := enters[0], enters[len(enters)-1]
	r.events = append(r.events[:last+1], append([]map[string]any{clone(r.events[last])}, r.events[last+1:]...)...)
	r.events = append(r.events[:first+1], append([]map[string]any{clone(r.events[first])}, r.events[first+1:]...)...)
	l := readText(t, r.text(true))
	one := eventlog.Validate(sys, l, eventlog.Options{})
	res := eventlog.Validate(sys, l, eventlog.Options{All: true})
	if one.OK || res.OK || len(res.Divergences) != 2 || res.Failed != one.Failed ||
		res.Divergences[0].Event.Kind != eventlog.KindEnter || res.Divergences[1].Event.Kind != eventlog.KindEnter ||
		!strings.Contains(res.Divergences[1].Reason, "enter its CS twice") {
		t.Fatalf("one: %v: %s\nall: %+v", one.Failed, one.Reason, res.Divergences)
	}
}

// The optional field thread: a send is an effect of the latest earlier
// trigger of its process with the same thread. P0's token goes out from
// its receiver thread, in the step of the receive of P1's request; said
// to come from P0's main thread, whose latest step (its exit, with no
// one waiting) sends nothing, it is rejected there.
func TestThreadGroupsSends(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})
	log := func(tokenThread string) string {
		return `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1}}
{"p":0,"seq":1,"kind":"request","thread":"main","t_ns":1}
{"p":0,"seq":2,"kind":"enter","thread":"main","t_ns":2}
{"p":0,"seq":3,"kind":"exit","thread":"main","t_ns":3}
{"p":1,"seq":1,"kind":"request","thread":"main","t_ns":4}
{"p":1,"seq":2,"kind":"send","msg":{"kind":"REQ"},"mid":"a","to":0,"thread":"main","t_ns":5}
{"p":0,"seq":4,"kind":"receive","msg":{"kind":"REQ"},"mid":"a","from":1,"thread":"recv","t_ns":6}
{"p":0,"seq":5,"kind":"send","msg":{"kind":"TOKEN"},"mid":"b","to":1,"thread":"` + tokenThread + `","t_ns":7}
{"p":1,"seq":3,"kind":"receive","msg":{"kind":"TOKEN"},"mid":"b","from":0,"thread":"recv","t_ns":8}
{"p":1,"seq":4,"kind":"enter","thread":"main","t_ns":9}
`
	}
	for _, th := range []string{"recv", "other"} { // a thread with no trigger: no constraint
		if _, res := validateText(t, sys, log(th), eventlog.Options{}); !res.OK {
			t.Fatalf("thread %s: %v: %s", th, res.Failed, res.Reason)
		}
	}
	_, res := validateText(t, sys, log("main"), eventlog.Options{})
	if res.OK || res.Failed == nil || res.Failed.Line != 8 || !strings.Contains(res.Reason, "the log sends") {
		t.Fatalf("thread main: ok=%v at %v: %s", res.OK, res.Failed, res.Reason)
	}
}

// A process whose steps' effects the log never shows piles up owed
// effects; past the bound the check stops, undecided (bounded memory).
// Suzuki-Kasami with 3 processes: P0 and P1 pass the token back and
// forth, and never log the copy of their request sent to P2, which no
// one needs.
func TestOwedEffectsAreBounded(t *testing.T) {
	a, v, _ := algorithms.Lookup("suzuki-kasami")
	sys, _, err := a.BuildSim(v.Name, map[string]int{"n": 3, "r": 20000})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":3,"r":20000}}` + "\n")
	seq := [3]int{}
	ev := func(p int, rest string) {
		seq[p]++
		fmt.Fprintf(&b, `{"p":%d,"seq":%d,%s}`+"\n", p, seq[p], rest)
	}
	round := func(asker, holder, k int) {
		ev(asker, `"kind":"request"`)
		ev(asker, fmt.Sprintf(`"kind":"send","msg":{"kind":"REQ"},"mid":"q%d.%d","to":%d`, asker, k, holder))
		ev(holder, fmt.Sprintf(`"kind":"receive","msg":{"kind":"REQ"},"mid":"q%d.%d","from":%d`, asker, k, asker))
		ev(holder, fmt.Sprintf(`"kind":"send","msg":{"kind":"TOKEN"},"mid":"t%d.%d","to":%d`, holder, k, asker))
		ev(asker, fmt.Sprintf(`"kind":"receive","msg":{"kind":"TOKEN"},"mid":"t%d.%d","from":%d`, holder, k, holder))
		ev(asker, `"kind":"enter"`)
		ev(asker, `"kind":"exit"`)
	}
	for k := 1; k <= 1001; k++ {
		round(1, 0, k)
		round(0, 1, k)
	}
	l, err := eventlog.Read(strings.NewReader(b.String()), "owed.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// the first rounds are a behaviour (a prefix: the copies to P2 may
	// be logged later)
	short := &eventlog.Log{Header: l.Header, Events: l.Events[:14*50], VCGiven: l.VCGiven}
	if res := eventlog.Validate(sys, short, eventlog.Options{}); !res.OK {
		t.Fatalf("50 rounds: %v: %s", res.Failed, res.Reason)
	}
	res := eventlog.Validate(sys, l, eventlog.Options{})
	if res.OK || !res.Undecided || !strings.Contains(res.Reason, "steps whose effects the log has not shown yet") {
		t.Fatalf("ok=%v undecided=%v at %v: %s", res.OK, res.Undecided, res.Failed, res.Reason)
	}
}
