package cli

// swarm merge: one verdict from the result files of a swarm's shards.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/explore"
)

const swarmMergeSynopsis = `tokenmc swarm merge [--json] FILE|DIR...

Reads the result files of a swarm's shards (check or simulate with --swarm K
--swarm-out DIR; a DIR argument stands for its shard-*.json) and gives one
verdict:
  violation   a shard found one: its trace (the shortest among the shards)
              is replayed here, and 'tokenmc replay' re-executes it (exit 1);
  ok          a check shard searched every reachable state without bound
              (fingerprint or exact mode): the properties hold (exit 0);
  ok-partial  no shard found a violation; the shards together visited an
              estimated fraction of the reachable states (exit 0; exit 3 if
              shards are missing).
The coverage estimate comes from the shards' fingerprint samples: see
docs/distributed.md for its derivation and its limits. Shards of different
swarms (another model, parameters, properties, options or shard count) are
refused (exit 2).`

// shardResult is what merge reads from a shard's result file: the fields
// check --json and simulate --json share, and their swarm object.
type shardResult struct {
	Algorithm   string         `json:"algorithm"`
	Params      map[string]int `json:"params"`
	Properties  []string       `json:"properties"`
	Verdict     string         `json:"verdict"`
	States      int64          `json:"states"`
	Transitions int64          `json:"transitions"`
	ElapsedS    float64        `json:"elapsed_s"`
	StopReason  string         `json:"stop_reason"`
	Bitstate    *bitstateJSON  `json:"bitstate"`
	Runs        int            `json:"runs"`
	Steps       int64          `json:"steps"`
	Violation   *struct {
		Property  string `json:"property"`
		Length    int    `json:"length"`
		TraceFile string `json:"trace_file"`
	} `json:"violation"`
	ModelError *modelErrorJSON `json:"model_error"`
	Swarm      *swarmJSON      `json:"swarm"`

	file string // the result file it was read from
}

// mergeReport is the --json output of swarm merge: a public contract.
type mergeReport struct {
	Verdict    string            `json:"verdict"`
	Command    string            `json:"command"` // check or simulate
	Algorithm  string            `json:"algorithm"`
	Params     map[string]int    `json:"params"`
	Properties []string          `json:"properties"`
	Setup      map[string]string `json:"setup"`
	Shards     int               `json:"shards"` // K
	Merged     int               `json:"merged"` // result files read
	Missing    []int             `json:"missing"`
	// Violation is the shortest violation among the shards, replayed by
	// merge.
	Violation *mergeViolation `json:"violation,omitempty"`
	// CompleteShard is a check shard that searched every reachable state
	// (verdict ok), when one did.
	CompleteShard *int           `json:"complete_shard,omitempty"`
	Coverage      *mergeCoverage `json:"coverage,omitempty"`
	Table         []mergeRow     `json:"table"`
	// ModelError is the shortest failure of the model (a panic in its
	// code) among the shards, when no shard found a violation: verdict
	// "model-error", exit 5.
	ModelError *mergeModelError `json:"model_error,omitempty"`
}

// mergeModelError is a shard's model failure, as its result file says.
type mergeModelError struct {
	Shard int `json:"shard"`
	modelErrorJSON
}

type mergeViolation struct {
	Shard     int    `json:"shard"`
	Property  string `json:"property"`
	Length    int    `json:"length"`
	TraceFile string `json:"trace_file"`
	Replayed  bool   `json:"replayed"`
}

// mergeCoverage is the coverage estimate of the check shards together
// (explore.SwarmCoverage).
type mergeCoverage struct {
	// Sample is the number of states of the common fingerprint sample
	// that some shard visited, SampleByShard those each shard visited.
	Sample        int   `json:"sample"`
	SampleByShard []int `json:"sample_by_shard"`
	// UnionStates estimates the distinct states some shard visited;
	// LargestShardStates is the most one shard visited (a lower bound of
	// the reachable states).
	UnionStates        float64 `json:"union_states"`
	LargestShardStates int64   `json:"largest_shard_states"`
	// ReachableStates and Coverage (UnionStates/ReachableStates) are
	// estimated from the shards that ran their search to its end only
	// (verdict ok-partial); they are absent when fewer than two did, or
	// when their samples do not overlap. Excluded lists the shards that
	// stopped early (a bound, the memory budget, an interrupt): they
	// count in the union, but a search cut at a frontier is no random
	// capture of the states.
	Excluded        []int   `json:"excluded_shards"`
	ReachableStates float64 `json:"reachable_states,omitempty"`
	Coverage        float64 `json:"coverage,omitempty"`
	Derivation      string  `json:"derivation"`
}

type mergeRow struct {
	Index            int     `json:"index"`
	File             string  `json:"file"`
	Description      string  `json:"description"`
	Verdict          string  `json:"verdict"`
	StopReason       string  `json:"stop_reason,omitempty"`
	States           int64   `json:"states,omitempty"`
	Transitions      int64   `json:"transitions,omitempty"`
	Runs             int     `json:"runs,omitempty"`
	Steps            int64   `json:"steps,omitempty"`
	ElapsedS         float64 `json:"elapsed_s"`
	HashFactor       float64 `json:"hash_factor,omitempty"`
	ExpectedCoverage float64 `json:"expected_coverage,omitempty"`
	Violation        string  `json:"violation,omitempty"` // property and length
	TraceFile        string  `json:"trace_file,omitempty"`
}

const coverageDerivation = "fingerprints at most the threshold t (the smallest k-th fingerprint over the shards' samples) are a uniform sample of the states, complete for every shard; union = sample*2^64/(t+1); reachable R solves sample = R(1-prod_i(1-a_i/R)) over the shards that ran to their end (capture-recapture, shards visiting states independently; a_i: the sample states shard i visited); coverage = union/reachable; optimistic when shards miss the same states (docs/distributed.md)"

func cmdSwarmMerge(cat *catalog, args []string, stdout io.Writer) (int, error) {
	fs := cat.newFlagSet("swarm merge", swarmMergeSynopsis, stdout)
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) == 0 {
		return 0, badInput("swarm merge needs the shards' result FILEs (or a DIR holding shard-*.json)")
	}
	shards, err := readShards(pos)
	if err != nil {
		return 0, err
	}
	rep, err := mergeShards(cat, shards)
	if err != nil {
		return 0, err
	}
	if *asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return 0, err
		}
	} else {
		printMerge(stdout, cat.prog, rep)
	}
	switch {
	case rep.Verdict == verdictViolation:
		return exitViolation, nil
	case rep.Verdict == verdictModelError:
		return exitModelError, nil
	case len(rep.Missing) > 0:
		return exitIncomplete, nil
	}
	return exitOK, nil
}

// readShards reads the result files the arguments name, a directory
// standing for its shard-*.json.
func readShards(args []string) ([]*shardResult, error) {
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, badInput("swarm merge: %v", err)
		}
		if !fi.IsDir() {
			files = append(files, a)
			continue
		}
		m, _ := filepath.Glob(filepath.Join(a, "shard-*.json"))
		var found []string
		for _, f := range m {
			if !strings.HasSuffix(f, ".trace.json") {
				found = append(found, f)
			}
		}
		if len(found) == 0 {
			return nil, badInput("swarm merge: directory %s holds no shard-*.json result file", a)
		}
		files = append(files, found...)
	}
	var out []*shardResult
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, badInput("swarm merge: %v", err)
		}
		var r shardResult
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, badInput("swarm merge: %s is not a shard's JSON result: %v", f, err)
		}
		if r.Swarm == nil || r.Swarm.Setup == nil {
			return nil, badInput("swarm merge: %s is not a shard's result (no \"swarm\" object); shards are run with check or simulate --swarm K --swarm-out DIR", f)
		}
		r.file = f
		out = append(out, &r)
	}
	return out, nil
}

// mergeShards checks that the shards belong to one swarm and merges them.
func mergeShards(cat *catalog, shards []*shardResult) (*mergeReport, error) {
	first := shards[0]
	byIndex := map[int]*shardResult{}
	for _, s := range shards {
		if diff := setupDiff(first.Swarm.Setup, s.Swarm.Setup); diff != "" {
			return nil, badInput("swarm merge: %s (shard %d) and %s (shard %d) are not shards of one swarm: %s", first.file, first.Swarm.Index, s.file, s.Swarm.Index, diff)
		}
		if s.Swarm.Index < 0 || s.Swarm.Index >= s.Swarm.Shards {
			return nil, badInput("swarm merge: %s: shard index %d is out of range 0..%d", s.file, s.Swarm.Index, s.Swarm.Shards-1)
		}
		if o, dup := byIndex[s.Swarm.Index]; dup {
			return nil, badInput("swarm merge: %s and %s are both shard %d; give each shard's result once", o.file, s.file, s.Swarm.Index)
		}
		byIndex[s.Swarm.Index] = s
	}
	sort.Slice(shards, func(i, j int) bool { return shards[i].Swarm.Index < shards[j].Swarm.Index })
	rep := &mergeReport{Command: first.Swarm.Setup["command"], Algorithm: first.Algorithm, Params: first.Params, Properties: first.Properties,
		Setup: first.Swarm.Setup, Shards: first.Swarm.Shards, Merged: len(shards), Missing: []int{}, Table: []mergeRow{}}
	for i := range rep.Shards {
		if byIndex[i] == nil {
			rep.Missing = append(rep.Missing, i)
		}
	}
	var violating []*shardResult
	for _, s := range shards {
		rep.Table = append(rep.Table, tableRow(s))
		if s.Violation != nil {
			violating = append(violating, s)
		}
		if me := s.ModelError; me != nil && (rep.ModelError == nil || me.Length < rep.ModelError.Length) {
			rep.ModelError = &mergeModelError{Shard: s.Swarm.Index, modelErrorJSON: *me}
		}
		if s.Verdict == verdictOK && rep.Command == "check" && rep.CompleteShard == nil {
			rep.CompleteShard = &s.Swarm.Index
		}
	}
	if len(violating) > 0 {
		rep.Verdict = verdictViolation
		v, err := replayShortest(cat, violating)
		if err != nil {
			return nil, err
		}
		rep.Violation = v
		return rep, nil
	}
	if rep.ModelError != nil {
		rep.Verdict = verdictModelError
		return rep, nil
	}
	rep.Verdict = verdictOKPartial
	if rep.CompleteShard != nil {
		rep.Verdict = verdictOK
	}
	if rep.Command == "check" {
		cov, err := shardCoverage(shards)
		if err != nil {
			return nil, err
		}
		rep.Coverage = cov
	}
	return rep, nil
}

// setupDiff names the first difference between two shards' setups ("" if
// none).
func setupDiff(a, b map[string]string) string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if a[k] != b[k] {
			return fmt.Sprintf("%s %q vs %q", k, a[k], b[k])
		}
	}
	return ""
}

func tableRow(s *shardResult) mergeRow {
	r := mergeRow{Index: s.Swarm.Index, File: s.file, Description: s.Swarm.Description, Verdict: s.Verdict, StopReason: s.StopReason,
		States: s.States, Transitions: s.Transitions, Runs: s.Runs, Steps: s.Steps, ElapsedS: s.ElapsedS}
	if b := s.Bitstate; b != nil {
		r.HashFactor, r.ExpectedCoverage = b.HashFactor, b.ExpectedCoverage
	}
	if v := s.Violation; v != nil {
		r.Violation = fmt.Sprintf("%s in %d steps", v.Property, v.Length)
		r.TraceFile = v.TraceFile
	}
	return r
}

// replayShortest replays the violations' traces, shortest first (then by
// shard index), and returns the first that reproduces. A trace file is
// looked for where the shard wrote it, then beside its result file (the
// results may have been copied off the cluster).
func replayShortest(cat *catalog, violating []*shardResult) (*mergeViolation, error) {
	sort.SliceStable(violating, func(i, j int) bool { return violating[i].Violation.Length < violating[j].Violation.Length })
	var problems []string
	for _, s := range violating {
		file := s.Violation.TraceFile
		if _, err := os.Stat(file); err != nil || file == "" {
			file = filepath.Join(filepath.Dir(s.file), filepath.Base(s.Violation.TraceFile))
		}
		if s.Violation.TraceFile == "" {
			problems = append(problems, fmt.Sprintf("shard %d wrote no trace file", s.Swarm.Index))
			continue
		}
		_, res, err := replayFile(cat, file)
		if err != nil {
			problems = append(problems, fmt.Sprintf("shard %d: %v", s.Swarm.Index, err))
			continue
		}
		if !res.OK {
			problems = append(problems, fmt.Sprintf("shard %d: %s does not replay: %s", s.Swarm.Index, file, res.Reason))
			continue
		}
		return &mergeViolation{Shard: s.Swarm.Index, Property: s.Violation.Property, Length: s.Violation.Length, TraceFile: file, Replayed: true}, nil
	}
	return nil, badInput("swarm merge: shards report violations but no trace replays: %s", strings.Join(problems, "; "))
}

// shardCoverage estimates the coverage of the check shards together from
// their fingerprint samples.
func shardCoverage(shards []*shardResult) (*mergeCoverage, error) {
	size := shards[0].Swarm.SketchSize
	var sketches, complete [][]uint64
	var largest int64
	excluded := []int{}
	for _, s := range shards {
		sk, err := decodeSketch(s.Swarm.Sketch)
		if err != nil {
			return nil, badInput("swarm merge: %s: %v", s.file, err)
		}
		if s.Swarm.SketchSize != size {
			return nil, badInput("swarm merge: %s keeps a sample of %d fingerprints, %s of %d; merge shards of one swarm", s.file, s.Swarm.SketchSize, shards[0].file, size)
		}
		sketches = append(sketches, sk)
		largest = max(largest, s.States)
		if s.Verdict == verdictOKPartial {
			complete = append(complete, sk)
		} else {
			excluded = append(excluded, s.Swarm.Index)
		}
	}
	c, err := explore.EstimateSwarmCoverage(sketches, size)
	if err != nil {
		return nil, badInput("swarm merge: %v", err)
	}
	mc := &mergeCoverage{Sample: c.Sample, SampleByShard: c.InSample, UnionStates: c.Union, LargestShardStates: largest,
		Excluded: excluded, Derivation: coverageDerivation}
	if len(complete) >= 2 {
		cc, err := explore.EstimateSwarmCoverage(complete, size)
		if err != nil {
			return nil, badInput("swarm merge: %v", err)
		}
		if cc.Reachable > 0 {
			mc.ReachableStates = max(cc.Reachable, c.Union)
			mc.Coverage = c.Union / mc.ReachableStates
		}
	}
	return mc, nil
}

func printMerge(w io.Writer, prog string, rep *mergeReport) {
	fmt.Fprintf(w, "swarm of %d shards (%d merged): %s %s %s, properties %s\n", rep.Shards, rep.Merged, rep.Command, rep.Algorithm, paramString(rep.Params), strings.Join(rep.Properties, ", "))
	fmt.Fprintf(w, "%-5s  %-62s  %-10s  %12s  %9s  %s\n", "shard", "diversification", "verdict", "states/steps", "time", "note")
	for _, r := range rep.Table {
		desc := strings.TrimPrefix(r.Description, fmt.Sprintf("shard %d of %d: ", r.Index, rep.Shards))
		work := r.States
		if rep.Command == "simulate" {
			work = r.Steps
		}
		note := r.StopReason
		switch {
		case r.Violation != "":
			note = r.Violation + ": " + r.TraceFile
		case r.HashFactor > 0:
			note = strings.TrimSpace(fmt.Sprintf("%s hash factor %.1f", note, r.HashFactor))
		}
		fmt.Fprintf(w, "%-5d  %-62s  %-10s  %12d  %8.1fs  %s\n", r.Index, desc, r.Verdict, work, r.ElapsedS, note)
	}
	if len(rep.Missing) > 0 {
		fmt.Fprintf(w, "missing shards: %s\n", strings.Trim(fmt.Sprint(rep.Missing), "[]"))
	}
	switch rep.Verdict {
	case verdictViolation:
		v := rep.Violation
		fmt.Fprintf(w, "verdict: VIOLATION of %s (shard %d, %d steps; the trace replays)\ntrace: %s; replay it with: %s replay %s\n", v.Property, v.Shard, v.Length, v.TraceFile, progOr(prog), v.TraceFile)
	case verdictModelError:
		me := rep.ModelError
		fmt.Fprintf(w, "verdict: MODEL ERROR (shard %d, after %d steps): %s\ntrace: %s; replay it with: %s replay %s\n", me.Shard, me.Length, me.Message, me.TraceFile, progOr(prog), me.TraceFile)
	case verdictOK:
		fmt.Fprintf(w, "verdict: ok, shard %d searched every reachable state\n", *rep.CompleteShard)
	default:
		fmt.Fprintf(w, "verdict: ok-partial, no shard found a violation\n")
		if c := rep.Coverage; c != nil {
			if c.ReachableStates > 0 {
				fmt.Fprintf(w, "coverage: the shards together visited about %.0f states, an estimated %.2f%% of about %.0f reachable (sample of %d states; capture-recapture, optimistic if the shards miss the same states: see docs/distributed.md)\n",
					c.UnionStates, 100*c.Coverage, c.ReachableStates, c.Sample)
			} else {
				fmt.Fprintf(w, "coverage: the shards together visited about %.0f states; the reachable states are not estimated: that needs two shards that ran to their end (ok-partial) with overlapping samples\n", c.UnionStates)
			}
			if len(c.Excluded) > 0 {
				fmt.Fprintf(w, "shards stopped early (not in the estimate of the reachable states, their searches being cut at a frontier): %s\n", strings.Trim(fmt.Sprint(c.Excluded), "[]"))
			}
		}
	}
}
