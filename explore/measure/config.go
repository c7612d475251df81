package measure

import (
	"fmt"
	"math"
	"strconv"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/facts"
)

// Load is the request arrival regime: Load{Kind: "light"},
// Load{Kind: "heavy"}, or a Poisson arrival rate lambda per Idle process,
// Load{Kind: "rate", Lambda: lambda}.
type Load struct {
	// Kind is "light", "heavy" or "rate".
	Kind string
	// Lambda is the arrival rate per Idle process, for Kind "rate".
	Lambda float64
}

// String renders the load as measure --load takes it: light, heavy or the
// rate.
func (l Load) String() string {
	if l.Kind == "rate" {
		return strconv.FormatFloat(l.Lambda, 'g', -1, 64)
	}
	return l.Kind
}

// Config is one measurement: an algorithm at one size and load.
type Config struct {
	// Algo is the name of the measured variant, "alg" or "alg/variant",
	// as results and reports show it.
	Algo string
	// Build builds the system to measure from its parameters: n, r, the
	// facts' Params and Config.Params. Required; the caller resolves Algo
	// (the CLI in its catalog: algorithms.Algorithm.MeasureBuild, which
	// leaves r unbounded).
	Build func(params map[string]int) (model.System, []model.Property, error)
	// Facts is what is known of the algorithm beyond its model (the
	// algorithm's algorithms.Algorithm.Measure): default timer durations,
	// idle messages, published figures. nil: nothing; every timer lasts
	// T_msg and no published figure applies.
	Facts *facts.Measure

	N    int // processes
	Load Load
	// Params are extra parameters of the algorithm (e.g. tree); n and r
	// are set by the simulator.
	Params map[string]int

	TMsg   float64 // message delay (mean, if ExpMsg)
	ExpMsg bool    // exponential message delays instead of constant ones
	TExec  float64 // CS duration
	// Timers[k] is the duration of timer kind k; missing kinds take TMsg.
	// Banerjee-Chrysanthis: 0 collection, 1 forwarding, 2 routing.
	Timers []float64

	Warmup       int    // entries discarded at the start of each replication (negative: none)
	Entries      int    // entries measured per replication
	Replications int    // independent replications (>= 2 for a CI)
	Seed         uint64 // all randomness derives from it
}

// Defaults fills zero fields: T_msg = T_exec = 0.1, the algorithm's timer
// durations (Banerjee-Chrysanthis: collection 0.1, forwarding 0.1), 200
// warm-up and 2,000 measured entries, 5 replications, seed 1.
func (c *Config) Defaults() {
	if c.TMsg == 0 {
		c.TMsg = 0.1
	}
	if c.TExec == 0 {
		c.TExec = 0.1
	}
	if c.Timers == nil && c.Facts != nil {
		c.Timers = append([]float64(nil), c.Facts.Timers...)
	}
	if c.Warmup == 0 {
		c.Warmup = 200
	}
	if c.Entries == 0 {
		c.Entries = 2000
	}
	if c.Replications == 0 {
		c.Replications = 5
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
}

// maxReplications bounds Config.Replications: every replication's
// simulator is kept until the figures are merged.
const maxReplications = 10_000

// validate reports a one-line error for a configuration that cannot run.
func (c *Config) validate() error {
	switch {
	case c.N < 2:
		return fmt.Errorf("n=%d: measure needs at least 2 processes", c.N)
	case !(c.TMsg > 0) || !(c.TExec > 0):
		return fmt.Errorf("t-msg=%g and t-exec=%g must both be positive", c.TMsg, c.TExec)
	case c.Entries < 1:
		return fmt.Errorf("entries=%d must be at least 1", c.Entries)
	case c.Replications < 1 || c.Replications > maxReplications:
		return fmt.Errorf("replications=%d is out of range; give 1..%d", c.Replications, maxReplications)
	case c.Load.Kind == "rate" && !(c.Load.Lambda > 0):
		return fmt.Errorf("arrival rate %g must be positive", c.Load.Lambda)
	case c.Load.Kind != "light" && c.Load.Kind != "heavy" && c.Load.Kind != "rate":
		return fmt.Errorf("load kind %q is not light, heavy or rate", c.Load.Kind)
	}
	for k, d := range c.Timers {
		if d < 0 || math.IsNaN(d) || math.IsInf(d, 0) {
			return fmt.Errorf("timer %d duration %g must be a finite non-negative number", k, d)
		}
	}
	return nil
}
