package eventlog_test

import (
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// Validate without options keeps the interleaving (Options{KeepOrder:
// true}); with an Options it uses that one (KeepOrder false: no order);
// two Options are the caller's bug and panic (the log: skTwoLog).
func TestValidateOptions(t *testing.T) {
	a, v, err := algorithms.Lookup("suzuki-kasami")
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.Build(v.Name, map[string]int{"n": 2, "r": 1})
	if err != nil {
		t.Fatal(err)
	}
	l, err := eventlog.Read(strings.NewReader(skTwoLog), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// Three steps: P1's request, P0's receive, P1's receive.
	if res := eventlog.Validate(sys, l); !res.OK || len(res.Order) != 3 {
		t.Errorf("without options: ok %v, %d steps in the order, want ok and 3", res.OK, len(res.Order))
	}
	if res := eventlog.Validate(sys, l, eventlog.Options{}); !res.OK || res.Order != nil {
		t.Errorf("with Options{}: ok %v, %d steps in the order, want ok and none kept", res.OK, len(res.Order))
	}
	defer func() {
		if recover() == nil {
			t.Error("two Options did not panic")
		}
	}()
	eventlog.Validate(sys, l, eventlog.Options{}, eventlog.Options{KeepOrder: true})
}
