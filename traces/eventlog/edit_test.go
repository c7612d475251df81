package eventlog_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// rawLog is a log as generic JSON objects, for editing in tests.
type rawLog struct {
	header map[string]any
	events []map[string]any
}

func loadRaw(t *testing.T, file string) *rawLog {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	r := &rawLog{}
	for k, line := range lines {
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("%s:%d: %v", file, k+1, err)
		}
		if k == 0 {
			r.header = m
		} else {
			r.events = append(r.events, m)
		}
	}
	return r
}

// text renders the log. With renumber, each process's seq is rewritten
// 1, 2, 3, ... and the vector timestamps are dropped (Read recomputes
// them from process order and message ids).
func (r *rawLog) text(renumber bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(r.header)
	seq := map[string]int{}
	for _, e := range r.events {
		c := map[string]any{}
		for k, v := range e {
			c[k] = v
		}
		if renumber {
			p := string(c["p"].(json.Number))
			seq[p]++
			c["seq"] = seq[p]
			delete(c, "vc")
		}
		enc.Encode(c)
	}
	return b.String()
}

// find returns the index of the first event with the given fields.
func (r *rawLog) find(t *testing.T, fields map[string]string) int {
	t.Helper()
	for i, e := range r.events {
		ok := true
		for k, v := range fields {
			if got, _ := json.Marshal(e[k]); strings.Trim(string(got), `"`) != v {
				ok = false
			}
		}
		if ok {
			return i
		}
	}
	t.Fatalf("no event with %v", fields)
	return -1
}

func clone(m map[string]any) map[string]any {
	c := map[string]any{}
	for k, v := range m {
		c[k] = v
	}
	return c
}

func readText(t *testing.T, text string) *eventlog.Log {
	t.Helper()
	l, err := eventlog.Read(strings.NewReader(text), "edited.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return l
}
