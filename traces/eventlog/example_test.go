package eventlog_test

import (
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// skTwoLog is a hand-written log of Suzuki-Kasami with two processes: P1
// requests, P0 (the initial holder, Idle) sends it the token, P1 enters.
const skTwoLog = `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1}}
{"p":1,"seq":1,"kind":"request"}
{"p":1,"seq":2,"kind":"send","msg":"REQ(P1->P0, sn=1)","mid":"a","to":0}
{"p":0,"seq":1,"kind":"receive","msg":"REQ(P1->P0, sn=1)","mid":"a","from":1}
{"p":0,"seq":2,"kind":"send","msg":"TOKEN(->P1, LN=[0,0], Q=[])","mid":"b","to":1}
{"p":1,"seq":3,"kind":"receive","msg":"TOKEN(->P1, LN=[0,0], Q=[])","mid":"b","from":0}
{"p":1,"seq":4,"kind":"enter"}
`

// A hand-written log of Suzuki-Kasami with two processes: P1 requests, P0
// (the initial holder, Idle) sends it the token, P1 enters. Then the same
// log with P1 entering before the token arrives.
func Example() {
	good := skTwoLog
	bad := strings.Replace(good, `{"p":1,"seq":2,"kind":"send","msg":"REQ(P1->P0, sn=1)","mid":"a","to":0}`,
		`{"p":1,"seq":2,"kind":"send","msg":"REQ(P1->P0, sn=1)","mid":"a","to":0}`+"\n"+`{"p":1,"seq":3,"kind":"enter"}`, 1)
	bad = strings.Replace(bad, `"seq":3,"kind":"receive"`, `"seq":4,"kind":"receive"`, 1)
	bad = strings.Replace(bad, `{"p":1,"seq":4,"kind":"enter"}`, `{"p":1,"seq":5,"kind":"enter"}`, 1)
	a, v, _ := algorithms.Lookup("suzuki-kasami")
	sys, _, _ := a.Build(v.Name, map[string]int{"n": 2, "r": 1})
	for _, text := range []string{good, bad} {
		l, err := eventlog.Read(strings.NewReader(text), "example")
		if err != nil {
			fmt.Println(err)
			return
		}
		res := eventlog.Validate(sys, l)
		if res.OK {
			fmt.Printf("ok: %d events in %d steps\n", res.Events, res.Steps)
		} else {
			fmt.Printf("%s: %s\n", res.Failed, res.Reason)
		}
	}
	// Output:
	// ok: 6 events in 3 steps
	// line 4 (P1 #3 enter): the log has P1 enter its CS but the model's step Request(P1) does not enter, nor does any earlier step of P1 whose effects are not all logged (P1 is Waiting after it); every step of P1 taken so far has all its effects logged; P1 (Waiting) could do: Deliver TOKEN(->P1, LN=[0,0], Q=[])
}

// A partial log: a lock service that records only requests, entries and
// exits, with one clock for all processes. P1 enters while P0, which
// entered first, has not yet left; no behaviour of Suzuki-Kasami does
// that. Without the overlap (P0's exit before P1's entry) the log is
// consistent: the search fills in the messages the log leaves out.
func ExampleValidate_partial() {
	text := `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1},"observed":{"kinds":["request","enter","exit"]}}
{"p":0,"seq":1,"kind":"request","t_ns":10}
{"p":0,"seq":2,"kind":"enter","t_ns":11}
{"p":1,"seq":1,"kind":"request","t_ns":20}
{"p":0,"seq":3,"kind":"exit","t_ns":EXIT}
{"p":1,"seq":2,"kind":"enter","t_ns":40}
`
	a, v, _ := algorithms.Lookup("suzuki-kasami")
	sys, _, _ := a.Build(v.Name, map[string]int{"n": 2, "r": 1})
	for _, exit := range []string{"30", "50"} {
		l, err := eventlog.Read(strings.NewReader(strings.Replace(text, "EXIT", exit, 1)), "cs.jsonl")
		if err != nil {
			fmt.Println(err)
			return
		}
		res := eventlog.Validate(sys, l, eventlog.Options{Witness: true})
		if res.OK {
			fmt.Printf("exit at %s: consistent, explained by a behaviour of %d steps\n", exit, len(res.Path)-1)
		} else {
			fmt.Printf("exit at %s: %s cannot be explained\n", exit, res.Failed)
		}
	}
	// Output:
	// exit at 30: consistent, explained by a behaviour of 5 steps
	// exit at 50: line 6 (P1 #2 enter) cannot be explained
}

// A log written by a concurrent program: P1's CS loop logs its entry
// after its receiver has already logged P0's request, which arrived once
// the token had. The step that entered is the receive of the token; its
// enter is logged late. The default check explains the log; the atomic
// check (Options.Atomic, every effect right after its trigger) does not.
func ExampleValidate_concurrent() {
	text := `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1}}
{"p":1,"seq":1,"kind":"request"}
{"p":1,"seq":2,"kind":"send","msg":"REQ(P1->P0, sn=1)","mid":"a","to":0}
{"p":0,"seq":1,"kind":"receive","msg":"REQ(P1->P0, sn=1)","mid":"a","from":1}
{"p":0,"seq":2,"kind":"send","msg":"TOKEN(->P1, LN=[0,0], Q=[])","mid":"b","to":1}
{"p":1,"seq":3,"kind":"receive","msg":"TOKEN(->P1, LN=[0,0], Q=[])","mid":"b","from":0}
{"p":0,"seq":3,"kind":"request"}
{"p":0,"seq":4,"kind":"send","msg":"REQ(P0->P1, sn=1)","mid":"c","to":1}
{"p":1,"seq":4,"kind":"receive","msg":"REQ(P0->P1, sn=1)","mid":"c","from":0}
{"p":1,"seq":5,"kind":"enter"}
{"p":1,"seq":6,"kind":"exit"}
{"p":1,"seq":7,"kind":"send","msg":"TOKEN(->P0, LN=[0,1], Q=[])","mid":"d","to":0}
{"p":0,"seq":5,"kind":"receive","msg":"TOKEN(->P0, LN=[0,1], Q=[])","mid":"d","from":1}
{"p":0,"seq":6,"kind":"enter"}
`
	a, v, _ := algorithms.Lookup("suzuki-kasami")
	sys, _, _ := a.Build(v.Name, map[string]int{"n": 2, "r": 1})
	l, err := eventlog.Read(strings.NewReader(text), "concurrent.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, atomic := range []bool{false, true} {
		res := eventlog.Validate(sys, l, eventlog.Options{Atomic: atomic})
		if res.OK {
			fmt.Printf("atomic %v: ok, %d events in %d steps\n", atomic, res.Events, res.Steps)
		} else {
			fmt.Printf("atomic %v: %s cannot be explained\n", atomic, res.Failed)
		}
	}
	// Output:
	// atomic false: ok, 13 events in 7 steps
	// atomic true: line 6 (P1 #3 receive TOKEN(->P1, LN=[0,0], Q=[])) cannot be explained
}
