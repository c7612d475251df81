package cli

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	// The tests run every command, as the tokenmc binary has them.
	_ "github.com/tokenmc/tokenmc/cmd/cli/figures"
	_ "github.com/tokenmc/tokenmc/cmd/cli/history"
	"github.com/tokenmc/tokenmc/cmd/internal/linked"
)

// heavyDeps are the modules a program that embeds cmd/cli must not link
// unless it imports cmd/cli/history (porcupine) or cmd/cli/figures
// (gonum/plot and its fonts).
var heavyDeps = []string{"github.com/anishathalye/porcupine", "gonum.org/v1/plot"}

// goListDeps returns the packages pkgs link (go list -deps), from this
// package's directory.
func goListDeps(t *testing.T, pkgs ...string) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(gobin, append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", strings.Join(pkgs, " "), err)
	}
	return strings.Fields(string(out))
}

// A program that embeds the command line links neither porcupine nor
// gonum/plot: only the packages that add the history command and the
// figures do (issue 22: a user's go.mod and build pay only for what they
// use). The second half shows that the first can fail: the same listing
// finds both where they are linked.
func TestCLILinksNoPorcupineNorPlot(t *testing.T) {
	for _, p := range goListDeps(t, ".") {
		for _, h := range heavyDeps {
			if p == h || strings.HasPrefix(p, h+"/") {
				t.Errorf("cmd/cli links %s; only cmd/cli/history and cmd/cli/figures may", p)
			}
		}
	}
	for _, c := range []struct{ pkg, dep string }{{"./history", heavyDeps[0]}, {"./figures", heavyDeps[1]}} {
		found := false
		for _, p := range goListDeps(t, c.pkg) {
			found = found || p == c.dep
		}
		if !found {
			t.Errorf("go list -deps %s does not list %s; the check above would miss it", c.pkg, c.dep)
		}
	}
}

// Without cmd/cli/history and cmd/cli/figures (as in a program that does
// not import them), history is not listed, and history, its help and
// measure --out say which package to import (exit 2); run --verify says
// that the history was not checked.
func TestMissingLinkedCommands(t *testing.T) {
	lin, fig := linked.Linearize, linked.Figures
	linked.Linearize, linked.Figures = nil, nil
	defer func() { linked.Linearize, linked.Figures = lin, fig }()

	usage := runCLI(t, "help")
	usage.wantCode(t, exitOK)
	if strings.Contains(usage.stdout, "history FILE") {
		t.Errorf("the usage lists history in a program without it:\n%s", usage.stdout)
	}
	if !strings.Contains(usage.stdout, "validate") {
		t.Fatalf("the usage lost the other commands:\n%s", usage.stdout)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		pkg  string
	}{
		{[]string{"history", "../internal/history/testdata/linearizable.jsonl"}, linked.HistoryPackage},
		{[]string{"help", "history"}, linked.HistoryPackage},
		{[]string{"measure", "--out", filepath.Join(dir, "figs")}, linked.FiguresPackage},
	} {
		r := runCLI(t, c.args...)
		r.wantCode(t, exitBadInput)
		if !strings.Contains(r.stderr, `import _ "`+c.pkg+`"`) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("tokenmc %s: want one line naming %s, got:\n%s", strings.Join(c.args, " "), c.pkg, r.stderr)
		}
	}
	r := runCLI(t, "run", "--algo", "lelann", "--n", "2", "--r", "1", "--duration", "5s", "--quiet", "--verify", "--log", filepath.Join(dir, "a.jsonl"))
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "validate: ok") || !strings.Contains(r.stdout, "history: not checked for linearizability") || !strings.Contains(r.stdout, linked.HistoryPackage) {
		t.Errorf("run --verify without the history check:\n%s", r.stdout)
	}

	linked.Linearize, linked.Figures = lin, fig
	r = runCLI(t, "history", "../internal/history/testdata/linearizable.jsonl")
	r.wantCode(t, exitOK)
	if usage := runCLI(t, "help"); !strings.Contains(usage.stdout, "history FILE") {
		t.Errorf("the usage does not list history when it is linked:\n%s", usage.stdout)
	}
}
