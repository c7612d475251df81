package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/explore"
)

// livenessReport is the --json report of check with liveness properties:
// the safety contract plus the liveness fields, decoded strictly.
type livenessReport struct {
	checkJSON
	Violation *struct {
		Property  string `json:"property"`
		Length    int    `json:"length"`
		TraceFile string `json:"trace_file"`
		Loop      int    `json:"loop"`
	} `json:"violation"`
	Fairness string `json:"fairness"`
	Liveness *struct {
		Properties     []string `json:"properties"`
		Verdict        string   `json:"verdict"`
		States         int64    `json:"states"`
		Transitions    int64    `json:"transitions"`
		Depth          int      `json:"depth"`
		Families       int      `json:"families"`
		FairComponents int      `json:"fair_components"`
		ElapsedS       float64  `json:"elapsed_s"`
		GraphBytes     int64    `json:"graph_bytes"`
		StopReason     string   `json:"stop_reason"`
		Skipped        string   `json:"skipped"`
	} `json:"liveness"`
	Starving []struct {
		Process   int    `json:"process"`
		Length    int    `json:"length"`
		Prefix    int    `json:"prefix"`
		Cycle     int    `json:"cycle"`
		TraceFile string `json:"trace_file"`
	} `json:"starving"`
}

func checkLive(t *testing.T, code int, args ...string) livenessReport {
	t.Helper()
	r := runCLI(t, append(append([]string{"check"}, args...), "--json")...)
	r.wantCode(t, code)
	var rep livenessReport
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("decoding: %v\n%s", err, r.stdout)
	}
	return rep
}

// torus.md A4: torus/literal starves at d=2, R=1 (P1 with a 9-step
// prefix); every lasso written replays. The repaired torus passes.
func TestCheckStarvationTorus(t *testing.T) {
	t.Chdir(t.TempDir())
	rep := checkLive(t, exitViolation, "--algo", "torus/literal", "--n", "4", "--r", "1", "--props", "starvation-freedom")
	if rep.Verdict != "violation" || rep.Fairness != "weak" || rep.Liveness == nil || rep.Liveness.States != 58868 {
		t.Fatalf("report %+v", rep)
	}
	if !slices.Equal(rep.Properties, []string{"starvation-freedom"}) {
		t.Errorf("properties %v", rep.Properties)
	}
	if len(rep.Starving) != 4 {
		t.Fatalf("starving %+v, want P0..P3", rep.Starving)
	}
	for _, s := range rep.Starving {
		if s.Length != s.Prefix+s.Cycle {
			t.Errorf("P%d: length %d != prefix %d + cycle %d", s.Process, s.Length, s.Prefix, s.Cycle)
		}
		if s.Process == 1 && s.Prefix != 9 {
			t.Errorf("P1's prefix is %d steps, torus.md A4 predicts 9", s.Prefix)
		}
		rr := replay(t, exitOK, s.TraceFile)
		if !rr.Reproduced || rr.Property != "starvation-freedom" {
			t.Errorf("P%d: %+v", s.Process, rr)
		}
	}
	// The primary violation is the shortest lasso: P1's, in the default
	// file, which names its process as every other lasso's does.
	v := rep.Violation
	if v == nil || v.Property != "starvation-freedom" || v.TraceFile != "torus_literal.starvation-freedom.P1.trace.json" || v.Loop != 10 {
		t.Errorf("violation %+v", v)
	}
	for _, s := range rep.Starving {
		if want := fmt.Sprintf("torus_literal.starvation-freedom.P%d.trace.json", s.Process); s.TraceFile != want {
			t.Errorf("P%d's lasso is in %s, want %s", s.Process, s.TraceFile, want)
		}
	}
	// Text output marks the loop; replay text confirms it.
	r := runCLI(t, "check", "--algo", "torus/literal", "--n", "4", "--r", "1", "--props", "starvation-freedom", "--trace-out", "lasso.json")
	r.wantCode(t, exitViolation)
	for _, want := range []string{"P1 can starve: lasso of", "=== the cycle starts here: steps 10..", "trace written to lasso.json"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("check text lacks %q:\n%s", want, r.stdout)
		}
	}
	if _, err := os.Stat("lasso.P0.json"); err != nil {
		t.Errorf("the other lassos are not written next to --trace-out: %v", err)
	}
	r = runCLI(t, "replay", "--quiet", "lasso.json")
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "the cycle from step 10 returns to its start, P1 waits throughout and the cycle is fair") {
		t.Errorf("replay text: %s", r.stdout)
	}

	ok := checkLive(t, exitOK, "--algo", "torus", "--n", "4", "--r", "1", "--props", "mutex,starvation-freedom", "--fairness", "strong")
	if ok.Verdict != "ok" || len(ok.Starving) != 0 || ok.Fairness != "strong" || !slices.Equal(ok.Properties, []string{"mutex", "starvation-freedom"}) {
		t.Errorf("repaired torus: %+v", ok)
	}
}

func TestCheckLivenessBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		word string
	}{
		{[]string{"--algo", "torus", "--n", "4", "--props", "starvation-freedom", "--fairness", "fair"}, `fairness "fair" is unknown; want weak, strong or none`},
		{[]string{"--algo", "suzuki-kasami", "--n", "2", "--props", "concurrent-occupancy"}, "does not apply to suzuki-kasami"},
	} {
		r := runCLI(t, append([]string{"check"}, c.args...)...)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, c.word)
	}
}

// A safety violation stops before the liveness search, which is reported
// as skipped.
func TestCheckLivenessAfterSafetyViolation(t *testing.T) {
	t.Chdir(t.TempDir())
	rep := checkLive(t, exitViolation, "--algo", "suzuki-kasami/send-in-cs", "--n", "2", "--r", "1", "--props", "mutex,starvation-freedom")
	if rep.Violation == nil || rep.Violation.Property != "mutex" || rep.Liveness == nil || rep.Liveness.Verdict != "skipped" {
		t.Errorf("report %+v", rep)
	}
	if _, err := os.Stat(filepath.Join(".", "suzuki-kasami_send-in-cs.mutex.trace.json")); err != nil {
		t.Error(err)
	}
}

func TestCheckHelpLiveness(t *testing.T) {
	r := runCLI(t, "help", "check", "--all")
	r.wantCode(t, exitOK)
	for _, want := range []string{"--fairness", "starvation-freedom", "concurrent-occupancy", "strong"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("check --help lacks %q", want)
		}
	}
}

// The progress line of the liveness analysis (printed every --progress
// once the graph is built) says which step of which phase runs and how
// far it got.
func TestAnalysisProgressLine(t *testing.T) {
	var b strings.Builder
	line := analysisProgress(&b)
	line(explore.AnalysisProgress{Phase: "starvation", Step: 1, Steps: 4, Visited: 8192, States: 58868, FairComponents: 12, Elapsed: 1500 * time.Millisecond})
	line(explore.AnalysisProgress{Phase: "occupancy", Step: 0, Steps: 6, Visited: 0, States: 4657, Elapsed: 20 * time.Millisecond})
	want := "progress: liveness analysis (starvation): process 2 of 4, 8192 of 58868 states visited in it, 12 fair component(s) so far, 1.5s\n" +
		"progress: liveness analysis (occupancy): process and group 1 of 6, 0 of 4657 states visited in it, 0 fair component(s) so far, 20ms\n"
	if b.String() != want {
		t.Errorf("got:\n%swant:\n%s", b.String(), want)
	}
}
