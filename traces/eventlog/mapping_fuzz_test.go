package eventlog_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// FuzzMappingPatterns reads a one-event log through a mapping with a
// message pattern: whatever the pattern and the message, the answer is a
// translated event or an error naming the line (bad input), never a
// panic; a translated message is a structured message with a kind.
func FuzzMappingPatterns(f *testing.F) {
	f.Add(`REQ(?P<sn>[0-9]+)`, "REQ13")
	f.Add(`TOKEN q=(?P<q>\[.*\]) ln=(?P<ln>.*)`, "TOKEN q=[2 1] ln=[3 0 1]")
	f.Add(`(?P<kind>\w+) (?P<v>.*)`, "X [[[[[[[[[[[1]]]]]]]]]]]")
	f.Add(`(?P<kind>\w+) (?P<from>\S+)`, "X node-9")
	f.Add(`(?P<kind>\w*)(?P<a>.*)`, "")
	f.Fuzz(func(t *testing.T, regex, msg string) {
		mapping := `{"process_patterns":[{"regex":"node-(?P<p>[0-9]+)"}],"message_patterns":[{"regex":` + quote(regex) + `,"kind":"K"},{"regex":".*","kind":"ANY"}]}`
		m, err := eventlog.ParseMapping([]byte(mapping), "m.json")
		if err != nil {
			return // a pattern that does not compile, or gives a kind twice
		}
		text := `{"format":"tokenmc-eventlog","version":1,"algorithm":"x","params":{"n":3}}` + "\n" +
			`{"p":"node-1","seq":1,"kind":"receive","msg":` + quote(msg) + `,"mid":"a","from":"node-2"}` + "\n"
		l, err := m.Read(strings.NewReader(text), "f.jsonl")
		if err != nil {
			var le *eventlog.LineError
			if !errors.As(err, &le) || le.Line != 2 {
				t.Fatalf("error without its line: %v", err)
			}
			return
		}
		if e := l.Events[0]; e.P != 1 || !e.Structured() || !strings.Contains(e.Msg, `"kind":`) {
			t.Fatalf("translated to %+v", e)
		}
	})
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
