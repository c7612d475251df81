package cli

// End-to-end tests of run, validate, history and show.

import (
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	logDir  = "../../traces/eventlog/testdata/"
	histDir = "../internal/history/testdata/"
)

func TestRunValidateHistoryOverBothTransports(t *testing.T) {
	dir := t.TempDir()
	for _, tr := range []string{"chan", "tcp"} {
		for _, algo := range []string{"suzuki-kasami", "torus"} {
			log := filepath.Join(dir, algo+"."+tr+".jsonl")
			hist := filepath.Join(dir, algo+"."+tr+".history.jsonl")
			// ends as soon as every request is served (milliseconds); 5s only bounds a loaded machine
			r := runCLI(t, "run", "--algo", algo, "--r", "2", "--duration", "5s", "--transport", tr, "--log", log, "--history", hist, "--verify")
			r.wantCode(t, exitOK)
			for _, want := range []string{"every request served", "validate: ok", "history: linearizable"} {
				if !strings.Contains(r.stdout, want) {
					t.Fatalf("run %s over %s: stdout lacks %q:\n%s", algo, tr, want, r.stdout)
				}
			}
			runCLI(t, "validate", log).wantCode(t, exitOK)
			runCLI(t, "history", log).wantCode(t, exitOK)
			runCLI(t, "history", hist).wantCode(t, exitOK)
		}
	}
}

func TestValidateVerdicts(t *testing.T) {
	runCLI(t, "validate", logDir+"suzuki-kasami.jsonl").wantCode(t, exitOK)
	runCLI(t, "validate", logDir+"send-in-cs.jsonl").wantCode(t, exitOK) // a behaviour of the mutant it ran
	cases := []struct {
		args []string
		want string
	}{
		{[]string{logDir + "send-in-cs.jsonl", "--algo", "suzuki-kasami"}, "line 12 (P0 #4 send TOKEN(->P1, LN=[0,0,0], Q=[])) cannot be explained"},
		{[]string{logDir + "edited-never-sent.jsonl"}, "line 14 (P2 #5 receive TOKEN(->P2, LN=[0,0,0], Q=[])) cannot be explained: no message TOKEN(->P2, LN=[0,0,0], Q=[]) to P2 is in transit"},
		{[]string{logDir + "edited-enter-without-token.jsonl"}, "line 10 (P1 #4 enter) cannot be explained: the log has P1 enter its CS but the model's step Request(P1) does not enter"},
	}
	for _, c := range cases {
		r := runCLI(t, append([]string{"validate"}, c.args...)...)
		r.wantCode(t, exitViolation)
		if !strings.Contains(r.stdout, c.want) || !strings.Contains(r.stdout, "state reached:") {
			t.Fatalf("validate %v:\n%s\nwant %q and the state reached", c.args, r.stdout, c.want)
		}
	}
	var rep validateReport
	r := runCLI(t, "validate", logDir+"edited-enter-without-token.jsonl", "--json")
	r.wantCode(t, exitViolation)
	r.decodeJSON(t, &rep)
	// Explained: every event that does not happen after P1's enter at
	// line 10 (the 16 events whose vc[1] < 4); steps may be logged
	// non-atomically, so P1's request and its two sends are explained.
	if rep.OK || rep.Line != 10 || rep.Events != 49 || rep.Explained != 16 {
		t.Fatalf("--json: %+v", rep)
	}
}

func TestHistoryVerdicts(t *testing.T) {
	runCLI(t, "history", histDir+"linearizable.jsonl").wantCode(t, exitOK)
	dir := t.TempDir()
	for _, file := range []string{histDir + "not-linearizable.jsonl", logDir + "send-in-cs.jsonl"} {
		out := filepath.Join(dir, filepath.Base(file)+".html")
		r := runCLI(t, "history", file, "--html", out)
		r.wantCode(t, exitViolation)
		if !strings.Contains(r.stdout, "NOT linearizable") {
			t.Fatalf("history %s: %s", file, r.stdout)
		}
		b, err := os.ReadFile(out)
		if err != nil || !strings.Contains(string(b), "<html") {
			t.Fatalf("no porcupine visualisation at %s: %v", out, err)
		}
	}
}

func TestShowFormats(t *testing.T) {
	dir := t.TempDir()
	for _, file := range []string{"testdata/suzuki-kasami_send-in-cs.mutex.trace.json", logDir + "send-in-cs.jsonl"} {
		r := runCLI(t, "show", file)
		r.wantCode(t, exitOK)
		if !strings.Contains(r.stdout, "legend:") {
			t.Fatalf("show %s: %s", file, r.stdout)
		}
		svg := filepath.Join(dir, "c.svg")
		runCLI(t, "show", file, "--format", "svg", "--out", svg).wantCode(t, exitOK)
		f, err := os.Open(svg)
		if err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(f)
		for {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: SVG is not well-formed: %v", file, err)
			}
		}
		f.Close()
		html := filepath.Join(dir, "c.html")
		runCLI(t, "show", file, "--format", "html", "--out", html).wantCode(t, exitOK)
	}
}

func TestTraceVerificationBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	header := `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1}}` + "\n"
	hheader := `{"format":"tokenmc-history","version":1,"model":"lock","processes":2}` + "\n"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"validate", write("nj.jsonl", header+"{oops\n")}, "nj.jsonl:2: not a JSON event object"},
		{[]string{"validate", write("up.jsonl", header+`{"p":7,"seq":1,"kind":"request"}`+"\n")}, "up.jsonl:2: unknown process P7"},
		{[]string{"validate", write("ua.jsonl", `{"format":"tokenmc-eventlog","version":1,"algorithm":"nope","params":{"n":2}}`+"\n")}, "unknown algorithm \"nope\""},
		{[]string{"history", write("ur.jsonl", hheader+`{"p":1,"op":"release","ev":"return","t_ns":3}`+"\n")}, "ur.jsonl:2: unmatched return"},
		{[]string{"history", write("hp.jsonl", hheader+`{"p":9,"op":"acquire","ev":"call","t_ns":3}`+"\n")}, "hp.jsonl:2: unknown process 9"},
		{[]string{"history", write("hj.jsonl", "not json\n")}, "hj.jsonl:1: not a JSON history event"},
		{[]string{"show", "testdata/suzuki-kasami_send-in-cs.mutex.trace.json", "--format", "pdf"}, `--format "pdf" is unknown`},
		{[]string{"run", "--algo", "suzuki-kasami", "--transport", "udp"}, `--transport "udp" is unknown`},
		{[]string{"run", "--algo", "suzuki-kasami", "--duration", "0s"}, "--duration 0s is out of range"},
		{[]string{"validate"}, "validate needs exactly one log FILE"},
	}
	for _, c := range cases {
		r := runCLI(t, c.args...)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, c.want)
	}
}
