// Package facts holds what is known of an algorithm beyond its model, as
// plain data: the algorithms fill it (algorithms.Algorithm.Measure) and
// the tools read it. `tokenmc measure` takes from it the timer durations,
// the messages that are idle circulation and the published message counts
// and service times it compares its figures with.
//
// The package is a leaf (it imports only the standard library), so that
// the measure simulator (explore/measure) reads facts without importing
// the algorithms, and a user's algorithm can state its own without
// linking the built-in ones.
package facts

// Measure is what the measure simulator knows of an algorithm beyond its
// model. The zero value knows nothing: every timer lasts T_msg, no message
// is idle circulation, and no published figure applies.
type Measure struct {
	// Params are parameters measure passes to the algorithm's Build
	// besides n and r (raymond: tree=1); the user's parameters win.
	Params map[string]int
	// Timers are the default durations by timer kind (kind k lasts
	// Timers[k]); missing kinds last T_msg.
	Timers []float64
	// NoTimers says the algorithm has no timer transitions, so that the
	// simulator need not look for them after every step.
	NoTimers bool
	// Idle reports whether a message with this label, sent in a step with
	// no process Waiting or InCS before and after, is idle circulation of
	// a perpetually moving token (counted apart); nil: none is.
	Idle func(label string) bool
	// ForwardKind is the message kind whose same-kind forwarding is
	// counted (Banerjee-Chrysanthis' forwarded requests); "" for none.
	ForwardKind string
	// Counts are the published message counts per critical section, at
	// most one per load.
	Counts []Count
	// LoadAt names the published load a run is at, from the simulator's
	// load kind ("light", "heavy" or "rate") and the run's parameters:
	// a run whose parameters make it another load than its kind says
	// returns that load's name (the torus with sqrt(N) requesters at
	// heavy load is its paper's "medium" load), and "" when no published
	// load fits. nil: the load kind itself.
	LoadAt func(n int, kind string, params map[string]int) string
	// Responses are the published service times, at most one per load.
	Responses []Response
}

// Count is a published message count per critical section at one load.
type Count struct {
	// Load is "light" or "heavy", the papers' two extremes, or a load
	// that Measure.LoadAt names (e.g. "medium").
	Load string
	// PerCS gives the count at n processes: one value (lo == hi) or a
	// range.
	PerCS func(n float64) (lo, hi float64)
	// Formula is the formula as the paper gives it, e.g. "(N^2-1)/N".
	Formula string
	// Source is the paper and section, e.g. "Banerjee-Chrysanthis §3.1
	// eq. (1)".
	Source string
	// Remote: the count is about requests made without the token
	// (measure's Result.RemoteMsgs, not MessagesPerCS).
	Remote bool
}

// Response is a published service time (request to exit) at one load.
type Response struct {
	// Load is "light" or "heavy".
	Load string
	// Time is the service time at n processes with message delay tMsg,
	// critical-section duration tExec and timer 0 lasting tTimer0.
	Time func(n, tMsg, tExec, tTimer0 float64) float64
	// Source is the paper and equation.
	Source string
}

// CountAt returns the published count of m at the load, if there is one.
func (m *Measure) CountAt(load string) (Count, bool) {
	if m != nil {
		for _, c := range m.Counts {
			if c.Load == load {
				return c, true
			}
		}
	}
	return Count{}, false
}

// ResponseAt returns the published service time of m at the load, if
// there is one.
func (m *Measure) ResponseAt(load string) (Response, bool) {
	if m != nil {
		for _, r := range m.Responses {
			if r.Load == load {
				return r, true
			}
		}
	}
	return Response{}, false
}
