package cli

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore/measure"
	"github.com/tokenmc/tokenmc/model"
)

// measure --json: one row per algorithm, n and load, with the published
// value and the relative difference; Ricart-Agrawala sends exactly 2(N-1)
// messages per CS, which the row must show against the formula.
func TestMeasureJSON(t *testing.T) {
	r := runCLI(t, "measure", "--algos", "ricart-agrawala,suzuki-kasami", "--n", "4", "--load", "heavy,light", "--entries", "200", "--warmup", "20", "--reps", "2", "--json")
	r.wantCode(t, exitOK)
	var rows []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, r.stdout)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	for _, k := range []string{"algorithm", "n", "load", "messages_per_cs", "messages_per_cs_ci95", "response_time", "published", "entries", "replications"} {
		if _, ok := rows[0][k]; !ok {
			t.Errorf("row has no %q: %v", k, rows[0])
		}
	}
	ra := rows[0]
	if ra["algorithm"] != "ricart-agrawala" || ra["load"] != "heavy" || ra["messages_per_cs"] != 6.0 {
		t.Fatalf("first row %v, want ricart-agrawala heavy with 6 messages per CS", ra)
	}
	pub := ra["published"].(map[string]any)
	if pub["value"] != 6.0 || pub["rel_diff"] != 0.0 || pub["formula"] != "2(N-1)" {
		t.Fatalf("published %v, want 2(N-1) = 6 with rel_diff 0", pub)
	}
	if e := ra["entries"].(float64); e != 400 {
		t.Fatalf("entries %v, want 2 replications of 200", e)
	}
	sk := rows[3] // suzuki-kasami light: compared per request without the token
	if sk["algorithm"] != "suzuki-kasami" || sk["load"] != "light" {
		t.Fatalf("last row %v", sk)
	}
	if m := sk["published"].(map[string]any)["measured"].(float64); m != 4 {
		t.Fatalf("suzuki-kasami light: %v messages per request without the token, want N = 4", m)
	}
}

func TestMeasureTable(t *testing.T) {
	r := runCLI(t, "measure", "--algos", "banerjee", "--n", "10", "--load", "heavy", "--entries", "300", "--reps", "2")
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "3-2/N") || !strings.Contains(r.stdout, "published") {
		t.Fatalf("table without the published formula:\n%s", r.stdout)
	}
}

func TestMeasureViolation(t *testing.T) {
	r := runCLI(t, "measure", "--algos", "suzuki-kasami/keep-copy", "--n", "4", "--load", "heavy", "--entries", "100", "--reps", "1")
	r.wantCode(t, exitViolation)
	if !strings.Contains(r.stdout, "VIOLATION: single-token") {
		t.Fatalf("no violation shown:\n%s", r.stdout)
	}
}

func TestMeasureBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"measure", "--algos", "banerjee", "--n", "10", "--load", "medium"},
		{"measure", "--algos", "banerjee", "--n", "1"},
		{"measure", "--algos", "nope", "--n", "4"},
		{"measure", "--n", "4"},
		{"measure", "--algos", "coord-res", "--n", "3"},
		{"measure", "--algos", "banerjee", "--n", "10", "--t-msg", "0"},
		{"measure", "--algos", "banerjee", "--n", "10", "--timers", "0.1,x"},
		{"measure", "--figures", "x", "--algos", "banerjee"},
		{"measure", "--figures", "x", "--tree", "2"},
		{"measure", "--figures", "e2e_measure_test.go"},
		{"measure", "--algos", "raymond,suzuki-kasami", "--n", "4", "--tree", "2"},
		{"measure", "--algos", "raymond", "--n", "4", "--tree", "9"},
		{"measure", "--algos", "raymond", "--n", "4", "--r", "2"},
	} {
		r := runCLI(t, args...)
		r.wantCode(t, exitBadInput)
		if lines := strings.Count(strings.TrimSpace(r.stderr), "\n"); lines != 0 || r.stderr == "" {
			t.Errorf("tokenmc %s: stderr is not one line:\n%s", strings.Join(args, " "), r.stderr)
		}
	}
}

// measure takes the algorithms' parameter flags: raymond --tree 2 (a star)
// is measured on the star, as measure.Run with that parameter measures it,
// not on the balanced tree measure uses by default.
func TestMeasureParamFlags(t *testing.T) {
	measured := func(args ...string) float64 {
		t.Helper()
		r := runCLI(t, append([]string{"measure", "--algos", "raymond", "--n", "7", "--load", "light", "--entries", "200", "--warmup", "20", "--reps", "2", "--json"}, args...)...)
		r.wantCode(t, exitOK)
		var rows []measureRow
		r.decodeJSON(t, &rows)
		return rows[0].MessagesPerCS
	}
	star, balanced := measured("--tree", "2"), measured()
	a, _, err := algorithms.Lookup("raymond")
	if err != nil {
		t.Fatal(err)
	}
	cfg := measure.Config{Algo: "raymond", Build: a.MeasureBuild("raymond"), Facts: a.Measure, N: 7, Load: measure.Load{Kind: "light"}, Entries: 200, Warmup: 20, Replications: 2, Params: map[string]int{"tree": 2}}
	want, err := measure.Run(context.Background(), cfg, 2)
	if err != nil {
		t.Fatal(err)
	}
	if star != want.MessagesPerCS.Mean || star == balanced {
		t.Errorf("raymond --tree 2: %v messages per CS, want measure.Run's %v on the star (balanced tree: %v)", star, want.MessagesPerCS.Mean, balanced)
	}
	r := runCLI(t, "measure", "--algos", "raymond,suzuki-kasami", "--n", "4", "--tree", "2")
	r.wantOneLineError(t, "suzuki-kasami has no parameter --tree")
}

// TestMaxRepsIsMeasureBound checks that --reps accepts what measure.Run
// accepts: Run takes maxReps replications (it gets past its checks to
// Build, which fails here on purpose) and refuses maxReps+1.
func TestMaxRepsIsMeasureBound(t *testing.T) {
	errBuild := errors.New("build reached")
	cfg := measure.Config{Algo: "x", N: 2, Load: measure.Load{Kind: "light"},
		Build: func(map[string]int) (model.System, []model.Property, error) { return nil, nil, errBuild }}
	cfg.Replications = maxReps
	if _, err := measure.Run(context.Background(), cfg, 1); !errors.Is(err, errBuild) {
		t.Errorf("Run with %d replications: %v; want it to reach Build", maxReps, err)
	}
	cfg.Replications = maxReps + 1
	if _, err := measure.Run(context.Background(), cfg, 1); err == nil || errors.Is(err, errBuild) || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("Run with %d replications: %v; want it refused as out of range", maxReps+1, err)
	}
}
