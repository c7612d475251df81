package cli

// This file holds the shard side of swarm verification: the --swarm flags
// of check and simulate, the shard's index (from --swarm-index or the
// scheduler's environment), its diversification, and the result file it
// leaves for 'tokenmc swarm merge' (swarm_merge.go). 'tokenmc swarm plan'
// (swarm_plan.go) writes the batch jobs that run the shards.

import (
	"bytes"
	bin "encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tokenmc/tokenmc/cmd/internal/outfile"
	"github.com/tokenmc/tokenmc/explore"
)

// The environment variables a scheduler sets to a job's index in an array
// of jobs, in the order they are looked at.
const (
	envK8sIndex   = "JOB_COMPLETION_INDEX" // Kubernetes Indexed Job
	envSlurmIndex = "SLURM_ARRAY_TASK_ID"  // Slurm job array
)

// swarmFlags are the --swarm flags of check and simulate.
type swarmFlags struct {
	shards, index, depth *int
	out                  *string
}

func addSwarmFlags(fs *flag.FlagSet, check bool) *swarmFlags {
	f := &swarmFlags{
		shards: fs.Int("swarm", 0, "run as one shard of a swarm of `K` diversified searches (see docs/distributed.md); the shard's index comes from --swarm-index, else "+envK8sIndex+" or "+envSlurmIndex),
		index:  fs.Int("swarm-index", -1, "this shard's index `I` in 0..K-1 (default: from "+envK8sIndex+" or "+envSlurmIndex+")"),
		out:    fs.String("swarm-out", "", "write this shard's JSON result to `DIR`/shard-I.json and its trace to DIR/shard-I.trace.json, and exit 0 once they are written, whatever the verdict ('tokenmc swarm merge' gives it)"),
	}
	if check {
		f.depth = fs.Int("swarm-depth", 0, "depth bound `D` of the depth-bounded shards (index 6 mod 8: D, 7 mod 8: 2D; 0: those shards are unbounded)")
	}
	return f
}

// swarmShard is the shard this process runs, resolved from the flags.
type swarmShard struct {
	explore.SwarmShard
	from string // where the index came from: "--swarm-index" or an environment variable
	out  string // --swarm-out ("": none)
	// setup describes what every shard of the swarm must share (the
	// model, its parameters, the properties, the search's options): swarm
	// merge refuses shards whose setups differ.
	setup map[string]string
}

// resolve returns the shard this process runs, or nil without --swarm.
func (f *swarmFlags) resolve(fs *flag.FlagSet) (*swarmShard, error) {
	given := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	if *f.shards == 0 && !given["swarm"] {
		for _, n := range []string{"swarm-index", "swarm-out", "swarm-depth"} {
			if given[n] {
				return nil, badInput("--%s needs --swarm K (the number of shards)", n)
			}
		}
		return nil, nil
	}
	k := *f.shards
	if k < 1 || k > maxSwarmShards {
		return nil, badInput("--swarm %d is out of range; give the number of shards, 1..%d", k, maxSwarmShards)
	}
	index, from := *f.index, "--swarm-index"
	if !given["swarm-index"] {
		from = ""
		for _, env := range []string{envK8sIndex, envSlurmIndex} {
			if v, ok := os.LookupEnv(env); ok && strings.TrimSpace(v) != "" {
				n, err := strconv.Atoi(strings.TrimSpace(v))
				if err != nil {
					return nil, badInput("%s=%q is not a shard index; it must be an integer in 0..%d", env, v, k-1)
				}
				index, from = n, env
				break
			}
		}
		if from == "" {
			return nil, badInput("--swarm %d needs this shard's index: give --swarm-index I (0..%d), or run under a scheduler that sets %s (Kubernetes Indexed Job) or %s (Slurm job array)", k, k-1, envK8sIndex, envSlurmIndex)
		}
	}
	if index < 0 || index >= k {
		return nil, badInput("shard index %d (from %s) is out of range for --swarm %d; give 0..%d (a Slurm array for %d shards is --array=0-%d)", index, from, k, k-1, k, k-1)
	}
	depth := 0
	if f.depth != nil {
		depth = *f.depth
	}
	if depth < 0 {
		return nil, badInput("--swarm-depth must be >= 0, got %d", depth)
	}
	sh, err := explore.NewSwarmShard(index, k, depth)
	if err != nil {
		return nil, badInput("%v", err)
	}
	s := &swarmShard{SwarmShard: sh, from: from, out: *f.out}
	if s.out != "" {
		if fi, err := os.Stat(s.out); err != nil || !fi.IsDir() {
			return nil, badInput("--swarm-out %s: no such directory; create it first (every shard writes its files there)", s.out)
		}
	}
	s.setup = map[string]string{"shards": strconv.Itoa(k), "swarm_depth": strconv.Itoa(depth)}
	return s, nil
}

// maxSwarmShards bounds --swarm: far beyond any batch array, small enough
// that a mistyped count is caught.
const maxSwarmShards = 1 << 20

// refuseWithSwarm refuses flags a shard cannot take: each names what the
// shard index decides or what must differ from shard to shard.
func refuseWithSwarm(fs *flag.FlagSet, s *swarmShard, why map[string]string) error {
	if s == nil {
		return nil
	}
	var err error
	fs.Visit(func(fl *flag.Flag) {
		if msg, ok := why[fl.Name]; ok && err == nil {
			err = badInput("--%s cannot be combined with --swarm: %s", fl.Name, msg)
		}
	})
	return err
}

// traceOut is the trace file of the shard: shard-I.trace.json (shard-I.sim.trace.json
// for simulate) in --swarm-out or the current directory.
func (s *swarmShard) traceOut(sim bool) string {
	name := fmt.Sprintf("shard-%d.trace.json", s.Index)
	if sim {
		name = fmt.Sprintf("shard-%d.sim.trace.json", s.Index)
	}
	return filepath.Join(s.out, name)
}

// swarmJSON is the "swarm" object of a shard's --json output and result
// file: a public contract.
type swarmJSON struct {
	Index  int `json:"index"`
	Shards int `json:"shards"`
	// IndexFrom is where the index came from: --swarm-index,
	// JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID.
	IndexFrom string `json:"index_from"`
	// Description is the shard's diversification in words.
	Description string `json:"description"`
	// Search, Order, HashSeed and MaxDepth are the diversification (check
	// only): bfs or dfs, the successor order, the seed of the fingerprint
	// and bitstate hash functions, the shard's depth bound (0: none).
	Search   string `json:"search,omitempty"`
	Order    string `json:"order,omitempty"`
	HashSeed string `json:"hash_seed,omitempty"`
	MaxDepth int    `json:"max_depth,omitempty"`
	// Seed is the shard's random seed (simulate only): --seed plus the
	// index, so the shards' walks are disjoint draws.
	Seed uint64 `json:"seed,omitempty"`
	// SketchSize and Sketch are the fingerprint sample of the states the
	// shard visited (check only): its SketchSize smallest fingerprints,
	// little-endian uint64s in base64 (all of them when fewer), from which
	// swarm merge estimates the coverage of the shards together.
	SketchSize int    `json:"sketch_size,omitempty"`
	Sketch     []byte `json:"sketch,omitempty"`
	// Setup is what every shard of the swarm shares; swarm merge refuses
	// shards whose setups differ.
	Setup map[string]string `json:"setup"`
	// ResultFile is the result file written (--swarm-out), if any.
	ResultFile string `json:"result_file,omitempty"`
}

func (s *swarmShard) json() *swarmJSON {
	j := &swarmJSON{Index: s.Index, Shards: s.Shards, IndexFrom: s.from, Description: s.String(), Setup: s.setup}
	if s.out != "" {
		j.ResultFile = filepath.Join(s.out, fmt.Sprintf("shard-%d.json", s.Index))
	}
	return j
}

// checkJSON is the swarm object of a check shard.
func (s *swarmShard) checkJSON(sketchSize int, sketch []uint64) *swarmJSON {
	j := s.json()
	j.Search, j.HashSeed, j.MaxDepth = s.Search(), fmt.Sprintf("%#x", s.HashSeed), s.MaxDepth
	if s.DFS {
		j.Order = s.Order.String()
	}
	j.SketchSize = sketchSize
	j.Sketch = make([]byte, 0, 8*len(sketch))
	for _, fp := range sketch {
		j.Sketch = bin.LittleEndian.AppendUint64(j.Sketch, fp)
	}
	return j
}

// decodeSketch is the inverse of the encoding of swarmJSON.Sketch.
func decodeSketch(b []byte) ([]uint64, error) {
	if len(b)%8 != 0 {
		return nil, fmt.Errorf("sketch of %d bytes is not a list of 8-byte fingerprints", len(b))
	}
	out := make([]uint64, len(b)/8)
	for i := range out {
		out[i] = bin.LittleEndian.Uint64(b[8*i:])
	}
	return out, nil
}

// save writes the shard's result file (with --swarm-out): the same JSON
// object as --json prints.
func (s *swarmShard) save(rep any) error {
	if s == nil || s.out == "" {
		return nil
	}
	var b bytes.Buffer
	if err := writeJSON(&b, rep); err != nil {
		return err
	}
	path := filepath.Join(s.out, fmt.Sprintf("shard-%d.json", s.Index))
	if _, err := outfile.WriteFile(path, outfile.Replace, b.Bytes()); err != nil {
		return badInput("--swarm-out: writing %s: %v", path, err)
	}
	return nil
}

// exitCode is the exit code of a shard whose search ended with code: with
// --swarm-out the verdict is in the result file, so a shard that wrote it
// exits 0 (a scheduler retries only the shards that failed to run).
func (s *swarmShard) exitCode(code int) int {
	if s != nil && s.out != "" && (code == exitViolation || code == exitIncomplete || code == exitModelError) {
		return exitOK
	}
	return code
}

// describeSetup records, for check, what every shard must share.
func (s *swarmShard) describeSetup(cmd, algo string, params map[string]int, props []string, extra map[string]string) {
	if s == nil {
		return
	}
	s.setup["command"] = cmd
	s.setup["algorithm"] = algo
	s.setup["params"] = paramString(params)
	s.setup["properties"] = strings.Join(props, ",")
	for k, v := range extra {
		s.setup[k] = v
	}
}

// checkRefusals are check's flags a shard cannot take, and why.
var checkRefusals = map[string]string{
	"dfs":        "the shard index chooses breadth or depth first (see docs/distributed.md)",
	"out":        "every shard names its own trace, shard-I.trace.json in --swarm-out (or the current directory)",
	"trace-out":  "every shard names its own trace, shard-I.trace.json in --swarm-out (or the current directory)",
	"checkpoint": "shards are restarted from scratch; checkpoints keep seed-0 fingerprints",
	"resume":     "shards are restarted from scratch; checkpoints keep seed-0 fingerprints",
	"report":     "every shard would write the same report file; merge the shards with 'tokenmc swarm merge' instead",
}

// prepareCheck sets up a check shard: its diversification in opts, its
// trace file and its setup; cs must ask for safety properties only.
func (s *swarmShard) prepareCheck(cs *checkSetup, opts *explore.Options, traceOut *string) error {
	if s == nil {
		return nil
	}
	if len(cs.liveness) > 0 {
		return badInput("--swarm checks safety properties only; drop %s from --props (liveness needs the whole state graph in one process)", strings.Join(cs.liveness, ", "))
	}
	userDepth := opts.MaxDepth
	s.Apply(opts)
	*traceOut = s.traceOut(false)
	mode := "fingerprint"
	switch {
	case opts.Exact:
		mode = "exact"
	case opts.Bitstate > 0:
		mode = fmt.Sprintf("bitstate %d bytes", opts.Bitstate)
	}
	s.describeSetup("check", cs.v.Name, cs.params, propNames(cs.selected), map[string]string{
		"mode": mode, "max_depth": strconv.Itoa(userDepth), "max_states": strconv.FormatInt(opts.MaxStates, 10),
		"symmetry": strconv.FormatBool(cs.sym != nil), "channel_capacity": strconv.Itoa(cs.capacity),
		"sketch_size": strconv.Itoa(opts.Sketch),
	})
	return nil
}

// finishCheck records the shard in the report and writes its result file.
func (s *swarmShard) finishCheck(rep *checkReport, res *explore.Result, opts explore.Options) error {
	if s == nil {
		return nil
	}
	rep.Swarm = s.checkJSON(opts.Sketch, res.Sketch)
	return s.save(rep)
}

// printSwarmShard prints the shard's line of the text report.
func printSwarmShard(w io.Writer, j *swarmJSON) {
	if j == nil {
		return
	}
	fmt.Fprintf(w, "swarm %s (index from %s)", j.Description, j.IndexFrom)
	if j.ResultFile != "" {
		fmt.Fprintf(w, "; result written to %s", j.ResultFile)
	}
	fmt.Fprintln(w)
}

// prepareSwarm sets up a simulate shard: its seed is --seed plus its index
// (so the shards' walks are disjoint draws, and shard I is reproduced by
// 'simulate --seed X+I' alone), its trace file, its setup.
func (f *simFlags) prepareSwarm(s *swarmShard, ss *simSetup) error {
	if s == nil {
		return nil
	}
	if err := refuseWithSwarm(f.fs, s, map[string]string{
		"out":       "every shard names its own trace, shard-I.sim.trace.json in --swarm-out (or the current directory)",
		"trace-out": "every shard names its own trace, shard-I.sim.trace.json in --swarm-out (or the current directory)",
	}); err != nil {
		return err
	}
	s.describeSetup("simulate", ss.v.Name, ss.params, propNames(ss.selected), map[string]string{
		"strategy": string(ss.strategy), "steps": strconv.Itoa(*f.steps), "runs": strconv.Itoa(*f.runs),
		"depth": strconv.Itoa(*f.depth), "base_seed": strconv.FormatUint(*f.seed, 10),
		"channel_capacity": strconv.Itoa(ss.capacity), "shrink": strconv.FormatBool(!*f.noShrink),
	})
	*f.seed += uint64(s.Index)
	*f.traceOut = s.traceOut(true)
	return nil
}

// simulateJSON is the swarm object of a simulate shard whose seed is seed.
func (s *swarmShard) simulateJSON(seed uint64) *swarmJSON {
	j := s.json()
	j.Description = fmt.Sprintf("shard %d of %d: simulate, seed %d (--seed + %d)", s.Index, s.Shards, seed, s.Index)
	j.Seed = seed
	return j
}
