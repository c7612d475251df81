package modeltest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// A script's expected outputs are replaced, and nothing else: comments,
// blank lines, inputs and the output of a block without one are kept.
func TestRewriteKeepsEverythingElse(t *testing.T) {
	text := "# head\ncmd a b\nin 1\nin 2\n----\nold 1\nold 2\n\n# mid\n\nother\n----\n\nlast\n----\nx\n"
	lines, blocks, err := parseScript("s", text)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 || blocks[0].cmd != "cmd" || blocks[0].args != "a b" || !slices.Equal(blocks[0].input, []string{"in 1", "in 2"}) ||
		!slices.Equal(blocks[0].want, []string{"old 1", "old 2"}) || blocks[1].want != nil || blocks[2].line != 14 {
		t.Fatalf("blocks = %+v", blocks)
	}
	got := rewrite(lines, blocks, [][]string{{"new"}, {"o1", "o2"}, nil})
	want := "# head\ncmd a b\nin 1\nin 2\n----\nnew\n\n# mid\n\nother\n----\no1\no2\n\nlast\n----\nx\n"
	if got != want {
		t.Errorf("rewrite =\n%s\nwant\n%s", got, want)
	}
	if again := rewrite(lines, blocks, [][]string{nil, nil, nil}); again != text {
		t.Errorf("rewrite with nothing new changed the text:\n%s", again)
	}
}

func TestMalformedScripts(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"----\nx\n", `s:1: "----" without a command before it`},
		{"build\n", `s:1: command "build" has no "----" line`},
		{"step\nRequest(P0)\n\n----\n", `s:1: command "step" has no "----" line`},
	} {
		if _, _, err := parseScript("s", c.text); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// tiny is a system with one process that requests and exits.
func tiny(a *Args) (model.System, []model.Property, error) {
	if a.Int("n", 1) != 1 {
		return nil, nil, fmt.Errorf("tiny has one process")
	}
	return (&protocol.Protocol[struct{}, struct{}]{
		Name: "tiny",
		N:    1,
		R:    1,
		Init: func(int) struct{} { return struct{}{} },
		Codec: protocol.Codec[struct{}, struct{}]{
			EncodeProc: func(*model.Encoder, *struct{}) {},
			DecodeProc: func(*model.Decoder, *struct{}) {},
			EncodeMsg:  func(*model.Encoder, *struct{}) {},
			DecodeMsg:  func(*model.Decoder, *struct{}) {},
			To:         func(*struct{}) int { return 0 },
		},
		Format: protocol.Format[struct{}, struct{}]{
			FormatMsg: func(*struct{}) string { return "M" },
		},
		OnRequest: func(c *protocol.Ctx[struct{}, struct{}], _ int) { c.Enter() },
		OnExit:    func(*protocol.Ctx[struct{}, struct{}]) {},
		OnDeliver: func(*protocol.Ctx[struct{}, struct{}], *struct{}) {},
	}).System(), nil, nil
}

// Mistakes in a script are errors that name the line and what is right;
// a disabled step is one.
func TestScriptErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"show\n----\n", "s:1: show: no system yet; start the script with build"},
		{"build m=1\n----\n", "s:1: build: unknown argument m; this build reads: n"},
		{"build n=x\n----\n", "s:1: build: argument n=x is not an integer"},
		{"build n=2\n----\n", "s:1: build: tiny has one process"},
		{"build n\n----\n", `s:1: build: argument "n" is not key=value, e.g. n=3`},
		{"build\n----\n\njump\n----\n", "s:4: jump: unknown command; valid: build, step,"},
		{"build\n----\n\nstep Exit(P0)\n----\n", `s:4: step: "Exit(P0)" is not enabled; enabled: Request(P0)`},
		{"build\n----\n\nstep\n----\n", "s:4: step: no label"},
		{"build\n----\n\ncheck mutex bogus\n----\n", `s:4: check: no property "bogus" applies to tiny; valid: mutex, no-unrequested-entry, no-deadlock`},
		{"build\n----\n\nrestore a\n----\n", `s:4: restore: no state saved as "a"; save it first`},
		{"build\n----\n\nsave\n----\n", "s:4: save: needs one name, e.g. save a"},
	} {
		if _, _, _, err := runScript("s", c.text, tiny); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// The terminal state of tiny: check evaluates no-deadlock there, and the
// transition invariant on the last step.
func TestCheckOnTerminalState(t *testing.T) {
	_, _, got, err := runScript("s", "build\n----\n\ncheck\n----\n\nstep\nRequest(P0)\nExit(P0)\n----\n\nenabled\n----\n\ncheck\n----\n", tiny)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"P0  Idle     made 0", "in transit: nothing"},
		{"mutex: holds", "no-unrequested-entry: n/a (no step taken)", "no-deadlock: n/a (the state has successors)"},
		{"Request(P0)", "  P0: phase Idle -> InCS", "  P0: made 0 -> 1", "Exit(P0)", "  P0: phase InCS -> Idle"},
		{"none"},
		{"mutex: holds", "no-unrequested-entry: holds", "no-deadlock: holds"},
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("outputs = %q\nwant %q", got, want)
	}
}

// A build that reads no argument builds one system, whatever the script,
// and a script that gives it an argument is refused.
func TestBuildWithoutArguments(t *testing.T) {
	sys, _, _ := tiny(&Args{vals: map[string]string{}, read: map[string]bool{}})
	fixed := func(*Args) (model.System, []model.Property, error) { return sys, nil, nil }
	_, _, got, err := runScript("s", "build\n----\n\nenabled\n----\n", fixed)
	if err != nil || !slices.Equal(got[1], []string{"Request(P0)"}) {
		t.Errorf("outputs %q, %v", got, err)
	}
	if _, _, _, err := runScript("s", "build n=1\n----\n", fixed); err == nil || err.Error() != "s:1: build: unknown argument n; this build takes no argument" {
		t.Errorf("build n=1 with a build that reads no argument: %v", err)
	}
}
