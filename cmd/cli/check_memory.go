package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tokenmc/tokenmc/cmd/internal/memsize"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
)

// memoryFlags are check's flags for memory and disk: --memory, --workdir
// and --spill-above.
type memoryFlags struct {
	memory, workdir, spill, bitstate *string
	checkpoint, resume               *string
	every                            *time.Duration
	replace                          *bool
}

func addMemoryFlags(fs *flag.FlagSet) *memoryFlags {
	return &memoryFlags{
		memory:     fs.String("memory", "", "memory budget `SIZE` (e.g. 16GiB, 1500MiB): stop cleanly (exit 3, stop_reason memory) rather than exceed it (default: 75% of the memory available, cgroup aware)"),
		workdir:    fs.String("workdir", "", "directory `DIR` for the frontier and link spill files, in a subdirectory removed at the end (default: the system's temporary directory)"),
		bitstate:   fs.String("bitstate", "", "bitstate (supertrace) search with a bit array of `SIZE` (e.g. 1GiB), 3 bits per state: fits any state space but may miss states; verdict ok-partial instead of ok"),
		checkpoint: fs.String("checkpoint", "", "write a checkpoint of the search to directory `DIR` every --checkpoint-every and when it stops early (Ctrl-C, memory budget), so that --resume can continue it"),
		replace:    fs.Bool("checkpoint-replace", false, "let --checkpoint DIR replace a checkpoint of another search found there (refused otherwise)"),
		every:      fs.Duration("checkpoint-every", 10*time.Minute, "interval between two checkpoints (with --checkpoint)"),
		resume:     fs.String("resume", "", "continue the search checkpointed in `DIR` (the algorithm, parameters, properties and options come from the checkpoint; any given must match)"),
		spill:      fs.String("spill-above", "", "keep up to `SIZE` of one level's states (and of links) in memory before spilling to the work directory (default 4MiB; 0: never spill)"),
	}
}

// apply checks the flags and sets the options they ask for.
func (m *memoryFlags) apply(o *explore.Options) error {
	if *m.memory != "" {
		b, err := memsize.Parse(*m.memory)
		if err != nil {
			return badInput("--memory: %v", err)
		}
		if b < 64<<20 {
			return badInput("--memory %s is too small; give at least 64MiB", *m.memory)
		}
		o.MemoryBudget = b
	} else {
		o.MemoryBudget = memsize.DefaultBudget()
	}
	if *m.spill != "" {
		b, err := memsize.Parse(*m.spill)
		if err != nil {
			return badInput("--spill-above: %v", err)
		}
		o.SpillAbove = b
		if b == 0 {
			o.SpillAbove = -1
		}
	}
	if *m.bitstate != "" {
		b, err := memsize.Parse(*m.bitstate)
		if err != nil {
			return badInput("--bitstate: %v", err)
		}
		if b < 4<<10 {
			return badInput("--bitstate %s is too small; give at least 4KiB (SPIN's default is 16MiB)", *m.bitstate)
		}
		if o.Exact {
			return badInput("--bitstate and --exact exclude each other: bitstate keeps 3 bits per state, exact the whole state")
		}
		if b > o.MemoryBudget {
			return badInput("--bitstate %s does not fit in the memory budget of %d MiB; give a smaller --bitstate or a larger --memory", *m.bitstate, o.MemoryBudget>>20)
		}
		o.Bitstate = b
	}
	if *m.checkpoint != "" {
		if fi, err := os.Stat(*m.checkpoint); err != nil || !fi.IsDir() {
			return badInput("--checkpoint %s: no such directory; create it first", *m.checkpoint)
		}
		if o.DFS {
			return badInput("--checkpoint and --resume are for breadth-first search; drop --dfs")
		}
		o.Checkpoint = *m.checkpoint
		o.CheckpointReplace = *m.replace
	}
	if *m.every <= 0 {
		return badInput("--checkpoint-every must be positive, e.g. 10m")
	}
	o.CheckpointEvery = *m.every
	o.Resume = *m.resume
	if *m.workdir != "" {
		if fi, err := os.Stat(*m.workdir); err != nil || !fi.IsDir() {
			return badInput("--workdir %s: no such directory; give an existing directory for the spill files", *m.workdir)
		}
		o.WorkDir = *m.workdir
	}
	return nil
}

// refuseLiveness refuses --resume with liveness properties, and
// --checkpoint with liveness properties alone: the liveness analysis keeps
// the state graph in memory and writes no checkpoint, so the flag would be
// ignored.
func (m *memoryFlags) refuseLiveness(liveness []string, safety bool) error {
	if len(liveness) == 0 {
		return nil
	}
	if *m.resume != "" {
		return badInput("--resume continues a safety search; the liveness analysis (%s) is not checkpointed and cannot be resumed: resume without the liveness properties, then check them in a run of their own", strings.Join(liveness, ", "))
	}
	if *m.checkpoint != "" && !safety {
		return badInput("--checkpoint saves a safety search; the liveness analysis (%s) is not checkpointed: drop --checkpoint or add safety properties", strings.Join(liveness, ", "))
	}
	return nil
}

// progressJSON is one progress line of check --json, printed on stderr.
type progressJSON struct {
	Progress      bool    `json:"progress"`
	States        int64   `json:"states"`
	StatesPerS    float64 `json:"states_per_s"`
	Transitions   int64   `json:"transitions"`
	Frontier      int64   `json:"frontier"`
	Depth         int     `json:"depth"`
	ElapsedS      float64 `json:"elapsed_s"`
	RSSBytes      int64   `json:"rss_bytes"`
	MemoryBudget  int64   `json:"memory_budget_bytes,omitempty"`
	BudgetPercent float64 `json:"budget_percent,omitempty"`
	SpilledBytes  int64   `json:"spilled_bytes"`
}

// progressPrinter prints check's progress on stderr: a line of text, or a
// JSON object per line with --json.
func progressPrinter(stderr io.Writer, asJSON bool) func(explore.Progress) {
	return func(p explore.Progress) {
		rate := float64(p.States-p.ResumedStates) / p.Elapsed.Seconds()
		pct := 0.0
		if p.MemoryBudget > 0 {
			pct = 100 * float64(p.RSSBytes) / float64(p.MemoryBudget)
		}
		if asJSON {
			b, _ := json.Marshal(progressJSON{Progress: true, States: p.States, StatesPerS: rate, Transitions: p.Transitions,
				Frontier: p.Frontier, Depth: p.Depth, ElapsedS: p.Elapsed.Seconds(), RSSBytes: p.RSSBytes,
				MemoryBudget: p.MemoryBudget, BudgetPercent: pct, SpilledBytes: p.SpilledBytes})
			fmt.Fprintf(stderr, "%s\n", b)
			return
		}
		budget := ""
		if p.MemoryBudget > 0 {
			budget = fmt.Sprintf(" (%.0f%% of budget)", pct)
		}
		fmt.Fprintf(stderr, "progress: %d states (%.0f/s), %d transitions, frontier %d, depth %d, RSS %.0f MiB%s, spilled %.0f MiB, %s\n",
			p.States, rate, p.Transitions, p.Frontier, p.Depth, float64(p.RSSBytes)/(1<<20), budget,
			float64(p.SpilledBytes)/(1<<20), p.Elapsed.Round(time.Second))
	}
}

// memoryReport fills the report's memory fields from a result.
func memoryReport(rep *checkReport, res *explore.Result) {
	rep.PeakRSSBytes = res.PeakRSS
	rep.RSSBytesPerState = res.RSSBytesPerState()
	rep.MemoryBudgetBytes = res.MemoryBudget
	rep.SpilledBytes = res.SpilledBytes
	rep.StopDetail = res.StopDetail
	if b := res.Bitstate; b != nil {
		rep.Mode = "bitstate"
		rep.CollisionProbability = 0
		rep.Bitstate = &bitstateJSON{Bits: b.Bits, K: b.K, Stored: b.Stored, HashFactor: b.HashFactor,
			ExpectedCoverage: b.ExpectedCoverage, FalsePositive: b.FalsePositive}
	}
}

// bitstateJSON describes a bitstate search in check --json.
type bitstateJSON struct {
	Bits             int64   `json:"bits"`
	K                int     `json:"k"`
	Stored           int64   `json:"stored"`
	HashFactor       float64 `json:"hash_factor"`
	ExpectedCoverage float64 `json:"expected_coverage"`
	FalsePositive    float64 `json:"false_positive"`
}

func printBitstate(w io.Writer, rep *checkReport) {
	if b := rep.Bitstate; b != nil {
		fmt.Fprintf(w, "bitstate: %d bits, k=%d, %d states stored, hash factor %.1f (SPIN: best if > 100), expected coverage %.4f (optimistic), false-positive probability at the end %.2g\n",
			b.Bits, b.K, b.Stored, b.HashFactor, b.ExpectedCoverage, b.FalsePositive)
	}
}

func spillNote(rep *checkReport) string {
	s := ""
	if rep.MemoryBudgetBytes > 0 {
		s = fmt.Sprintf(", budget %.0f MiB", float64(rep.MemoryBudgetBytes)/(1<<20))
	}
	if rep.SpilledBytes > 0 {
		s += fmt.Sprintf(", %.0f MiB spilled to disk", float64(rep.SpilledBytes)/(1<<20))
	}
	return s
}

// checkpointIdentity is what a checkpoint records of the search it
// belongs to; --resume refuses a checkpoint whose identity differs.
type checkpointIdentity struct {
	Algorithm  string         `json:"algorithm"`
	Params     map[string]int `json:"params"`
	Properties []string       `json:"properties"`
	Exact      bool           `json:"exact,omitempty"`
	Bitstate   string         `json:"bitstate,omitempty"`
	MaxStates  int64          `json:"max_states,omitempty"`
	MaxDepth   int            `json:"max_depth,omitempty"`
	Symmetry   bool           `json:"symmetry,omitempty"`
	// ChannelCapacity is --channel-capacity (omitted when 0, so older
	// checkpoints keep their identity).
	ChannelCapacity int    `json:"channel_capacity,omitempty"`
	Version         string `json:"version"`
}

// checkpointID returns the identity of a search as a string (JSON with
// sorted keys).
func checkpointID(algo string, params map[string]int, props []string, o *explore.Options, symmetry bool, capacity int) string {
	bitstate := ""
	if o.Bitstate > 0 {
		bitstate = fmt.Sprint(o.Bitstate)
	}
	id := checkpointIdentity{Algorithm: algo, Params: params, Properties: props, Exact: o.Exact, Bitstate: bitstate,
		MaxStates: o.MaxStates, MaxDepth: o.MaxDepth, Symmetry: symmetry, ChannelCapacity: capacity, Version: versionText(defaultProgram)}
	b, _ := json.Marshal(id)
	return string(b)
}

// resumeDefaults fills the flags not given on the command line from the
// identity recorded in the checkpoint of --resume, so that
// 'tokenmc check --resume DIR' needs nothing else.
func (m *memoryFlags) resumeDefaults(fs *flag.FlagSet) error {
	if *m.resume == "" {
		return nil
	}
	raw, err := explore.CheckpointID(*m.resume)
	if err != nil {
		return badInput("--resume: %v", err)
	}
	var id checkpointIdentity
	if err := json.Unmarshal([]byte(raw), &id); err != nil || id.Algorithm == "" {
		return badInput("--resume: the checkpoint in %s was not written by 'tokenmc check'", *m.resume)
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	set := func(name, value string) {
		if !given[name] && fs.Lookup(name) != nil {
			fs.Set(name, value)
		}
	}
	set("checkpoint", *m.resume) // keep checkpointing where it resumes
	set("algo", id.Algorithm)
	for k, v := range id.Params {
		set(k, fmt.Sprint(v))
	}
	set("props", strings.Join(id.Properties, ","))
	set("exact", fmt.Sprint(id.Exact))
	set("bitstate", id.Bitstate)
	set("max-states", fmt.Sprint(id.MaxStates))
	set("max-depth", fmt.Sprint(id.MaxDepth))
	set("symmetry", fmt.Sprint(id.Symmetry))
	set("channel-capacity", fmt.Sprint(id.ChannelCapacity))
	return nil
}

func propNames(ps []model.Property) []string {
	names := []string{}
	for _, p := range ps {
		names = append(names, p.Name)
	}
	return names
}
