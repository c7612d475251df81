package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A log of Suzuki-Kasami (n=2, r=1) in a program's own words: processes
// node-1 and node-2, messages "REQ1" and "TOKEN q=[] ln=[0 0]". P0 holds
// the token, enters and leaves; P1 asks for it, P0 (idle, LN[1]+1 = 1)
// sends it, P1 enters.
const foreignLog = `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1}}
{"p":"node-1","seq":1,"kind":"request"}
{"p":"node-1","seq":2,"kind":"enter"}
{"p":"node-1","seq":3,"kind":"exit"}
{"p":"node-2","seq":1,"kind":"request"}
{"p":"node-2","seq":2,"kind":"send","msg":"REQ1","mid":"a","to":"node-1"}
{"p":"node-1","seq":4,"kind":"receive","msg":"REQ1","mid":"a","from":"node-2"}
{"p":"node-1","seq":5,"kind":"send","msg":"TOKEN q=[] ln=[0 0]","mid":"b","to":"node-2"}
{"p":"node-2","seq":3,"kind":"receive","msg":"TOKEN q=[] ln=[0 0]","mid":"b","from":"node-1"}
{"p":"node-2","seq":4,"kind":"enter"}
{"p":"node-2","seq":5,"kind":"exit"}
`

const foreignMapping = `{
  "process_patterns": [{"regex": "node-(?P<p>[0-9]+)", "first": 1}],
  "message_patterns": [
    {"regex": "REQ(?P<sn>[0-9]+)", "kind": "REQ"},
    {"regex": "TOKEN q=(?P<q>\\[[0-9 ]*\\]) ln=(?P<ln>\\[[0-9 ]*\\])", "kind": "TOKEN"}
  ]
}`

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// validate, history and show read the foreign log through --mapping, and
// refuse it without one.
func TestMappingOnEveryLogCommand(t *testing.T) {
	dir := writeFiles(t, map[string]string{"run.jsonl": foreignLog, "map.json": foreignMapping})
	log, mapping := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "map.json")
	r := runCLI(t, "validate", log, "--mapping", mapping, "--json")
	r.wantCode(t, exitOK)
	if v := r.jsonObject(t); v["ok"] != true || v["events"] != 10.0 {
		t.Fatalf("validate: %v", v)
	}
	r = runCLI(t, "history", log, "--mapping", mapping, "--json")
	r.wantCode(t, exitOK)
	if v := r.jsonObject(t); v["linearizable"] != true || v["operations"] != 4.0 { // two acquires, two releases
		t.Fatalf("history: %v", v)
	}
	r = runCLI(t, "show", log, "--mapping", mapping)
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, `Deliver {"kind":"TOKEN","ln":[0,0],"q":[]}`) || !strings.Contains(r.stdout, "a behaviour of the model") {
		t.Fatalf("show: the chart does not show the token in the model's names:\n%s", r.stdout)
	}
	for _, cmd := range []string{"validate", "history", "show"} {
		r := runCLI(t, cmd, log)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, "run.jsonl:2:")
	}
	// Files that are not event logs have no names to translate.
	r = runCLI(t, "history", "../internal/history/testdata/linearizable.jsonl", "--mapping", mapping)
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "--mapping translates event logs")
	r = runCLI(t, "show", "testdata/suzuki-kasami_send-in-cs.mutex.trace.json", "--mapping", mapping)
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "--mapping translates event logs")
}

func TestMappingErrorsAreBadInput(t *testing.T) {
	for _, c := range []struct {
		name, mapping, log, want string
		cmds                     []string
	}{
		{"bad regex", strings.Replace(foreignMapping, `REQ(?P<sn>[0-9]+)`, `REQ(?P<sn>[0-9]+`, 1), foreignLog, `message_patterns[0]: "REQ(?P<sn>[0-9]+" is not a regular expression`, []string{"validate", "history", "show"}},
		{"group no field", strings.Replace(foreignMapping, `?P<sn>`, `?P<number>`, 1), foreignLog, `group "number" is not a field of the model's REQ messages (fields: sn)`, []string{"history", "show"}},
		{"no rule matches", foreignMapping, strings.Replace(foreignLog, `"msg":"REQ1","mid":"a","from"`, `"msg":"REQ one","mid":"a","from"`, 1), `run.jsonl:7: msg "REQ one" matches none of the mapping's message_patterns (tried "REQ(?P<sn>[0-9]+)", "TOKEN q=`, []string{"validate", "history", "show"}},
	} {
		dir := writeFiles(t, map[string]string{"run.jsonl": c.log, "map.json": c.mapping})
		for _, cmd := range c.cmds {
			r := runCLI(t, cmd, filepath.Join(dir, "run.jsonl"), "--mapping", filepath.Join(dir, "map.json"))
			r.wantCode(t, exitBadInput)
			r.wantOneLineError(t, c.want)
		}
	}
}
