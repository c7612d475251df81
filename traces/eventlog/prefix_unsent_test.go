package eventlog_test

import (
	"os"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// Without vector timestamps a receive may come before its send in the
// file (testdata/receive-before-send.jsonl: a recorded Suzuki-Kasami log
// without vc, P0's send of the token moved after P1's receive of it; the
// whole log is a behaviour). A prefix cut between the two is still a
// prefix of a behaviour's log: no verdict (undecided), never a violation;
// with Complete (the log says it is whole) the missing send is one.
func TestPrefixCutBetweenReceiveAndSend(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	if res := eventlog.Validate(sys, read(t, "testdata/receive-before-send.jsonl")); !res.OK {
		t.Fatalf("the whole log: %s; want ok", res.Reason)
	}
	data, err := os.ReadFile("testdata/receive-before-send.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	prefix := strings.Join(lines[:15], "") // ends with P1's receive of the token
	l, err := eventlog.Read(strings.NewReader(prefix), "prefix.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	res := eventlog.Validate(sys, l)
	if res.OK || !res.Undecided || res.Failed != nil || !strings.Contains(res.Reason, "never sent") {
		t.Errorf("the prefix: ok=%v undecided=%v failed=%v %s; want undecided", res.OK, res.Undecided, res.Failed, res.Reason)
	}
	res = eventlog.Validate(sys, l, eventlog.Options{Complete: true})
	if res.Failed == nil || res.Failed.Line != 15 {
		t.Errorf("the prefix said whole: failed=%v %s; want a divergence at line 15", res.Failed, res.Reason)
	}
}
