package eventlog_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// FuzzReadValidate feeds arbitrary bytes to the reader and, when they
// parse, to the validator (full or partial, with a small search budget).
// Neither may panic, and every read error names the file and line. The
// seed corpus is every log shipped under testdata (here and in the
// history package), plus their partial and structured variants.
//
//	go test ./traces/eventlog -run '^$' -fuzz FuzzReadValidate -fuzztime 10m
func FuzzReadValidate(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	more, _ := filepath.Glob("../history/testdata/*.jsonl")
	for _, file := range append(files, more...) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		// A partial variant of each: CS events only, counted.
		var b bytes.Buffer
		for k, line := range strings.Split(string(data), "\n") {
			if k == 0 {
				line = strings.Replace(line, `"params"`, `"observed":{"kinds":["request","enter","exit"],"seq_counts_all":true},"params"`, 1)
			} else if !strings.Contains(line, `"request"`) && !strings.Contains(line, `"enter"`) && !strings.Contains(line, `"exit"`) {
				continue
			}
			b.WriteString(line + "\n")
		}
		f.Add(b.Bytes())
	}
	f.Add([]byte(`{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1}}
{"p":1,"seq":1,"kind":"request"}
{"p":1,"seq":2,"kind":"send","msg":{"kind":"REQ","sn":1},"mid":"a","to":0}
{"p":0,"seq":1,"kind":"receive","msg":{"kind":"REQ","sn":[1,[2]]},"mid":"a","from":1}
`))
	mapping, err := eventlog.ParseMapping([]byte(`{"processes":{"a":0,"b":1,"c":2},"events":{"acquire":"request"},"messages":{"Ask":"REQ"},"fields":{"type":"kind","seq":"sn"}}`), "m")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := mapping.Read(bytes.NewReader(data), "f"); err != nil && !strings.HasPrefix(err.Error(), "f:") {
			t.Fatalf("error without file:line (with a mapping): %v", err)
		}
		l, err := eventlog.Read(bytes.NewReader(data), "f")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("error without file:line: %v", err)
			}
			return
		}
		a, v, err := algorithms.Lookup(l.Header.Algorithm)
		if err != nil {
			return
		}
		sys, _, err := a.BuildSim(v.Name, l.Header.Params)
		if err != nil {
			return
		}
		res := eventlog.Validate(sys, l, eventlog.Options{MaxStates: 20000})
		if !res.OK && !res.Undecided && res.Reason == "" {
			t.Fatalf("rejected without a reason")
		}
	})
}
