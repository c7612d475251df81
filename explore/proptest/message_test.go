package proptest_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/explore/proptest"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// fakeTB is a rapid.TB that records what proptest.Check reports.
type fakeTB struct {
	name   string
	failed bool
	fatal  []string
	logs   []string
}

func (f *fakeTB) Helper()                       {}
func (f *fakeTB) Name() string                  { return f.name }
func (f *fakeTB) Logf(format string, a ...any)  { f.logs = append(f.logs, fmt.Sprintf(format, a...)) }
func (f *fakeTB) Log(a ...any)                  { f.logs = append(f.logs, fmt.Sprint(a...)) }
func (f *fakeTB) Skipf(format string, a ...any) {}
func (f *fakeTB) Skip(a ...any)                 {}
func (f *fakeTB) SkipNow()                      {}
func (f *fakeTB) Errorf(format string, a ...any) {
	f.failed = true
	f.fatal = append(f.fatal, fmt.Sprintf(format, a...))
}
func (f *fakeTB) Error(a ...any)                 { f.failed = true; f.fatal = append(f.fatal, fmt.Sprint(a...)) }
func (f *fakeTB) Fatalf(format string, a ...any) { f.Errorf(format, a...) }
func (f *fakeTB) Fatal(a ...any)                 { f.Error(a...) }
func (f *fakeTB) FailNow()                       { f.failed = true }
func (f *fakeTB) Fail()                          { f.failed = true }
func (f *fakeTB) Failed() bool                   { return f.failed }

func setFlag(t *testing.T, name, value string) {
	t.Helper()
	fl := flag.Lookup(name)
	old := fl.Value.String()
	if err := fl.Value.Set(value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fl.Value.Set(old) })
}

// Check's failure is one message: the shrunk story once, the go test
// command with rapid's seed that reproduces it (and it does), the trace
// file and the replay command; rapid's draw log is not in it.
func TestCheckFailureMessage(t *testing.T) {
	setFlag(t, "rapid.nofailfile", "true")
	p, _ := suzukikasami.New(suzukikasami.SendInCS, 3, 1)
	sys := p.System()
	props := invariants.Applicable(invariants.With(suzukikasami.Properties()...), sys.Info())
	file := filepath.Join(t.TempDir(), "f.trace.json")
	opts := proptest.Options{TraceFile: file, Replay: "go run ./cmd/mine"}
	fake := &fakeTB{name: "TestFake/sub case"}
	proptest.Check(fake, sys, props, opts)
	if !fake.failed || len(fake.fatal) != 1 {
		t.Fatalf("failed %v, %d messages: %q", fake.failed, len(fake.fatal), fake.fatal)
	}
	msg := fake.fatal[0]
	t.Logf("the message:\n%s", msg)
	if n := strings.Count(msg, "trace of suzuki-kasami/send-in-cs (n=3, r=1)"); n != 1 {
		t.Errorf("the story appears %d times", n)
	}
	for _, s := range append([]string{msg}, fake.logs...) {
		if strings.Contains(s, "[rapid] draw") {
			t.Errorf("rapid's draw log leaked: %q", s)
		}
	}
	if !strings.HasPrefix(msg, "mutex violated after 4 steps") {
		t.Errorf("first line: %q", strings.SplitN(msg, "\n", 2)[0])
	}
	want := "trace written to " + file + "; replay it with: go run ./cmd/mine replay " + file
	if !strings.HasSuffix(msg, want) {
		t.Errorf("the message does not end with %q", want)
	}
	m := regexp.MustCompile(`reproduce it with: go test -run '\^TestFake\$/\^sub case\$' -rapid.seed=(\d+)\n`).FindStringSubmatch(msg)
	if m == nil {
		t.Fatal("no reproduction line with a seed")
	}
	first, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// the seed reproduces the failure: the same minimal trace
	setFlag(t, "rapid.seed", m[1])
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	again := &fakeTB{name: "TestFake/sub case"}
	proptest.Check(again, sys, props, opts)
	second, err := os.ReadFile(file)
	if err != nil || !again.failed {
		t.Fatalf("-rapid.seed=%s: failed %v, trace %v", m[1], again.failed, err)
	}
	if string(first) != string(second) {
		t.Errorf("-rapid.seed=%s gives another trace:\n%s\nthen\n%s", m[1], first, second)
	}
}

// Without Options.Replay the message names both ways to replay.
func TestCheckReplayHint(t *testing.T) {
	setFlag(t, "rapid.nofailfile", "true")
	p, _ := suzukikasami.New(suzukikasami.SendInCS, 3, 1)
	sys := p.System()
	fake := &fakeTB{name: "TestHint"}
	file := filepath.Join(t.TempDir(), "h.trace.json")
	proptest.Check(fake, sys, []model.Property{invariants.Mutex}, proptest.Options{TraceFile: file})
	if len(fake.fatal) != 1 {
		t.Fatalf("%d messages", len(fake.fatal))
	}
	for _, s := range []string{"go run ./path/to/your/main replay " + file, "tokenmc replay " + file, "cli.Main"} {
		if !strings.Contains(fake.fatal[0], s) {
			t.Errorf("no %q in\n%s", s, fake.fatal[0])
		}
	}
}
