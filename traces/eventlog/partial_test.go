package eventlog_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// partialOf keeps the events of the given kinds (and processes, if any)
// and declares them in the header. counted keeps the seq and vc of the
// full log (seq_counts_all); otherwise the vector timestamps are dropped
// and the t_ns order the events.
func partialOf(r *rawLog, kinds []string, procs []int, counted bool) *rawLog {
	keep := map[string]bool{}
	for _, k := range kinds {
		keep[k] = true
	}
	inProc := func(p json.Number) bool {
		if len(procs) == 0 {
			return true
		}
		for _, q := range procs {
			if p.String() == fmt.Sprint(q) {
				return true
			}
		}
		return false
	}
	out := &rawLog{header: clone(r.header)}
	obs := map[string]any{"kinds": kinds}
	if len(procs) > 0 {
		obs["processes"] = procs
	}
	if counted {
		obs["seq_counts_all"] = true
	}
	out.header["observed"] = obs
	for _, e := range r.events {
		if keep[e["kind"].(string)] && inProc(e["p"].(json.Number)) {
			c := clone(e)
			if !counted {
				delete(c, "vc")
			}
			out.events = append(out.events, c)
		}
	}
	return out
}

var csKinds = []string{"request", "enter", "exit"}

func TestPartialCSOnlyLogs(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	full := loadRaw(t, "testdata/suzuki-kasami.jsonl")
	for _, counted := range []bool{true, false} {
		p := partialOf(full, csKinds, nil, counted)
		l := readText(t, p.text(false))
		res := eventlog.Validate(sys, l, eventlog.Options{Witness: true})
		if !res.OK || res.Events != 18 {
			t.Fatalf("counted=%v: ok=%v events=%d undecided=%v: %v: %s", counted, res.OK, res.Events, res.Undecided, res.Failed, res.Reason)
		}
		checkWitness(t, sys, l, res.Path)
	}
}

// checkWitness checks, independently of the search, that path is a
// behaviour of sys (each state a successor of the one before) whose
// requests, entries and exits, process by process, are the log's.
func checkWitness(t *testing.T, sys model.System, l *eventlog.Log, path [][]byte) {
	t.Helper()
	w := sys.NewWorker()
	var init []byte
	w.Initial(func(s []byte) bool { init = append([]byte(nil), s...); return false })
	if !bytes.Equal(path[0], init) {
		t.Fatal("the witness does not start in the initial state")
	}
	got := make([][]string, l.N())
	for k := 0; k+1 < len(path); k++ {
		found := false
		w.Successors(path[k], func(tr *model.Transition, next []byte) bool {
			if !bytes.Equal(next, path[k+1]) {
				return true
			}
			found = true
			switch tr.Kind {
			case model.Request:
				got[tr.Proc] = append(got[tr.Proc], "request")
			case model.Exit:
				got[tr.Proc] = append(got[tr.Proc], "exit")
			}
			return false
		})
		if !found {
			t.Fatalf("witness step %d is not a transition of the model", k+1)
		}
		for p := range l.N() {
			if w.Snapshot(path[k]).Phase(p) != model.InCS && w.Snapshot(path[k+1]).Phase(p) == model.InCS {
				got[p] = append(got[p], "enter")
			}
		}
	}
	want := make([][]string, l.N())
	for _, e := range l.Events {
		want[e.P] = append(want[e.P], e.Kind)
	}
	for p := range want {
		if strings.Join(got[p], ",") != strings.Join(want[p], ",") {
			t.Fatalf("P%d: the witness does %v, the log %v", p, got[p], want[p])
		}
	}
}

// A one-event edit: P_a's exit is moved (in time) after the next entry of
// another process, so that the two CS stays overlap. Both forms of the
// partial log reject it, naming one of the two events.
func TestPartialRejectsOverlappingStays(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	full := loadRaw(t, "testdata/suzuki-kasami.jsonl")
	p := partialOf(full, csKinds, nil, false)
	exit, enter := overlapEdit(t, p)
	l := readText(t, p.text(false))
	res := eventlog.Validate(sys, l, eventlog.Options{})
	if res.OK || res.Undecided {
		t.Fatalf("overlapping CS stays: ok=%v undecided=%v", res.OK, res.Undecided)
	}
	if res.Failed.Line != exit+2 && res.Failed.Line != enter+2 {
		t.Fatalf("failed at %v (the edit was at lines %d and %d): %s", res.Failed, exit+2, enter+2, res.Reason)
	}
}

// overlapEdit changes the t_ns of the first exit that is followed by an
// entry of another process before the exiting process's next event, and
// returns the indexes of the exit and the entry.
func overlapEdit(t *testing.T, r *rawLog) (int, int) {
	num := func(e map[string]any, k string) int64 {
		v, _ := e[k].(json.Number).Int64()
		return v
	}
	for i, e := range r.events {
		if e["kind"] != "exit" {
			continue
		}
		nextOwn := int64(1 << 62)
		for _, f := range r.events[i+1:] {
			if f["p"] == e["p"] {
				nextOwn = num(f, "t_ns")
				break
			}
		}
		for j := i + 1; j < len(r.events); j++ {
			f := r.events[j]
			if f["kind"] == "enter" && f["p"] != e["p"] {
				if num(f, "t_ns")+1 < nextOwn {
					e["t_ns"] = json.Number(fmt.Sprint(num(f, "t_ns") + 1))
					// keep file order = time order
					r.events = append(r.events[:i], r.events[i+1:]...)
					r.events = append(r.events[:j], append([]map[string]any{e}, r.events[j:]...)...)
					return j, j - 1
				}
				break
			}
		}
	}
	t.Fatal("no exit to move")
	return 0, 0
}

func TestPartialUndecidedWithinBudget(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	p := partialOf(loadRaw(t, "testdata/suzuki-kasami.jsonl"), csKinds, nil, false)
	res := eventlog.Validate(sys, readText(t, p.text(false)), eventlog.Options{MaxStates: 5})
	if res.OK || !res.Undecided || res.Failed != nil || !strings.Contains(res.Reason, "the budget") {
		t.Fatalf("ok=%v undecided=%v failed=%v: %s", res.OK, res.Undecided, res.Failed, res.Reason)
	}
}

// Partial logs of other shapes: only some processes; messages without
// payloads; the send-in-cs mutant's log, CS events only, against the
// correct model, where P1 enters while P0 is still in its CS.
func TestPartialShapes(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	full := loadRaw(t, "testdata/suzuki-kasami.jsonl")
	someProcs := partialOf(full, []string{"request", "enter", "exit", "send", "receive"}, []int{0, 1}, true)
	noPayload := partialOf(full, []string{"request", "enter", "exit", "send", "receive"}, nil, true)
	for _, e := range noPayload.events {
		delete(e, "msg")
	}
	for name, r := range map[string]*rawLog{"P0 and P1 only": someProcs, "no payloads": noPayload} {
		res := eventlog.Validate(sys, readText(t, r.text(false)), eventlog.Options{})
		if !res.OK {
			t.Errorf("%s: %v: %s", name, res.Failed, res.Reason)
		}
	}
	// Counted, the log says P0 took two steps the log leaves out while in
	// its CS (it received P1's request and sent the token); the model
	// takes one, so P0's exit, at seq 6, is the first event it cannot explain.
	// By time alone, P0 enters (seq 11) while P1 is still in its CS.
	for _, c := range []struct {
		counted bool
		p       int
		kind    string
	}{{true, 0, "exit"}, {false, 0, "enter"}} {
		mut := partialOf(loadRaw(t, "testdata/send-in-cs.jsonl"), csKinds, nil, c.counted)
		res := eventlog.Validate(sys, readText(t, mut.text(false)), eventlog.Options{})
		if res.OK || res.Failed == nil || res.Failed.Kind != c.kind || res.Failed.P != c.p {
			t.Errorf("the mutant's CS-only log (counted=%v): ok=%v failed at %v: %s", c.counted, res.OK, res.Failed, res.Reason)
		}
	}
}

var renderedMsg = regexp.MustCompile(`^(\w+)\((?:P(\d+))?->P(\d+)(.*)\)$`)

// structured rewrites a rendered Suzuki-Kasami message as a structured
// one, by hand: REQ(P1->P0, sn=1) is {"kind":"REQ","sn":1}.
func structured(t *testing.T, s string) map[string]any {
	m := renderedMsg.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("cannot take %q apart", s)
	}
	out := map[string]any{"kind": m[1], "to": json.Number(m[3])}
	for _, f := range regexp.MustCompile(`(\w+)=(\[[^\]]*\]|\d+)`).FindAllStringSubmatch(m[4], -1) {
		var v any
		json.Unmarshal([]byte(f[2]), &v)
		out[strings.ToLower(f[1])] = v
	}
	return out
}

func TestStructuredMessages(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	r := loadRaw(t, "testdata/suzuki-kasami.jsonl")
	for _, e := range r.events {
		if s, ok := e["msg"].(string); ok {
			e["msg"] = structured(t, s)
		}
	}
	if res := eventlog.Validate(sys, readText(t, r.text(false))); !res.OK {
		t.Fatalf("structured: %v: %s", res.Failed, res.Reason)
	}
	// Fields left out are unconstrained.
	i := r.find(t, map[string]string{"mid": "0.1", "kind": "send"})
	r.events[i]["msg"] = map[string]any{"kind": "token"}
	if res := eventlog.Validate(sys, readText(t, r.text(false))); !res.OK {
		t.Fatalf("structured, fields left out: %v: %s", res.Failed, res.Reason)
	}
	// A wrong field is a wrong message.
	r.events[i]["msg"] = map[string]any{"kind": "TOKEN", "q": []any{json.Number("1")}}
	res := eventlog.Validate(sys, readText(t, r.text(false)))
	if res.OK || res.Failed.Line != i+2 || !strings.Contains(res.Reason, `the log sends {"kind":"TOKEN","q":[1]} but the model's step Exit(P0) does not`) {
		t.Fatalf("wrong field: %v: %s", res.Failed, res.Reason)
	}
	// The string form round-trips through Write; so does the object form.
	l := readText(t, r.text(false))
	var buf bytes.Buffer
	if err := eventlog.Write(&buf, l.Header, l.Events); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"msg":{"kind":"TOKEN","q":[1]}`) || !strings.Contains(buf.String(), `"msg":{"kind":"REQ","sn":1,"to":0}`) {
		t.Fatalf("Write does not keep structured messages as objects:\n%s", buf.String()[:600])
	}
	// encoding/json writes them as strings; Read takes those back as
	// structured messages, with the same verdict.
	var enc bytes.Buffer
	json.NewEncoder(&enc).Encode(l.Header)
	for k := range l.Events {
		json.NewEncoder(&enc).Encode(&l.Events[k])
	}
	if !strings.Contains(enc.String(), `"msg":"{\"kind\":\"TOKEN\",\"q\":[1]}"`) {
		t.Fatalf("encoding/json wrote %s", enc.String()[:400])
	}
	again := readText(t, enc.String())
	if res2 := eventlog.Validate(sys, again); res2.OK || res2.Failed.Line != res.Failed.Line || res2.Reason != res.Reason {
		t.Fatalf("string form: %v: %s", res2.Failed, res2.Reason)
	}
}

func TestMapping(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	r := loadRaw(t, "testdata/suzuki-kasami.jsonl")
	names := []string{"alpha", "beta", "gamma"}
	kinds := map[string]string{"request": "acquire", "enter": "acquired", "exit": "release", "send": "send", "receive": "recv"}
	for _, e := range r.events {
		for _, k := range []string{"p", "to", "from"} {
			if v, ok := e[k].(json.Number); ok {
				n, _ := v.Int64()
				e[k] = names[n]
			}
		}
		e["kind"] = kinds[e["kind"].(string)]
		if s, ok := e["msg"].(string); ok {
			m := structured(t, s)
			out := map[string]any{}
			for k, v := range m {
				switch k {
				case "kind":
					out["type"] = map[string]string{"REQ": "Ask", "TOKEN": "Baton"}[v.(string)]
				case "to":
					n, _ := v.(json.Number).Int64()
					out["dest"] = names[n]
				case "sn":
					out["number"] = v
				case "q":
					out["queue"] = v
				default:
					out[k] = v
				}
			}
			e["msg"] = out
		}
	}
	mapping := `{"processes":{"alpha":0,"beta":1,"gamma":2},"events":{"acquire":"request","acquired":"enter","release":"exit","recv":"receive"},
"messages":{"Ask":"REQ","Baton":"TOKEN"},"fields":{"type":"kind","dest":"to","number":"sn","queue":"q"}}`
	m, err := eventlog.ParseMapping([]byte(mapping), "map.json")
	if err != nil {
		t.Fatal(err)
	}
	l, err := m.Read(strings.NewReader(r.text(false)), "mapped.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if res := eventlog.Validate(sys, l); !res.OK || res.Events != 48 {
		t.Fatalf("mapped log: %v: %s", res.Failed, res.Reason)
	}
	if _, err := m.Read(strings.NewReader(strings.Replace(r.text(false), `"gamma"`, `"delta"`, 1)), "mapped.jsonl"); err == nil || !strings.Contains(err.Error(), `mapped.jsonl:`) || !strings.Contains(err.Error(), `process "delta" is not in the mapping`) {
		t.Fatalf("unknown name: %v", err)
	}
}

// A counted partial log is ordered by its vector timestamps, which count
// the events it leaves out: here P0's receive of P1's request claims to
// happen after P1's fourth event, its entry, which needs the token P0
// sends after that receive.
func TestPartialRespectsHappensBefore(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})
	log := func(recvVC string) string {
		return `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1},"observed":{"kinds":["request","enter","receive"],"seq_counts_all":true}}
{"p":1,"seq":1,"kind":"request","vc":[0,1]}
{"p":0,"seq":1,"kind":"receive","msg":"REQ(P1->P0, sn=1)","mid":"a","from":1,"vc":` + recvVC + `}
{"p":1,"seq":3,"kind":"receive","msg":"TOKEN(->P1, LN=[0,0], Q=[])","mid":"b","from":0,"vc":[2,3]}
{"p":1,"seq":4,"kind":"enter","vc":[2,4]}
`
	}
	if res := eventlog.Validate(sys, readText(t, log("[1,2]")), eventlog.Options{}); !res.OK {
		t.Fatalf("consistent: %v: %s", res.Failed, res.Reason)
	}
	res := eventlog.Validate(sys, readText(t, log("[1,4]")), eventlog.Options{})
	if res.OK || res.Undecided || res.Failed == nil {
		t.Fatalf("a log whose only explanation contradicts its vector timestamps: ok=%v undecided=%v", res.OK, res.Undecided)
	}
}

// The same without counts: every event is recorded, the header merely
// declares the log partial, so the search (not the step-by-step check)
// must respect the vector timestamps.
func TestPartialSearchRespectsHappensBefore(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})
	log := func(recvVC, sendVC string) string {
		return `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1},"observed":{"processes":[0,1]}}
{"p":1,"seq":1,"kind":"request","vc":[0,1]}
{"p":1,"seq":2,"kind":"send","msg":"REQ(P1->P0, sn=1)","mid":"a","to":0,"vc":[0,2]}
{"p":0,"seq":1,"kind":"receive","msg":"REQ(P1->P0, sn=1)","mid":"a","from":1,"vc":` + recvVC + `}
{"p":0,"seq":2,"kind":"send","msg":"TOKEN(->P1, LN=[0,0], Q=[])","mid":"b","to":1,"vc":` + sendVC + `}
{"p":1,"seq":3,"kind":"receive","msg":"TOKEN(->P1, LN=[0,0], Q=[])","mid":"b","from":0,"vc":[2,3]}
{"p":1,"seq":4,"kind":"enter","vc":[2,4]}
`
	}
	if res := eventlog.Validate(sys, readText(t, log("[1,2]", "[2,2]")), eventlog.Options{}); !res.OK {
		t.Fatalf("consistent: %v: %s", res.Failed, res.Reason)
	}
	// Such timestamps are a cycle (P1's receive of "b" is before P1's
	// fourth event, which is before "b" is sent): the reader rejects them.
	if _, err := eventlog.Read(strings.NewReader(log("[1,4]", "[2,4]")), "cyclic.jsonl"); err == nil || !strings.Contains(err.Error(), `cyclic.jsonl:6: message "b": the receive's vector timestamp [2 3] (line 6) does not cover its send's [2 4] (line 5)`) {
		t.Fatalf("a log whose timestamps contradict its messages: %v", err)
	}
}
