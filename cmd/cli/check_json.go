package cli

// This file holds the --json output of check, a public contract: field
// names and meanings only ever get added to.

// checkReport is the --json output of check: a public contract.
type checkReport struct {
	Algorithm string         `json:"algorithm"`
	Params    map[string]int `json:"params"`
	// VariantParams are the parameters of Params that the variant chose
	// (algorithms.Variant.Params) and no flag overrode.
	VariantParams        map[string]int `json:"variant_params,omitempty"`
	Properties           []string       `json:"properties"`
	Verdict              string         `json:"verdict"`
	States               int64          `json:"states"`
	Transitions          int64          `json:"transitions"`
	Depth                int            `json:"depth"`
	ElapsedS             float64        `json:"elapsed_s"`
	StatesPerS           float64        `json:"states_per_s"`
	BytesPerState        float64        `json:"bytes_per_state"`
	LinkBytesPerState    float64        `json:"link_bytes_per_state"`
	CollisionProbability float64        `json:"collision_probability"`
	Search               string         `json:"search"`
	Mode                 string         `json:"mode"`
	Workers              int            `json:"workers"`
	StopReason           string         `json:"stop_reason,omitempty"`
	StopDetail           string         `json:"stop_detail,omitempty"`
	Bitstate             *bitstateJSON  `json:"bitstate,omitempty"`
	// Measured memory (check_memory.go): peak resident set of the process.
	PeakRSSBytes      int64          `json:"peak_rss_bytes,omitempty"`
	RSSBytesPerState  float64        `json:"rss_bytes_per_state,omitempty"`
	MemoryBudgetBytes int64          `json:"memory_budget_bytes,omitempty"`
	SpilledBytes      int64          `json:"spilled_bytes,omitempty"`
	Violation         *violationJSON `json:"violation,omitempty"`
	// ModelError: the model failed (panicked) at a reachable state
	// (verdict "model-error", exit 5).
	ModelError *modelErrorJSON `json:"model_error,omitempty"`
	// Symmetry: the search was reduced by this group (check --symmetry).
	Symmetry *symmetryJSON `json:"symmetry,omitempty"`
	// ChannelCapacity is --channel-capacity (absent: unbounded); the
	// search is then an under-approximation, and CapacityBlocked counts
	// the states without successors only because of the bound (not
	// deadlocks).
	ChannelCapacity int    `json:"channel_capacity,omitempty"`
	CapacityBlocked *int64 `json:"capacity_blocked,omitempty"`
	// Swarm: this search was one shard of a swarm (check --swarm).
	Swarm *swarmJSON `json:"swarm,omitempty"`
	// Liveness checks (starvation-freedom, concurrent-occupancy) only.
	Fairness  string         `json:"fairness,omitempty"`
	Liveness  *livenessJSON  `json:"liveness,omitempty"`
	Starving  []starvingJSON `json:"starving,omitempty"`
	Occupancy *occupancyJSON `json:"occupancy,omitempty"`

	// livenessOnly: no safety search ran; the counts and bytes_per_state
	// are those of the liveness state graph.
	livenessOnly bool
	// prog is the program name the text and HTML reports give ("":
	// tokenmc).
	prog string
	// verbose: the text report gives the time, memory and collision
	// figures (check --verbose).
	verbose bool
}

type violationJSON struct {
	Property  string `json:"property"`
	Length    int    `json:"length"`
	TraceFile string `json:"trace_file"`
	// Loop is the step at which a lasso's cycle starts (liveness only).
	Loop int `json:"loop,omitempty"`
}

// livenessJSON describes the liveness search: its own graph and verdict.
type livenessJSON struct {
	Properties     []string `json:"properties"`
	Verdict        string   `json:"verdict"`
	States         int64    `json:"states"`
	Transitions    int64    `json:"transitions"`
	Depth          int      `json:"depth"`
	Families       int      `json:"families"`
	FairComponents int      `json:"fair_components"`
	ElapsedS       float64  `json:"elapsed_s"`
	GraphBytes     int64    `json:"graph_bytes"`
	StopReason     string   `json:"stop_reason,omitempty"`
	Skipped        string   `json:"skipped,omitempty"`
}

// starvingJSON is one process that can starve and its lasso.
type starvingJSON struct {
	Process   int    `json:"process"`
	Length    int    `json:"length"`
	Prefix    int    `json:"prefix"`
	Cycle     int    `json:"cycle"`
	TraceFile string `json:"trace_file"`
}

// occupancyJSON is a concurrent-occupancy violation.
type occupancyJSON struct {
	Process             int    `json:"process"`
	Group               int    `json:"group"`
	Length              int    `json:"length"`
	ExploredStates      int64  `json:"explored_states"`
	ExploredTransitions int64  `json:"explored_transitions"`
	TraceFile           string `json:"trace_file"`
}
