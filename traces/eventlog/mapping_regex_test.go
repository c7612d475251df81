package eventlog_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// The tests of message and process patterns rewrite a log recorded by
// 'tokenmc run' into a program's own wire format (process names node-1,
// node-2, ...; messages "REQ1" and "TOKEN q=[2] ln=[0 1 0]") and read it
// back through a mapping: the same log in other words must validate the
// same, and a change of one number in the foreign words must be caught.

const regexMapping = `{
  "process_patterns": [{"regex": "node-(?P<p>[0-9]+)", "first": 1}],
  "message_patterns": [
    {"regex": "REQ(?P<sn>[0-9]+)", "kind": "REQ"},
    {"regex": "(?P<kind>TOKEN) q=(?P<q>\\[[0-9 ]*\\]) ln=(?P<ln>\\[[0-9 ]*\\])"}
  ]
}`

var (
	renderedREQ   = regexp.MustCompile(`^REQ\(P\d+->P\d+, sn=(\d+)\)$`)
	renderedTOKEN = regexp.MustCompile(`^TOKEN\(->P\d+, LN=\[([0-9,]*)\], Q=\[([0-9,]*)\]\)$`)
)

// foreign rewrites the recorded log text into the program's own words.
func foreign(t *testing.T, text string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(text), "\n")
	out := []string{lines[0]}
	for _, line := range lines[1:] {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"p", "to", "from"} {
			if v, ok := e[k].(float64); ok {
				e[k] = fmt.Sprintf("node-%d", int(v)+1)
			}
		}
		if s, ok := e["msg"].(string); ok {
			if m := renderedREQ.FindStringSubmatch(s); m != nil {
				e["msg"] = "REQ" + m[1]
			} else if m := renderedTOKEN.FindStringSubmatch(s); m != nil {
				e["msg"] = fmt.Sprintf("TOKEN q=[%s] ln=[%s]", strings.ReplaceAll(m[2], ",", " "), strings.ReplaceAll(m[1], ",", " "))
			} else {
				t.Fatalf("unexpected message %q", s)
			}
		}
		b, _ := json.Marshal(e)
		out = append(out, string(b))
	}
	return strings.Join(out, "\n") + "\n"
}

func parseMapping(t *testing.T, text string) *eventlog.Mapping {
	t.Helper()
	m, err := eventlog.ParseMapping([]byte(text), "map.json")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMessagePatternsReadAForeignWireFormat(t *testing.T) {
	data, err := os.ReadFile("testdata/suzuki-kasami.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	text := foreign(t, string(data))
	if !strings.Contains(text, `"p":"node-3"`) || !strings.Contains(text, `"msg":"REQ1"`) || !strings.Contains(text, `"msg":"TOKEN q=[`) {
		t.Fatalf("the rewrite did not produce the foreign format:\n%s", text[:400])
	}
	m := parseMapping(t, regexMapping)
	sys := system(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	if err := m.CheckModel(sys); err != nil {
		t.Fatalf("CheckModel: %v", err)
	}
	l, err := m.Read(strings.NewReader(text), "foreign.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	orig := eventlog.Validate(sys, read(t, "testdata/suzuki-kasami.jsonl"))
	res := eventlog.Validate(sys, l)
	if !res.OK || res.Events != orig.Events || res.Steps != orig.Steps {
		t.Fatalf("foreign log: ok=%v events=%d steps=%d (the original: %d, %d): %v %s", res.OK, res.Events, res.Steps, orig.Events, orig.Steps, res.Failed, res.Reason)
	}
	// The structured messages carry the numbers: a REQ's number and a
	// token's queue changed in the foreign words are caught where they are.
	for _, c := range []struct{ from, to string }{{`"REQ1"`, `"REQ2"`}, {`q=[] ln=[`, `q=[1] ln=[`}} {
		k := strings.Index(text, c.from)
		if k < 0 {
			t.Fatalf("no %s in the log", c.from)
		}
		line := 1 + strings.Count(text[:k], "\n")
		bad := text[:k] + c.to + text[k+len(c.from):]
		l, err := m.Read(strings.NewReader(bad), "foreign.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if res := eventlog.Validate(sys, l); res.OK || res.Failed == nil || res.Failed.Line > line {
			t.Fatalf("%s changed to %s at line %d: ok=%v at %v: %s", c.from, c.to, line, res.OK, res.Failed, res.Reason)
		}
	}
}

func TestCaptureValues(t *testing.T) {
	m := parseMapping(t, `{"processes":{"alpha":4},"fields":{"n":"sn"},"messages":{"Ask":"REQ"},"message_patterns":[
 {"regex":"(?P<kind>\\w+) from=(?P<from>\\S+) n=(?P<n>\\S+) v=(?P<v>.*?)( opt=(?P<opt>\\d+))?"}]}`)
	line := `{"p":0,"seq":1,"kind":"receive","msg":"%s","mid":"1.1","from":1}`
	for _, c := range []struct{ msg, want string }{
		{"Ask from=alpha n=12 v=[1, 2,3]", `{"from":4,"kind":"REQ","sn":12,"v":[1,2,3]}`},
		{"Ask from=node n=-3 v=[[1 2] [3]] opt=7", `error: process "node"`},
		{"Ask from=P2 n=x v=true", `{"from":2,"kind":"REQ","sn":"x","v":true}`},
		{"Ask from=3 n=0 v=[]", `{"from":3,"kind":"REQ","sn":0,"v":[]}`},
		{"Ask from=3 n=0 v=hello world opt=9", `{"from":3,"kind":"REQ","opt":9,"sn":0,"v":"hello world"}`},
		{"Ask from=3 n=0 v=[[1 2] [3]]", `{"from":3,"kind":"REQ","sn":0,"v":[[1,2],[3]]}`},
		{"Ask from=3 n=0 v=[1] [2]", `{"from":3,"kind":"REQ","sn":0,"v":"[1] [2]"}`},
		{"Ask from=3 n=0 v=[[[[[[[[[1]]]]]]]]]", `{"from":3,"kind":"REQ","sn":0,"v":[[[[[[[["[1]"]]]]]]]]}`},
		{"nothing like it", `error: matches none of the mapping's message_patterns (tried "(?P<kind>`},
	} {
		text := `{"format":"tokenmc-eventlog","version":1,"algorithm":"x","params":{"n":5}}` + "\n" + fmt.Sprintf(line, c.msg) + "\n"
		l, err := m.Read(strings.NewReader(text), "f.jsonl")
		if want, ok := strings.CutPrefix(c.want, "error: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "f.jsonl:2: ") {
				t.Errorf("%q: got %v, want an error at f.jsonl:2 with %q", c.msg, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.msg, err)
			continue
		}
		if got := l.Events[0].Msg; got != c.want {
			t.Errorf("%q: msg %s, want %s", c.msg, got, c.want)
		}
	}
}

func TestProcessPatterns(t *testing.T) {
	m := parseMapping(t, `{"processes":{"boss":0},"process_patterns":[{"regex":"worker(?P<p>\\d+)","first":1},{"regex":"w-(?P<p>\\w+)"}]}`)
	text := `{"format":"tokenmc-eventlog","version":1,"algorithm":"x","params":{"n":5}}` + "\n" + `{"p":%s,"seq":1,"kind":"request"}` + "\n"
	for _, c := range []struct{ name, want string }{
		{`"boss"`, "0"}, {`"worker1"`, "0"}, {`"worker4"`, "3"}, {`2`, "2"}, {`"P3"`, "3"},
		{`"worker0"`, `is P-1 by the process pattern "worker(?P<p>\\d+)" (first 1)`},
		{`"w-x"`, `its group p is "x", not a decimal number`},
		{`"xworker2"`, `process "xworker2" is not in the mapping's processes and matches none of its process_patterns (tried "worker(?P<p>\\d+)", "w-(?P<p>\\w+)")`},
	} {
		l, err := m.Read(strings.NewReader(fmt.Sprintf(text, c.name)), "f.jsonl")
		if err != nil {
			if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "f.jsonl:2: ") {
				t.Errorf("%s: %v; want %s", c.name, err, c.want)
			}
			continue
		}
		if got := fmt.Sprint(l.Events[0].P); got != c.want {
			t.Errorf("%s: P%s, want %s", c.name, got, c.want)
		}
	}
}

func TestBadPatterns(t *testing.T) {
	for _, c := range []struct{ mapping, want string }{
		{`{"message_patterns":[{"regex":"REQ(?P<sn>[0-9]+","kind":"REQ"}]}`, `map.json: message_patterns[0]: "REQ(?P<sn>[0-9]+" is not a regular expression (Go's RE2 syntax): missing closing )`},
		{`{"message_patterns":[{"regex":"","kind":"REQ"}]}`, `"regex" is empty`},
		{`{"message_patterns":[{"regex":"REQ(?P<sn>[0-9]+)"}]}`, `message_patterns[0] "REQ(?P<sn>[0-9]+)" says no kind`},
		{`{"message_patterns":[{"regex":"(?P<kind>REQ)","kind":"REQ"}]}`, `has both "kind" "REQ" and a group that gives the kind`},
		{`{"process_patterns":[{"regex":"node-([0-9]+)"}]}`, `process_patterns[0] "node-([0-9]+)" has no group named p`},
		{`{"process_patterns":[{"regex":"(?P<p>[0-9]+)-(?P<q>[0-9]+)"}]}`, `has a group named "q"`},
		{`{"process_patterns":[{"regex":"node-(?P<p>[0-9]+"}]}`, `process_patterns[0]: "node-(?P<p>[0-9]+" is not a regular expression`},
		{`{"message_patterns":[{"regex":"x","kind":"REQ","extra":1}]}`, `unknown field "extra"`},
	} {
		_, err := eventlog.ParseMapping([]byte(c.mapping), "map.json")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.mapping, err, c.want)
		}
	}
}

func TestCheckModelNamesTheModelsFields(t *testing.T) {
	sys := system(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})
	for _, c := range []struct{ mapping, want string }{
		{`{"message_patterns":[{"regex":"REQ(?P<seqno>[0-9]+)","kind":"REQ"}]}`, `message_patterns[0] "REQ(?P<seqno>[0-9]+)": group "seqno" is not a field of the model's REQ messages (fields: sn)`},
		{`{"fields":{"seqno":"sn"},"message_patterns":[{"regex":"REQ(?P<seqno>[0-9]+)","kind":"REQ"}]}`, ``},
		{`{"messages":{"Ask":"REQ"},"message_patterns":[{"regex":"ask(?P<sn>[0-9]+)","kind":"Ask"}]}`, ``},
		{`{"message_patterns":[{"regex":"TOKEN (?P<ln>.*) (?P<queue>.*)","kind":"TOKEN"}]}`, `group "queue" is not a field of the model's TOKEN messages (fields: ln, q)`},
		{`{"message_patterns":[{"regex":"REQUEST(?P<sn>[0-9]+)","kind":"REQUEST"}]}`, `has kind "REQUEST", but the model suzuki-kasami has no such message; its kinds: req, token`},
		{`{"message_patterns":[{"regex":"(?P<kind>\\w+) (?P<sn>[0-9]+) (?P<from>\\d) (?P<to>\\d)"}]}`, ``},
		{`{"message_patterns":[{"regex":"(?P<kind>\\w+) (?P<rn>[0-9]+)"}]}`, `group "rn" is not a field of any of the model's messages (req, token)`},
	} {
		err := parseMapping(t, c.mapping).CheckModel(sys)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: got %v, want %q", c.mapping, err, c.want)
		}
	}
}

// A Mapping built in Go is compiled before use; reading with one that is
// not is an error, not a panic.
func TestMappingBuiltInGo(t *testing.T) {
	m := &eventlog.Mapping{MessagePatterns: []eventlog.MessagePattern{{Regex: "REQ(?P<sn>[0-9]+)", Kind: "REQ"}}}
	text := `{"format":"tokenmc-eventlog","version":1,"algorithm":"x","params":{"n":2}}` + "\n" + `{"p":0,"seq":1,"kind":"receive","msg":"REQ4","mid":"a","from":1}` + "\n"
	if _, err := m.Read(strings.NewReader(text), "f.jsonl"); err == nil || !strings.Contains(err.Error(), "call Mapping.Compile first") {
		t.Fatalf("uncompiled: %v", err)
	}
	if err := m.CheckModel(system(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})); err == nil {
		t.Fatal("CheckModel of an uncompiled mapping: no error")
	}
	if err := m.Compile(); err != nil {
		t.Fatal(err)
	}
	l, err := m.Read(strings.NewReader(text), "f.jsonl")
	if err != nil || l.Events[0].Msg != `{"kind":"REQ","sn":4}` {
		t.Fatalf("compiled: %v %v", err, l)
	}
}
