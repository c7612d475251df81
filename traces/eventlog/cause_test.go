package eventlog_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// In a full log, "cause" names the trigger (request, exit, receive,
// timer) whose step an effect belongs to: naming a send is bad input
// (Read's error, exit 2), not a divergence with a misleading reason;
// naming P1's receive of the token validates.
func TestCauseMustNameATrigger(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	for _, c := range []struct {
		cause int
		bad   string
	}{{2, "is no trigger"}, {5, ""}} {
		r := loadRaw(t, "testdata/suzuki-kasami.jsonl")
		i := r.find(t, map[string]string{"p": "1", "kind": "enter"})
		r.events[i]["cause"] = json.Number(jsonInt(c.cause))
		l, err := eventlog.Read(strings.NewReader(r.text(false)), "cause.jsonl")
		if c.bad != "" {
			if err == nil || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("cause %d (a send): read error %v, want one saying %q", c.cause, err, c.bad)
			}
			continue
		}
		if err != nil {
			t.Fatalf("cause %d (the token's receive): %v", c.cause, err)
		}
		if res := eventlog.Validate(sys, l); !res.OK {
			t.Errorf("cause %d (the token's receive): %s", c.cause, res.Reason)
		}
	}
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }
