package traces

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

func net(msgs ...any) *model.StateDescription {
	sd := &model.StateDescription{}
	for i := 0; i < len(msgs); i += 2 {
		sd.Network = append(sd.Network, model.MessageDescription{Message: msgs[i].(string), Count: msgs[i+1].(int)})
	}
	return sd
}

// TestSentMessages: sent = after - before + removed, per message, so a
// step that delivers a message and sends an identical one still reports
// the send.
func TestSentMessages(t *testing.T) {
	tests := []struct {
		name          string
		before, after *model.StateDescription
		removed       string
		want          []string
	}{
		{"nothing", net(), net(), "", nil},
		{"one", net(), net("A", 1), "", []string{"A"}},
		{"broadcast copies", net("A", 1), net("A", 3, "B", 1), "", []string{"A", "A", "B"}},
		{"deliver, no send", net("A", 2), net("A", 1), "A", nil},
		{"deliver and resend the same", net("A", 1), net("A", 1), "A", []string{"A"}},
		{"deliver and send another", net("A", 1, "B", 1), net("B", 2), "A", []string{"B"}},
	}
	for _, tc := range tests {
		if got := sentMessages(tc.before, tc.after, tc.removed); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestVarChanges(t *testing.T) {
	tests := []struct {
		before, after string
		want          string
	}{
		{`{"a":1,"b":[1,2]}`, `{"a":1,"b":[1,2]}`, ""},
		{`{"a":1,"b":[1,2]}`, `{"a": 2, "b": [1, 3]}`, "a 1 -> 2; b [1,2] -> [1,3]"},
		{`{"a":1}`, `{"b":true}`, "b (none) -> true; a 1 -> (none)"},
		{`3`, `4`, "vars 3 -> 4"},
		{``, `{"a":1}`, "a (none) -> 1"},
	}
	for _, tc := range tests {
		var got []string
		for _, c := range varChanges(json.RawMessage(tc.before), json.RawMessage(tc.after)) {
			got = append(got, c.String())
		}
		if s := strings.Join(got, "; "); s != tc.want {
			t.Errorf("varChanges(%s, %s) = %q, want %q", tc.before, tc.after, s, tc.want)
		}
	}
}

func TestStateDiff(t *testing.T) {
	p := func(phase string, vars string) model.ProcessDescription {
		return model.ProcessDescription{Phase: phase, Vars: json.RawMessage(vars)}
	}
	want := &model.StateDescription{Processes: []model.ProcessDescription{p("InCS", `{"x":1}`), p("Idle", `{}`)}}
	got := &model.StateDescription{Processes: []model.ProcessDescription{p("Waiting", `{"x":2}`), p("Idle", `{}`)},
		Network: []model.MessageDescription{{Message: "M", Count: 2}}}
	const msg = "P0: phase InCS in the trace, Waiting in the replay; x 1 in the trace, 2 in the replay; only the replay has in transit M x2"
	if s := stateDiff(want, got); s != msg {
		t.Errorf("stateDiff:\n got %s\nwant %s", s, msg)
	}
}

// TestJSONTree: the parser keeps key order and raw scalars, and inline
// rendering gives back equivalent JSON.
func TestJSONTree(t *testing.T) {
	const in = ` { "b" : [1, -2.5e3, "x\"y\\", {"k\u00e9": null}], "a": {}, "c": [true,false] } `
	n, err := parseJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"b": [1, -2.5e3, "x\"y\\", {"k\u00e9": null}], "a": {}, "c": [true, false]}`
	if got := n.inline(", "); got != want {
		t.Errorf("inline:\n got %s\nwant %s", got, want)
	}
	var x, y any
	if json.Unmarshal([]byte(in), &x) != nil || json.Unmarshal([]byte(n.inline(",")), &y) != nil || !reflect.DeepEqual(x, y) {
		t.Errorf("compact inline form is not the same JSON value: %s", n.inline(","))
	}
	if n.keys[0].name != "b" || n.keys[0].off != 3 || n.kids[0].start != 9 {
		t.Errorf("positions: key %+v, value at %d", n.keys[0], n.kids[0].start)
	}
	for _, bad := range []string{``, `{`, `[1,`, `{"a" 1}`, `"abc`, `[1] x`} {
		if _, err := parseJSON([]byte(bad)); err == nil {
			t.Errorf("parseJSON(%q) succeeded", bad)
		}
	}
}

// TestLayout: a value stays on one line while it fits in lineWidth columns.
func TestLayout(t *testing.T) {
	long := `{"a":[` + strings.Repeat(`"xxxxxxxxxx",`, 12) + `"y"],"b":[1,2]}`
	n, err := parseJSON([]byte(long))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	layout(&b, n, 0, 0)
	want := "{\n  \"a\": [\n" + strings.Repeat("    \"xxxxxxxxxx\",\n", 12) + "    \"y\"\n  ],\n  \"b\": [1, 2]\n}"
	if b.String() != want {
		t.Errorf("layout:\n%s\nwant:\n%s", b.String(), want)
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if len(l) > lineWidth {
			t.Errorf("line longer than %d: %s", lineWidth, l)
		}
	}
}

// Changes from nothing lists every field of every process, in a state
// table's order, with Before empty and without the fault count; between
// two states, only what differs.
func TestChangesFromNothing(t *testing.T) {
	after := &model.StateDescription{FaultsUsed: 1, Processes: []model.ProcessDescription{
		{ID: 0, Phase: "InCS", Made: 1, HoldsToken: true, Vars: json.RawMessage(`{"rn":[1,0],"q":[]}`)},
		{ID: 1, Phase: "Idle", Vars: json.RawMessage(`3`)},
	}}
	var got []string
	for _, c := range Changes(nil, after) {
		if c.Before != "" {
			t.Errorf("%v: Before %q, want empty", c, c.Before)
		}
		got = append(got, c.String())
	}
	want := []string{
		"P0: phase  -> InCS", "P0: made  -> 1", "P0: group  -> 0", "P0: holds_token  -> true", "P0: rn  -> [1,0]", "P0: q  -> []",
		"P1: phase  -> Idle", "P1: made  -> 0", "P1: group  -> 0", "P1: holds_token  -> false", "P1: vars  -> 3",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Changes(nil, after) =\n%q\nwant\n%q", got, want)
	}
	before := *after
	before.Processes = []model.ProcessDescription{after.Processes[0], {ID: 1, Phase: "Waiting", Vars: json.RawMessage(`3`)}}
	before.FaultsUsed = 0
	if got := Changes(&before, after); len(got) != 2 || got[0].String() != "P1: phase Waiting -> Idle" || got[1].String() != "faults_used 0 -> 1" {
		t.Errorf("Changes(before, after) = %v, want P1's phase and the fault count", got)
	}
}
