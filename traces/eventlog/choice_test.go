package eventlog_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// testdata/any-order.jsonl was recorded by 'tokenmc run --algo
// suzuki-kasami/any-order --n 3 --r 2 --seed 4': P0 leaves its CS with P1
// and P2 waiting and appends them as [2,1], so it sends the token to P2
// with Q=[1] (line 15). Suzuki-Kasami as the default model appends in
// ascending order ([1,2]: the token to P1 with Q=[2]).
const anyOrderLog = "testdata/any-order.jsonl"

var anyOrderParams = map[string]int{"n": 3, "r": 2}

// The log of an implementation that appends in another order than
// ascending validates against the model that allows every order, and is
// rejected, at that Exit's send, by the model that appends in ascending
// order.
func TestValidateTakesTheLoggedAlternative(t *testing.T) {
	anyOrder := system(t, "suzuki-kasami/any-order", anyOrderParams)
	plain := system(t, "suzuki-kasami", anyOrderParams)
	l := read(t, anyOrderLog)
	res := eventlog.Validate(anyOrder, l)
	if !res.OK || res.Events != len(l.Events) || res.Events != 48 || res.Steps != 27 {
		t.Fatalf("any-order: ok=%v events=%d of %d steps=%d: %v: %s", res.OK, res.Events, len(l.Events), res.Steps, res.Failed, res.Reason)
	}
	// The Exit that appended [2,1] is the second of its two alternatives
	// (alternative 1 is ascending); its effect is the token to P2.
	found := false
	for _, x := range res.Order {
		if x.Label == "Exit(P0) (alternative 2 of 2)" {
			found = true
			if len(x.Step.Effects) != 1 || x.Step.Effects[0].Msg != "TOKEN(->P2, LN=[0,0,0], Q=[1])" {
				t.Fatalf("the Exit that appends [2,1] has effects %v", x.Step.Effects)
			}
		}
	}
	if !found {
		t.Fatal("no step of the interleaving is Exit(P0) (alternative 2 of 2)")
	}

	res = eventlog.Validate(plain, l)
	if res.OK || res.Undecided || res.Failed == nil || res.Failed.Line != 15 || res.Failed.Kind != eventlog.KindSend ||
		!strings.Contains(res.Reason, "the log sends TOKEN(->P2, LN=[0,0,0], Q=[1]) but the model's step Exit(P0) does not") {
		t.Fatalf("against suzuki-kasami: ok=%v undecided=%v at %v: %s", res.OK, res.Undecided, res.Failed, res.Reason)
	}
}

// An Exit whose token carries an order no alternative produces (P2
// twice: appended [2,2]) is rejected at that send, with the count of
// alternatives tried.
func TestValidateRejectsAnOrderNoAlternativeHas(t *testing.T) {
	anyOrder := system(t, "suzuki-kasami/any-order", anyOrderParams)
	r := loadRaw(t, anyOrderLog)
	k := r.find(t, map[string]string{"kind": "send", "mid": "0.1"})
	r.events[k]["msg"] = "TOKEN(->P2, LN=[0,0,0], Q=[2])"
	res := eventlog.Validate(anyOrder, readText(t, r.text(false)))
	if res.OK || res.Undecided || res.Failed == nil || res.Failed.Line != 15 ||
		!strings.Contains(res.Reason, "Exit(P0) (alternative 1 of 2)") || !strings.Contains(res.Reason, "none of the step's other 1 alternatives produces the logged effects either") {
		t.Fatalf("ok=%v undecided=%v at %v: %s", res.OK, res.Undecided, res.Failed, res.Reason)
	}
}

// A partial log (here: no receives, the sends kept, counted or not)
// is searched with every alternative: it is consistent with
// any-order, through the second alternative of P0's Exit, and not with
// the ascending model.
func TestPartialSearchTriesEveryAlternative(t *testing.T) {
	anyOrder := system(t, "suzuki-kasami/any-order", anyOrderParams)
	plain := system(t, "suzuki-kasami", anyOrderParams)
	full := loadRaw(t, anyOrderLog)
	for _, counted := range []bool{true, false} {
		p := partialOf(full, []string{"request", "enter", "exit", "send"}, nil, counted)
		l := readText(t, p.text(false))
		res := eventlog.Validate(anyOrder, l, eventlog.Options{Witness: true})
		if !res.OK || res.Events != len(l.Events) {
			t.Fatalf("counted=%v: any-order: ok=%v undecided=%v events=%d: %v: %s", counted, res.OK, res.Undecided, res.Events, res.Failed, res.Reason)
		}
		// the witness, checked with the global worker, goes through the
		// Exit that appends [2,1]
		w := anyOrder.NewWorker()
		labels := []string{}
		for k := 0; k+1 < len(res.Path); k++ {
			found := false
			w.Successors(res.Path[k], func(tr *model.Transition, next []byte) bool {
				if bytes.Equal(next, res.Path[k+1]) {
					found = true
					labels = append(labels, w.Label(res.Path[k], tr))
					return false
				}
				return true
			})
			if !found {
				t.Fatalf("counted=%v: witness step %d is not a transition of the model", counted, k+1)
			}
		}
		if !strings.Contains(strings.Join(labels, "\n"), "Exit(P0) (alternative 2 of 2)") {
			t.Fatalf("counted=%v: the witness does not take Exit(P0)'s second alternative: %v", counted, labels)
		}
		res = eventlog.Validate(plain, l, eventlog.Options{})
		if res.OK || res.Undecided || res.Failed == nil {
			t.Fatalf("counted=%v: against suzuki-kasami: ok=%v undecided=%v failed=%v", counted, res.OK, res.Undecided, res.Failed)
		}
	}
}

// testdata/any-order-n4.jsonl: 'tokenmc run --algo
// suzuki-kasami/any-order --n 4 --r 2 --seed 1'. P3's first Exit finds
// the three others waiting and appends [2,1,0]: the token goes to P2 with
// Q=[1,0] (line 34, message id 3.4). When the log gives that token only
// as {"kind":"TOKEN"}, the orders [2,1,0] and [2,0,1] both produce the
// logged effects (a token to P2) with different messages: the full log's
// check answers undecided, naming the step and the remedy, and the
// remedy, the log declared partial, is searched to a verdict.
func TestValidateAmbiguousAlternatives(t *testing.T) {
	params := map[string]int{"n": 4, "r": 2}
	anyOrder := system(t, "suzuki-kasami/any-order", params)
	r := loadRaw(t, "testdata/any-order-n4.jsonl")
	if res := eventlog.Validate(anyOrder, readText(t, r.text(false))); !res.OK {
		t.Fatalf("the recorded log: %v: %s", res.Failed, res.Reason)
	}
	for _, kind := range []string{"send", "receive"} {
		k := r.find(t, map[string]string{"kind": kind, "mid": "3.4"})
		if !strings.HasPrefix(r.events[k]["msg"].(string), "TOKEN(->P2,") {
			t.Fatalf("the %s of 3.4 is %v", kind, r.events[k]["msg"])
		}
		r.events[k]["msg"] = json.RawMessage(`{"kind":"TOKEN"}`)
	}
	l := readText(t, r.text(false))
	res := eventlog.Validate(anyOrder, l)
	if res.OK || !res.Undecided || res.Failed != nil ||
		!strings.Contains(res.Reason, "2 of the 6 alternatives of the model's step Exit(P3) (alternatives 5, 6) produce the logged effects") ||
		!strings.Contains(res.Reason, `"observed"`) || !strings.HasPrefix(res.Reason, "line 33 ") {
		t.Fatalf("ok=%v undecided=%v failed=%v: %s", res.OK, res.Undecided, res.Failed, res.Reason)
	}
	// Followed as it is written, the checker stops at that step.
	c, err := eventlog.NewChecker(anyOrder, l.Header, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.StopEarly, c.VCGiven = true, true
	stopped := 0
	for k := range l.Events {
		if c.Add(&l.Events[k]) {
			stopped = l.Events[k].Line
			break
		}
	}
	if fres := c.Finish(); !fres.Undecided || fres.Reason != res.Reason || stopped == 0 || stopped >= l.Events[len(l.Events)-1].Line {
		t.Fatalf("followed: stopped at line %d, undecided=%v: %s", stopped, fres.Undecided, fres.Reason)
	}
	// The remedy the message names: the same log declared partial.
	r.header["observed"] = map[string]any{"seq_counts_all": true}
	res = eventlog.Validate(anyOrder, readText(t, r.text(false)), eventlog.Options{})
	if !res.OK {
		t.Fatalf("declared partial: ok=%v undecided=%v: %v: %s", res.OK, res.Undecided, res.Failed, res.Reason)
	}
}
