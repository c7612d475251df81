package eventlog

import (
	"fmt"

	"github.com/tokenmc/tokenmc/model"
)

// Step is one transition of one process as the log records it: a trigger
// event (request, exit, receive or timer) and its effects (the sends and
// the enter that follow it in the same process).
type Step struct {
	Trigger *Event
	Effects []*Event
}

// Steps splits each process's events into steps.
func (l *Log) Steps() [][]Step {
	out := make([][]Step, l.N())
	for p, es := range l.Per() {
		for _, e := range es {
			if isTrigger(e.Kind) {
				out[p] = append(out[p], Step{Trigger: e})
				continue
			}
			st := &out[p][len(out[p])-1] // Read guarantees a trigger first
			st.Effects = append(st.Effects, e)
		}
	}
	return out
}

// Executed is one step of the interleaving validation found, with the
// model's action label and the global state after it.
type Executed struct {
	Step  Step
	Label string
	State model.StateDescription
}

// Result is the outcome of Validate.
type Result struct {
	OK       bool
	Steps    int                    // steps executed
	Events   int                    // events explained
	Initial  model.StateDescription // the initial state
	Order    []Executed             // the interleaving found (its prefix, on failure)
	Failed   *Event                 // on failure: the first event that no interleaving explains
	Reason   string                 // on failure: why
	Reached  model.StateDescription // on failure: the state reached when nothing more could be explained
	Pending  []string               // on failure: every step that was waiting, with why
	Messages int                    // messages in transit at the end

	// Undecided: the search of a partial log ran out of its budget
	// (Options.MaxStates) before it found a behaviour or ran out of
	// candidates; or, in a full log, several alternatives of a
	// Nondeterministic handler (protocol.Ctx.Choose) produce a step's
	// logged effects and lead to different states, so the log does not
	// determine the behaviour (Reason names the step and what would make
	// the log checkable). Neither OK nor Failed is set then.
	Undecided bool
	// Divergences lists, with Options.All, every event of a full log
	// that no behaviour explains (the walk resynchronises after each by
	// dropping the event), by line; the first is Failed. With
	// Options.Complete it also has the steps whose effects the log never
	// shows (Event is then the step's trigger) and the requests the model
	// would have served.
	Divergences []Divergence
	// Unserved lists, with Options.Complete, the requests the log never
	// shows served.
	Unserved []string
	// Notes are remarks that do not change the verdict: processes that
	// never requested, requests never served that the model could not
	// serve either.
	Notes []string
	// States is the number of model states the search of a partial log
	// visited (0 for a full log).
	States int
	// Path is, for a partial log found consistent with Options.Witness,
	// the model behaviour that explains it: its global states from the
	// initial one on (a path of sys, as traces.FromSteps takes).
	Path [][]byte
}

// Options tune Validate.
type Options struct {
	// KeepOrder records the interleaving found in Result.Order, with the
	// state after each step (memory grows with the log).
	KeepOrder bool
	// MaxStates bounds the search of a partial log: after visiting this
	// many model states it gives up with Result.Undecided. 0 means
	// 2,000,000.
	MaxStates int
	// Witness keeps what is needed to return the behaviour that explains
	// a partial log (Result.Path).
	Witness bool
	// Stop, when closed, ends the search of a partial log early: the
	// result is then Undecided, its Reason says "interrupted".
	Stop <-chan struct{}
	// Atomic checks a full log whose steps are logged atomically: each
	// trigger followed by all its effects before the process's next
	// trigger. Without it a step's effects may be logged later, after
	// events of the process's other steps (docs/eventlog.md). In a
	// counted partial log (Observed.SeqCountsAll) it likewise requires
	// each step's events at consecutive seqs.
	Atomic bool
	// All reports every divergence of a full log (Result.Divergences),
	// not only the first.
	All bool
	// Complete says the run ended cleanly: every effect of every step
	// taken must be in the log, and a request the log never shows served
	// is a divergence when the model would have served it.
	Complete bool
	// Progress, if set, is called now and then during the search of a
	// partial log with the events explained so far (the most in any
	// state), the log's events and the states visited.
	Progress func(explained, events, states int)
}

// defaultMaxStates is the search budget of a partial log by default.
const defaultMaxStates = 2_000_000

// Validate checks that the log is a behaviour of sys, with the options
// opts: at most one Options value; without one, Options{KeepOrder: true}
// (the interleaving found is kept, Result.Order). More than one is the
// caller's bug: Validate panics.
//
// A full log (every event of every process) is replayed step by step: it
// searches for an interleaving of the steps that is consistent with the
// recorded happens-before order (the vector timestamps) and in which
// every step is an enabled transition of sys, producing exactly the
// recorded sends and enter. A receive delivers the very copy its message
// id names: that id must have been sent, to this process, by the process
// "from" names, and not received before. The search is greedy and yet
// complete for systems compiled from a protocol.Protocol: a step touches
// only its own process's local state, adds messages and removes only a
// message addressed to its own process, so steps of different processes
// commute and none disables another. The set of steps executable in some
// interleaving therefore has one maximal consistent cut, which any fair
// greedy order reaches. When the greedy order stops short of the whole
// log, the step of the earliest line that is happens-before ready at the
// maximal cut (or, if none is ready, the earliest pending step) is the
// first event no interleaving explains. (A System that wraps a protocol
// and filters its transitions by the global state, such as a timer guard
// that needs an empty network, is not persistent in this sense: for it
// the greedy order may miss interleavings, and a rejection is not
// conclusive.)
//
// A partial log (Header.Observed) is checked by a search of the model for
// a behaviour whose observable events are the log's, in an order
// consistent with its happens-before order; see the package doc.
func Validate(sys model.System, l *Log, options ...Options) Result {
	opts := Options{KeepOrder: true}
	switch len(options) {
	case 0:
	case 1:
		opts = options[0]
	default:
		panic(fmt.Sprintf("eventlog.Validate: at most one Options, got %d", len(options)))
	}
	if l.Partial() {
		return searchPartial(sys, l, opts)
	}
	c, err := NewChecker(sys, l.Header, opts)
	if err != nil {
		return validateGlobal(sys, l)
	}
	c.VCGiven = true // every event has its timestamps now, given or computed
	c.vcComputed = !l.VCGiven
	for k := range l.Events {
		if c.Add(&l.Events[k]) {
			break
		}
	}
	return c.Finish()
}
