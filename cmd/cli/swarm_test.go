package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// runShards runs the same command line k times, as a scheduler would: only
// the environment variable env differs, 0..k-1. Each shard must write its
// result to dir and exit 0.
func runShards(t *testing.T, env string, k int, args ...string) {
	t.Helper()
	t.Setenv(envK8sIndex, "")
	t.Setenv(envSlurmIndex, "")
	for i := range k {
		t.Setenv(env, strconv.Itoa(i))
		r := runCLI(t, args...)
		r.wantCode(t, exitOK)
	}
}

// readShard decodes a shard's result file.
func readShard(t *testing.T, path string) shardResult {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r shardResult
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func merge(t *testing.T, code int, args ...string) mergeReport {
	t.Helper()
	r := runCLI(t, append([]string{"swarm", "merge", "--json"}, args...)...)
	r.wantCode(t, code)
	var rep mergeReport
	r.decodeJSON(t, &rep)
	return rep
}

// TestSwarmFindsSuzukiKasamiMutants is the acceptance: eight shards
// of N=4 R=2 with 64 MiB of bitstate each, run as a Kubernetes Indexed Job
// runs them (the same command line, JOB_COMPLETION_INDEX 0..7), find the
// violations of send-in-cs and keep-copy; every shard reports its own
// diversification; the merged verdict is a violation whose trace replays.
func TestSwarmFindsSuzukiKasamiMutants(t *testing.T) {
	for _, algo := range []string{"suzuki-kasami/send-in-cs", "suzuki-kasami/keep-copy"} {
		dir := t.TempDir()
		runShards(t, envK8sIndex, 8, "check", "--algo", algo, "--n", "4", "--r", "2", "--bitstate", "64MiB", "--swarm", "8", "--swarm-out", dir, "--progress", "0", "--quiet")
		seen := map[string]bool{}
		shortest := math.MaxInt
		for i := range 8 {
			s := readShard(t, filepath.Join(dir, fmt.Sprintf("shard-%d.json", i)))
			if s.Swarm.Index != i || s.Swarm.IndexFrom != envK8sIndex || s.Verdict != verdictViolation || s.Bitstate == nil || s.Bitstate.Bits != 64<<23 {
				t.Fatalf("%s shard %d: index %d from %s, verdict %s, bitstate %+v", algo, i, s.Swarm.Index, s.Swarm.IndexFrom, s.Verdict, s.Bitstate)
			}
			seen[s.Swarm.Search+s.Swarm.Order+s.Swarm.HashSeed] = true
			shortest = min(shortest, s.Violation.Length)
		}
		if len(seen) != 8 {
			t.Errorf("%s: %d distinct diversifications among 8 shards", algo, len(seen))
		}
		rep := merge(t, exitViolation, dir)
		if rep.Verdict != verdictViolation || rep.Violation == nil || !rep.Violation.Replayed || rep.Merged != 8 || len(rep.Missing) != 0 || len(rep.Table) != 8 {
			t.Fatalf("%s: merge %+v", algo, rep)
		}
		if got := replay(t, exitOK, rep.Violation.TraceFile); !got.Reproduced || got.Property != rep.Violation.Property {
			t.Errorf("%s: the merged trace does not replay: %+v", algo, got)
		}
		if rep.Violation.Length != shortest {
			t.Errorf("%s: merge chose a trace of %d steps, the shortest of the shards has %d", algo, rep.Violation.Length, shortest)
		}
	}
}

// TestSwarmMergeCoverage: shards of the correct algorithm with small
// bitstate arrays end ok-partial; the merge's estimate of the reachable
// states is within a few percent of the exact count, its coverage at
// least 99% (the union's true coverage is checked against an exact walk
// in explore's TestSwarmCoverageSuzukiKasami). Shards found through
// SLURM_ARRAY_TASK_ID this time; the result files are merged after being
// moved elsewhere, with their traces (none here) looked up beside them.
func TestSwarmMergeCoverage(t *testing.T) {
	exact, _ := check(t, exitOK, "--algo", "suzuki-kasami", "--n", "3", "--r", "2", "--progress", "0")
	dir := t.TempDir()
	runShards(t, envSlurmIndex, 8, "check", "--algo", "suzuki-kasami", "--n", "3", "--r", "2", "--bitstate", "8KiB", "--swarm", "8", "--swarm-out", dir, "--progress", "0", "--json")
	var files []string
	var largest int64
	for i := range 8 {
		f := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		s := readShard(t, f)
		if s.Verdict != verdictOKPartial || s.States >= exact.States {
			t.Fatalf("shard %d: %s %d states of %d: the array is not small enough to test coverage", i, s.Verdict, s.States, exact.States)
		}
		largest = max(largest, s.States)
		files = append(files, f)
	}
	rep := merge(t, exitOK, files...)
	c := rep.Coverage
	if rep.Verdict != verdictOKPartial || c == nil {
		t.Fatalf("merge: %+v", rep)
	}
	t.Logf("exact %d states, largest shard %d; estimate: union %.0f, reachable %.0f, coverage %.4f (sample %d)", exact.States, largest, c.UnionStates, c.ReachableStates, c.Coverage, c.Sample)
	if c.LargestShardStates != largest || c.Coverage < 0.99 || math.Abs(c.ReachableStates/float64(exact.States)-1) > 0.05 {
		t.Errorf("coverage %+v, exact %d states", *c, exact.States)
	}
	if len(c.Excluded) != 0 {
		t.Errorf("shards excluded from the estimate: %v", c.Excluded)
	}
	// Missing shards: the verdict stands on those present, exit 3.
	rep = merge(t, exitIncomplete, files[0], files[2])
	if len(rep.Missing) != 6 || rep.Missing[0] != 1 {
		t.Errorf("missing %v, want 1, 3..7", rep.Missing)
	}
}

// TestSwarmMergeNoEstimateFromCutSearches: shards stopped by a bound
// visited the states nearest the initial ones, all of them the same: a
// capture-recapture estimate from them would take the state space for
// little more than what they visited. Merge gives the union only.
func TestSwarmMergeNoEstimateFromCutSearches(t *testing.T) {
	dir := t.TempDir()
	for i := range 4 {
		r := runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "3", "--r", "2", "--max-states", "2000", "--swarm", "4", "--swarm-index", strconv.Itoa(i), "--swarm-out", dir, "--progress", "0", "--quiet")
		r.wantCode(t, exitOK)
	}
	rep := merge(t, exitOK, dir)
	c := rep.Coverage
	if rep.Verdict != verdictOKPartial || c == nil || c.ReachableStates != 0 || c.Coverage != 0 || len(c.Excluded) != 4 || c.UnionStates < 2000 {
		t.Fatalf("merge of cut shards: %+v %+v", rep, c)
	}
	r := runCLI(t, "swarm", "merge", dir)
	if !strings.Contains(r.stdout, "not estimated") || !strings.Contains(r.stdout, "stopped early") {
		t.Errorf("the text report does not say why there is no estimate:\n%s", r.stdout)
	}
}

// TestSwarmMergeRefusesMismatches: shards of different swarms, the same
// shard twice, a file that is not a shard's result.
func TestSwarmMergeRefusesMismatches(t *testing.T) {
	dir := t.TempDir()
	shard := func(name string, args ...string) string {
		sub := filepath.Join(dir, name)
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		r := runCLI(t, append([]string{"check", "--algo", "suzuki-kasami", "--progress", "0", "--quiet", "--swarm-out", sub}, args...)...)
		r.wantCode(t, exitOK)
		m, _ := filepath.Glob(filepath.Join(sub, "shard-*.json"))
		return m[0]
	}
	a := shard("a", "--n", "3", "--r", "1", "--swarm", "4", "--swarm-index", "0")
	b := shard("b", "--n", "3", "--r", "2", "--swarm", "4", "--swarm-index", "1")
	c := shard("c", "--n", "3", "--r", "1", "--swarm", "5", "--swarm-index", "1")
	d := shard("d", "--n", "3", "--r", "1", "--swarm", "4", "--swarm-index", "0", "--props", "mutex")
	e := shard("e", "--n", "3", "--r", "1", "--swarm", "4", "--swarm-index", "0")
	for _, tc := range []struct {
		files []string
		word  string
	}{
		{[]string{a, b}, "params"},
		{[]string{a, c}, "shards"},
		{[]string{a, d}, "properties"},
		{[]string{a, e}, "both shard 0"},
	} {
		r := runCLI(t, append([]string{"swarm", "merge"}, tc.files...)...)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, tc.word)
	}
	plain := filepath.Join(dir, "plain.json")
	r := runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "2", "--json", "--progress", "0")
	if err := os.WriteFile(plain, []byte(r.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, "swarm", "merge", plain)
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "not a shard's result")
	r = runCLI(t, "swarm", "merge")
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "result FILEs")
}

// TestSwarmShardIndexErrors: the index must come from somewhere and be in
// range; flags the shard index decides are refused.
func TestSwarmShardIndexErrors(t *testing.T) {
	t.Setenv(envK8sIndex, "")
	t.Setenv(envSlurmIndex, "")
	base := []string{"check", "--algo", "suzuki-kasami", "--n", "2", "--progress", "0"}
	for _, tc := range []struct {
		env, val string
		args     []string
		word     string
	}{
		{"", "", []string{"--swarm", "8"}, "JOB_COMPLETION_INDEX"},
		{envK8sIndex, "8", []string{"--swarm", "8"}, "out of range"},
		{envSlurmIndex, "-1", []string{"--swarm", "8"}, "from SLURM_ARRAY_TASK_ID"},
		{envK8sIndex, "two", []string{"--swarm", "8"}, "not a shard index"},
		{"", "", []string{"--swarm", "8", "--swarm-index", "8"}, "out of range"},
		{"", "", []string{"--swarm-index", "1"}, "needs --swarm"},
		{"", "", []string{"--swarm", "0", "--swarm-out", "."}, "out of range"},
		{"", "", []string{"--swarm-out", "."}, "needs --swarm"},
		{"", "", []string{"--swarm", "-3"}, "out of range"},
		{"", "", []string{"--swarm", "2", "--swarm-index", "0", "--dfs"}, "--dfs"},
		{"", "", []string{"--swarm", "2", "--swarm-index", "0", "--trace-out", "x.json"}, "--out"},
		{"", "", []string{"--swarm", "2", "--swarm-index", "0", "--out", "x.json"}, "--out"},
		{"", "", []string{"--swarm", "2", "--swarm-index", "0", "--props", "starvation-freedom"}, "safety"},
		{"", "", []string{"--swarm", "2", "--swarm-index", "0", "--swarm-out", "/nonexistent/dir"}, "no such directory"},
	} {
		if tc.env != "" {
			t.Setenv(tc.env, tc.val)
		}
		r := runCLI(t, append(base, tc.args...)...)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, tc.word)
		if tc.env != "" {
			t.Setenv(tc.env, "")
		}
	}
	// --swarm-index wins over the environment.
	t.Setenv(envK8sIndex, "5")
	r := runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "2", "--progress", "0", "--swarm", "8", "--swarm-index", "2", "--json")
	var out struct{ Swarm swarmJSON }
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.Swarm.Index != 2 || out.Swarm.IndexFrom != "--swarm-index" || out.Swarm.Search != "dfs" || out.Swarm.Order != "reversed" {
		t.Errorf("swarm object %+v", out.Swarm)
	}
}

// TestSimulateSwarm: simulate shards have seeds --seed+I; without
// --swarm-out a violation exits 1 as usual; the merge of simulate shards
// finds the violation and replays it.
func TestSimulateSwarm(t *testing.T) {
	dir := t.TempDir()
	runShards(t, envK8sIndex, 3, "simulate", "--algo", "suzuki-kasami/keep-copy", "--n", "3", "--runs", "5", "--seed", "40", "--swarm", "3", "--swarm-out", dir, "--progress", "0", "--quiet")
	for i := range 3 {
		s := readShard(t, filepath.Join(dir, fmt.Sprintf("shard-%d.json", i)))
		if s.Swarm.Seed != uint64(40+i) || s.Swarm.Setup["base_seed"] != "40" {
			t.Errorf("shard %d: seed %d, setup %v", i, s.Swarm.Seed, s.Swarm.Setup)
		}
	}
	rep := merge(t, exitViolation, dir)
	if rep.Command != "simulate" || rep.Violation == nil || !rep.Violation.Replayed || rep.Coverage != nil {
		t.Fatalf("merge %+v", rep)
	}
	t.Chdir(t.TempDir())
	r := runCLI(t, "simulate", "--algo", "suzuki-kasami/keep-copy", "--n", "3", "--runs", "5", "--swarm", "3", "--swarm-index", "1", "--progress", "0", "--quiet")
	r.wantCode(t, exitViolation)
	if _, err := os.Stat("shard-1.sim.trace.json"); err != nil {
		t.Errorf("no shard trace in the current directory: %v", err)
	}
}

// TestSwarmPlan: the Slurm script passes bash -n, names --array=0-K-1 and
// runs exactly the planned command line, arguments with spaces, quotes and
// dollars included (a stand-in tokenmc on PATH prints its arguments); the
// Kubernetes manifest holds the same arguments (bench/swarmk8s decodes it
// strictly into the API's own Job type).
func TestSwarmPlan(t *testing.T) {
	out := t.TempDir()
	tricky := "mutex,single-token"
	r := runCLI(t, "swarm", "plan", "--jobs", "12", "--out", out, "--parallelism", "4", "--memory", "3GiB", "--",
		"check", "--algo", "suzuki-kasami", "--n", "4", "--r", "2", "--bitstate", "1GiB", "--props", tricky, "--workdir", "/tmp/it's a $dir")
	r.wantCode(t, exitOK)
	script := filepath.Join(out, "swarm.sbatch")
	body, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), "#SBATCH --array=0-11%4\n") || !strings.Contains(string(body), "#SBATCH --mem=3072M\n") {
		t.Errorf("script lacks the array or memory line:\n%s", body)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	if out, err := exec.Command(bash, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s", err, out)
	}
	// Run the script with a stand-in tokenmc that prints its arguments.
	bin := t.TempDir()
	fake := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n"
	if err := os.WriteFile(filepath.Join(bin, "tokenmc"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, script)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "SLURM_ARRAY_TASK_ID=3")
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("running the script: %v", err)
	}
	want := []string{"check", "--algo", "suzuki-kasami", "--n", "4", "--r", "2", "--bitstate", "1GiB", "--props", tricky, "--workdir", "/tmp/it's a $dir", "--swarm", "12", "--swarm-out", "results"}
	if strings.Join(want, "\n")+"\n" != string(got) {
		t.Errorf("the script ran\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	if fi, err := os.Stat(filepath.Join(cmd.Dir, "results")); err != nil || !fi.IsDir() {
		t.Errorf("the script did not create results/")
	}
	manifest, err := os.ReadFile(filepath.Join(out, "job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(manifest), `- "/tmp/it's a $dir"`) || !strings.Contains(string(manifest), "completions: 12\n") || !strings.Contains(string(manifest), "parallelism: 4\n") {
		t.Errorf("manifest:\n%s", manifest)
	}
}

// TestSwarmPlanErrors: what plan refuses.
func TestSwarmPlanErrors(t *testing.T) {
	out := t.TempDir()
	for _, tc := range []struct {
		args []string
		word string
	}{
		{[]string{"--jobs", "4", "--out", out}, "after --"},
		{[]string{"--out", out, "--", "check", "--algo", "suzuki-kasami"}, "--jobs"},
		{[]string{"--jobs", "4", "--", "check", "--algo", "suzuki-kasami"}, "--out"},
		{[]string{"--jobs", "4", "--out", out, "--", "replay", "x"}, "check or simulate"},
		{[]string{"--jobs", "4", "--out", out, "--", "check", "--algo", "suzuki-kasami", "--swarm", "4"}, "adds --swarm"},
		{[]string{"--jobs", "4", "--out", out, "--", "check", "--algo=suzuki-kasami", "--swarm-index=1"}, "index"},
		{[]string{"--jobs", "4", "--out", out, "--", "check", "--algo", "suzuki-kasami", "--dfs"}, "--dfs"},
		{[]string{"--jobs", "4", "--out", out, "--", "check", "--n", "3"}, "--algo"},
		{[]string{"--jobs", "4", "--out", out, "--", "simulate", "--algo", "suzuki-kasami", "--swarm-depth", "3"}, "seeds"},
		{[]string{"--jobs", "4", "--out", out, "--", "check", "--algo", "no-such"}, "no-such"},
		{[]string{"--jobs", "4", "--out", out, "--name", "Bad_Name", "--", "check", "--algo", "suzuki-kasami"}, "job name"},
		{[]string{"--jobs", "4", "--out", out, "--memory", "1MiB", "--", "check", "--algo", "suzuki-kasami"}, "too small"},
		{[]string{"--jobs", "4", "--out", out, "--parallelism", "5", "--", "check", "--algo", "suzuki-kasami"}, "parallelism"},
	} {
		r := runCLI(t, append([]string{"swarm", "plan"}, tc.args...)...)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, tc.word)
	}
	r := runCLI(t, "swarm", "frobnicate")
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "plan or merge")
}
