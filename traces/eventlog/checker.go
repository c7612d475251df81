package eventlog

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// Checker validates a full log as it is read, one event at a time, in
// memory bounded by the events not yet explained and the messages in
// transit (plus 8 bytes per message id, kept to detect a reused id). It
// runs each process's steps through the model's own handlers
// (protosys.LocalWorker), so a step costs the same whatever the number of
// processes. Validate uses it for full logs; 'tokenmc validate --follow'
// feeds it a log while the log is written.
//
// For a model with a whole-state guard (protocol.Protocol.Guard) the steps
// are explained in the order of their triggers in the log, the order in
// which cmd/internal/live takes and logs a guarded model's steps, and the
// guard is asked on the global state reached at that point; a step it
// refuses is a divergence.
type Checker struct {
	lw    protosys.LocalWorker
	gw    model.Worker
	info  model.Info
	n     int
	opts  Options
	match msgMatcher

	locals  []protosys.LocalState
	net     map[string]*netMsg // encoded message -> copies in transit
	byText  map[string]string  // rendering -> encoded message, for messages in transit
	netTo   []map[string]bool  // per receiver: encoded messages in transit to it
	initial map[string]int     // encoded initial messages not yet received by id
	mids    map[string]*midInfo
	gotMID  map[uint64]int // hashed ids of received messages -> line

	queue [][]*Event // per process: read, not yet explained
	done  []int      // per process: the seq of its last explained event
	eof   bool
	res   Result
	total int
	stop  bool

	// VCGiven says that the log's events carry their own vector
	// timestamps (Reader.VCGiven). Only then does Add report a receive of
	// a message not in transit at once: without them, its send may come
	// later in the file.
	VCGiven bool
	// vcComputed: the timestamps were computed from a whole log without
	// its own (Validate), so file order may still put a receive
	// before its send
	vcComputed bool
	// guarded: the model has a whole-state guard (protosys.LocalWorker.Guarded):
	// steps are explained in the order of their triggers in the log,
	// which the runtime writes in the order it took them, and the guard
	// is asked on the global state at that point. order lists the
	// triggers not yet explained, in log order.
	guarded bool
	order   []*Event

	// relaxed walk (relaxed.go): per process, the steps taken whose
	// effects are not all logged; per process, the seq of the latest
	// trigger of each thread; the first event where a grouping was
	// guessed; divergences recorded with Options.All.
	owed         [][]*owedStep
	threadTrig   []map[string]int
	guessed      *Event
	guessWhy     string
	ambiguousAt  *Event
	divs         []Divergence
	firstReached model.StateDescription
	droppedMID   map[uint64]int
	dropped      int
	requests     []int    // per process: requests logged
	enters       []int    // per process: enters logged
	lastRequest  []*Event // per process: its last request
	lastLabel    []string

	// StopEarly makes Add look for a definite divergence after each step
	// and stop there (for following a log as it is written). Without it
	// the verdict is the one at the end: the earliest line that no
	// interleaving explains.
	StopEarly bool
}

type netMsg struct {
	enc      string
	text     string
	to       int
	count    int
	unlogged int // copies sent by a step whose send is not logged yet
}

type midInfo struct {
	line     int    // the send's line
	from, to int    // sender and logged receiver
	enc      string // the model message the send was matched to, once explained
	explain  bool   // the send has been explained
}

// NewChecker returns a checker of logs with header h against sys. sys
// must be compiled from a protocol.Protocol (a protosys.LocalSystem).
func NewChecker(sys model.System, h Header, opts Options) (*Checker, error) {
	ls, ok := sys.(protosys.LocalSystem)
	if !ok {
		return nil, fmt.Errorf("%s cannot validate a log step by step: its system is not compiled from a protocol.Protocol", sys.Info().Name)
	}
	info := sys.Info()
	n := h.Params["n"]
	lw := ls.NewLocalWorker()
	c := &Checker{lw: lw, gw: sys.NewWorker(), info: info, n: n, opts: opts, guarded: lw.Guarded(),
		net: map[string]*netMsg{}, byText: map[string]string{}, initial: map[string]int{},
		mids: map[string]*midInfo{}, gotMID: map[uint64]int{}, droppedMID: map[uint64]int{}}
	if info.Processes != n {
		c.res.Reason = fmt.Sprintf("the log has n=%d processes but the model %s has %d", n, info.Name, info.Processes)
		c.stop = true
		return c, nil
	}
	c.locals = make([]protosys.LocalState, n)
	c.netTo = make([]map[string]bool, n)
	for i := range n {
		c.locals[i] = c.lw.InitialLocal(i)
		c.netTo[i] = map[string]bool{}
	}
	for _, m := range c.lw.InitialMessages() {
		c.addMsg(m)
		c.initial[string(m)]++
	}
	c.queue = make([][]*Event, n)
	c.done = make([]int, n)
	c.owed = make([][]*owedStep, n)
	c.threadTrig = make([]map[string]int, n)
	c.requests, c.enters, c.lastRequest, c.lastLabel = make([]int, n), make([]int, n), make([]*Event, n), make([]string, n)
	c.res.Initial = c.describe()
	return c, nil
}

func (c *Checker) addMsg(m []byte) string {
	k := string(m)
	nm := c.net[k]
	if nm == nil {
		nm = &netMsg{enc: k, text: c.lw.FormatMsg(m), to: c.lw.To(m)}
		c.net[k] = nm
		c.byText[nm.text] = k
		c.netTo[nm.to][k] = true
	}
	nm.count++
	return k
}

func (c *Checker) removeMsg(k string) {
	nm := c.net[k]
	nm.count--
	if nm.count == 0 {
		delete(c.net, k)
		delete(c.byText, nm.text)
		delete(c.netTo[nm.to], k)
	}
}

func (c *Checker) describe() model.StateDescription {
	return c.gw.Describe(c.global())
}

// global returns the global state the explained steps reach.
func (c *Checker) global() []byte {
	var network [][]byte
	for _, nm := range c.net {
		for range nm.count {
			network = append(network, []byte(nm.enc))
		}
	}
	return c.lw.Assemble(c.locals, network, 0)
}

// Add feeds the next event of the log (in file order). It returns true
// once the log has diverged for sure, even before its end: a step whose
// every happens-before predecessor is explained cannot be explained.
func (c *Checker) Add(e *Event) bool {
	if c.stop {
		return true
	}
	c.total++
	c.queue[e.P] = append(c.queue[e.P], e)
	if c.guarded && isTrigger(e.Kind) {
		c.order = append(c.order, e)
	}
	switch e.Kind {
	case KindRequest:
		c.requests[e.P]++
		c.lastRequest[e.P] = e
	case KindEnter:
		c.enters[e.P]++
	}
	if e.Kind == KindSend && e.MID != "" {
		c.mids[e.MID] = &midInfo{line: e.Line, from: e.P, to: *e.To}
	}
	if isTrigger(e.Kind) && len(c.queue[e.P]) > 1 || !isTrigger(e.Kind) && len(c.owed[e.P]) > 0 {
		c.advance()
		if c.StopEarly {
			c.stop = c.definite()
		}
	}
	return c.stop
}

// stepAt returns the step at the head of p's queue and whether it is
// complete (followed by another trigger, or the log has ended).
func (c *Checker) stepAt(p int) (Step, bool) {
	q := c.queue[p]
	if len(q) == 0 {
		return Step{}, false
	}
	st := Step{Trigger: q[0]}
	for k := 1; k < len(q); k++ {
		if isTrigger(q[k].Kind) {
			return st, true
		}
		st.Effects = append(st.Effects, q[k])
	}
	return st, c.eof
}

// advance explains steps greedily until none can be explained; for a
// guarded model, in log order (advanceInOrder).
func (c *Checker) advance() {
	if c.guarded {
		c.advanceInOrder()
		return
	}
	if c.relaxed() {
		for {
			progressed := false
			for p := range c.n {
				for c.relaxedStep(p) {
					progressed = true
				}
			}
			if !progressed {
				return
			}
		}
	}
	for {
		progressed := false
		for p := range c.n {
			for {
				st, ok := c.stepAt(p)
				if !ok || !c.hbReady(st.Trigger) {
					break
				}
				f := c.fire(p, st)
				if f.why != "" {
					break
				}
				c.commit(p, st, f)
				progressed = true
			}
		}
		if !progressed {
			return
		}
	}
}

// advanceInOrder explains the steps of a guarded model in the order of
// their triggers in the log, until the next one cannot be explained yet.
func (c *Checker) advanceInOrder() {
	for len(c.order) > 0 {
		e := c.order[0]
		st, ok := c.stepAt(e.P)
		if !ok || st.Trigger != e || !c.hbReady(e) {
			return
		}
		f := c.fire(e.P, st)
		if f.why != "" {
			return
		}
		c.commit(e.P, st, f)
		c.order[0] = nil
		c.order = c.order[1:]
	}
}

// definite looks for a step that is complete, happens-before ready and
// yet cannot be explained: nothing later can change that.
func (c *Checker) definite() bool {
	if c.relaxed() {
		for p := range c.n {
			if f, ok := c.headWhy(p); ok && f.why != "" && f.definite {
				if f.ambiguous {
					c.undecided(f.event, f.why)
				} else if c.guessed != nil {
					c.undecided(f.event, c.afterGuess(f.why))
				} else {
					c.fail(f.event, f.why)
				}
				return true
			}
		}
		return false
	}
	for p := range c.n {
		st, ok := c.stepAt(p)
		if !ok || !c.hbReady(st.Trigger) {
			continue
		}
		if f := c.fire(p, st); f.why != "" && f.definite {
			if f.ambiguous {
				c.undecided(f.event, f.why)
			} else {
				c.fail(f.event, f.why)
			}
			return true
		}
	}
	return false
}

func (c *Checker) hbReady(e *Event) bool {
	for q, v := range e.VC {
		if q == e.P {
			if c.done[q] != v-1 {
				return false
			}
		} else if c.done[q] < v {
			return false
		}
	}
	return true
}

// fired is the outcome of trying a step: the model's result, or why not.
type fired struct {
	res      protosys.LocalResult
	consumed string // the encoded message received
	sends    []string
	texts    []string
	label    string
	why      string
	definite bool   // the failure cannot be undone by later events
	event    *Event // the event the failure is about
	owner    []int  // per model send: the logged send matched to it
	// ambiguous: several alternatives of a Nondeterministic handler
	// produce the logged effects with different outcomes (choice.go)
	ambiguous bool
	// unsent: a receive whose message id no send of the log names (yet):
	// without vector timestamps a receive may come before its send in
	// the file, so at the end of a log that may be cut, the send may lie
	// beyond the cut
	unsent bool
}

// sendUnseen reports whether receive e names a message id that no send of
// the log names, that was not received before and is no initial message.
func (c *Checker) sendUnseen(e *Event) bool {
	if e.MID == "" || c.VCGiven && !c.vcComputed {
		return false
	}
	if _, ok := c.mids[e.MID]; ok {
		return false
	}
	if _, ok := c.gotMID[hashMID(e.MID)]; ok {
		return false
	}
	_, ok := c.droppedMID[hashMID(e.MID)]
	return !ok
}

func (c *Checker) label(e *Event, text string) string {
	switch e.Kind {
	case KindRequest:
		if c.info.Groups > 1 {
			return fmt.Sprintf("Request(P%d, g=%d)", e.P, e.Group)
		}
		return fmt.Sprintf("Request(P%d)", e.P)
	case KindExit:
		return fmt.Sprintf("Exit(P%d)", e.P)
	case KindTimer:
		var names []string
		if name := c.lw.TimerName(e.Timer); name != "" {
			names = make([]string, e.Timer+1)
			names[e.Timer] = name
		}
		return protosys.TimerLabel(e.P, e.Timer, names)
	}
	return "Deliver " + text
}

// fire runs st's trigger on p's local state and compares the effects.
func (c *Checker) fire(p int, st Step) fired {
	e := st.Trigger
	ev, f := c.prepare(p, e)
	if f.why != "" {
		return f
	}
	if c.guarded && !c.lw.Allowed(c.global(), p, ev) {
		f.why = fmt.Sprintf("%s is not allowed by the model's guard in the state the log reaches before it", f.label)
		f.definite = len(c.order) > 0 && c.order[0] == e
		return f
	}
	k, err := c.lw.Alternatives(p, c.locals[p], ev)
	if err != nil {
		f.why = fmt.Sprintf("%s is not enabled: %v", f.label, err)
		return f
	}
	if k == 1 {
		c.tryAlternative(p, st, ev, &f)
		return f
	}
	return c.fireAlternatives(p, st, ev, k, f)
}

// tryAlternative runs ev (with its Choice) at p into f and compares the
// effects with the log's.
func (c *Checker) tryAlternative(p int, st Step, ev protosys.LocalEvent, f *fired) {
	res, err := c.lw.Step(p, c.locals[p], ev)
	if err != nil {
		f.why = fmt.Sprintf("%s is not enabled: %v", f.label, err)
		return
	}
	f.res = res
	for _, m := range res.Sent {
		f.sends = append(f.sends, string(m))
		f.texts = append(f.texts, c.lw.FormatMsg(m))
	}
	if ev2, why := c.checkEffects(st, f); why != "" {
		f.why, f.event = why, ev2
	}
}

// findReceived finds the message in transit that receive e delivers.
func (c *Checker) findReceived(e *Event) (string, string, bool) {
	if e.MID != "" {
		if mi, ok := c.mids[e.MID]; ok {
			if !mi.explain {
				return "", fmt.Sprintf("its send (line %d) is not explained", mi.line), false
			}
			nm := c.net[mi.enc]
			if mi.to != e.P {
				return "", fmt.Sprintf("message id %q was sent to P%d (line %d), not to P%d", e.MID, mi.to, mi.line, e.P), true
			}
			if e.From != nil && *e.From != mi.from {
				return "", fmt.Sprintf("the receive says from P%d, but message id %q was sent by P%d (line %d)", *e.From, e.MID, mi.from, mi.line), true
			}
			if nm == nil {
				return "", fmt.Sprintf("no copy of the message sent at line %d is in transit", mi.line), true
			}
			if !c.match.match(e, nm.text) {
				return "", fmt.Sprintf("the receive's msg %s is not the message %s sent with id %q at line %d", e.Msg, nm.text, e.MID, mi.line), true
			}
			return mi.enc, "", false
		}
		if line, ok := c.gotMID[hashMID(e.MID)]; ok {
			return "", fmt.Sprintf("message id %q was already received at line %d; a message copy is received once", e.MID, line), true
		}
		if line, ok := c.droppedMID[hashMID(e.MID)]; ok {
			return "", fmt.Sprintf("its send (line %d) is part of an earlier divergence", line), true
		}
	}
	// An initial message, or a receive without an id.
	var cands []string
	if e.Msg != "" && !e.Structured() {
		if k, ok := c.byText[e.Msg]; ok && c.net[k].to == e.P && c.net[k].count > c.net[k].unlogged {
			cands = append(cands, k)
		}
	} else {
		for k := range c.netTo[e.P] {
			if c.net[k].count > c.net[k].unlogged && c.match.match(e, c.net[k].text) {
				cands = append(cands, k)
			}
		}
		sort.Strings(cands)
	}
	for _, k := range cands {
		if e.MID != "" && c.initial[k] == 0 {
			continue // an id that no send names must be an initial message
		}
		if e.From != nil {
			if s := c.match.sender(c.net[k].text); s >= 0 && s != *e.From {
				continue
			}
		}
		return k, "", false
	}
	if e.MID != "" {
		return "", fmt.Sprintf("no message %s to P%d is in transit, so it cannot be delivered: message id %q was never sent (and it is not a message in transit initially)", e.Msg, e.P, e.MID), c.eof
	}
	return "", fmt.Sprintf("no message %s to P%d is in transit, so it cannot be delivered (it was never sent, or was already delivered)", e.Msg, e.P), true
}

// checkEffects compares the logged sends and enter of st with the
// model's step; it returns the event at fault and why, or "".
func (c *Checker) checkEffects(st Step, f *fired) (*Event, string) {
	e := st.Trigger
	var logged []*Event
	var enters []*Event
	for _, x := range st.Effects {
		if x.Kind == KindSend {
			logged = append(logged, x)
		} else {
			enters = append(enters, x)
		}
	}
	if len(enters) > 1 {
		return enters[1], fmt.Sprintf("the log has P%d enter its CS twice in one step (lines %d and %d)", e.P, enters[0].Line, enters[1].Line)
	}
	// Match logged sends to the model's sends (bipartite matching).
	ok := func(i, j int) bool {
		return c.match.match(logged[i], f.texts[j]) && *logged[i].To == c.lw.To([]byte(f.sends[j]))
	}
	owner := make([]int, len(f.sends))
	for j := range owner {
		owner[j] = -1
	}
	var try func(i int, seen []bool) bool
	try = func(i int, seen []bool) bool {
		for j := range f.sends {
			if seen[j] || !ok(i, j) {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || try(owner[j], seen) {
				owner[j] = i
				return true
			}
		}
		return false
	}
	for i, x := range logged {
		if !try(i, make([]bool, len(f.sends))) {
			for j := range f.sends {
				if owner[j] < 0 && c.match.match(x, f.texts[j]) {
					return x, fmt.Sprintf("the log sends %s to P%d, but the model's step %s sends it to P%d", x.Msg, *x.To, f.label, c.lw.To([]byte(f.sends[j])))
				}
			}
			return x, fmt.Sprintf("the log sends %s but the model's step %s does not", x.Msg, f.label)
		}
	}
	// The log may end in the middle of its process's last step: its
	// effects not logged come after the end (unless the run is complete).
	cut := c.eof && !c.opts.Complete && len(c.queue[e.P]) == 1+len(st.Effects) && c.queue[e.P][0] == e
	var unsent []string
	for j := range f.sends {
		if owner[j] < 0 {
			unsent = append(unsent, f.texts[j])
		}
	}
	if len(unsent) > 0 && !cut {
		return e, fmt.Sprintf("the model's step %s sends %s but the log does not", f.label, strings.Join(unsent, ", "))
	}
	if len(enters) == 1 && !f.res.Entered {
		return enters[0], fmt.Sprintf("the log has P%d enter its CS but the model's step %s does not enter (P%d is %s after it)", e.P, f.label, e.P, f.res.Next.Phase)
	}
	if len(enters) == 0 && f.res.Entered && !cut {
		return e, fmt.Sprintf("the model's step %s enters P%d's CS but the log has no enter", f.label, e.P)
	}
	if len(enters) == 1 && c.info.Groups > 1 && enters[0].Group != f.res.Next.Group {
		return enters[0], fmt.Sprintf("the log has P%d enter with group %d but the model's step %s enters with group %d", e.P, enters[0].Group, f.label, f.res.Next.Group)
	}
	f.owner = owner
	return nil, ""
}

// commit applies an explained step.
func (c *Checker) commit(p int, st Step, f fired) {
	c.locals[p] = f.res.Next
	e := st.Trigger
	if f.consumed != "" {
		c.removeMsg(f.consumed)
		if c.initial[f.consumed] > 0 && (e.MID == "" || c.mids[e.MID] == nil) {
			c.initial[f.consumed]--
		}
		if e.MID != "" {
			delete(c.mids, e.MID)
			c.gotMID[hashMID(e.MID)] = e.Line
		}
	}
	logged := make([]*Event, 0, len(st.Effects))
	for _, x := range st.Effects {
		if x.Kind == KindSend {
			logged = append(logged, x)
		}
	}
	for j, m := range f.sends {
		k := c.addMsg([]byte(m))
		if i := f.owner[j]; i >= 0 && logged[i].MID != "" {
			if mi := c.mids[logged[i].MID]; mi != nil {
				mi.enc, mi.explain = k, true
			}
		}
	}
	n := 1 + len(st.Effects)
	c.queue[p] = slices.Delete(c.queue[p], 0, n)
	if len(c.queue[p]) == 0 {
		c.queue[p] = nil
	}
	last := e
	if len(st.Effects) > 0 {
		last = st.Effects[len(st.Effects)-1]
	}
	c.done[p] = last.Seq
	c.lastLabel[p] = f.label
	c.noteThread(p, e)
	c.res.Steps++
	c.res.Events += n
	if c.opts.KeepOrder {
		c.res.Order = append(c.res.Order, Executed{Step: st, Label: f.label, State: c.describe()})
	}
}

// Progress returns the events and steps explained so far.
func (c *Checker) Progress() (events, steps int) { return c.res.Events, c.res.Steps }

// Finish ends the log: it explains what can be and returns the verdict.
func (c *Checker) Finish() Result {
	res := &c.res
	if c.stop {
		return *res
	}
	c.eof = true
	if c.relaxed() {
		return c.finishRelaxed()
	}
	c.advance()
	res.Messages = c.inTransit()
	if res.Events == c.total {
		res.OK = true
		return *res
	}
	var ready, waiting []blocked
	for p := range c.n {
		st, ok := c.stepAt(p)
		if !ok {
			continue
		}
		if !c.hbReady(st.Trigger) {
			waiting = append(waiting, blocked{st.Trigger, "happens after events that cannot be explained: " + c.missing(st.Trigger), false, false, false})
			continue
		}
		f := c.fire(p, st)
		// a guarded model is stuck at the first trigger in log order
		first := c.guarded && len(c.order) > 0 && st.Trigger == c.order[0]
		if c.guarded && !first && f.why == "" && len(c.order) > 0 {
			f.why = fmt.Sprintf("a guarded model's steps are explained in log order, and the earlier %s cannot be explained", c.order[0])
		}
		ready = append(ready, blocked{f.event, f.why, first, f.ambiguous, false})
	}
	return c.verdict(ready, waiting)
}

// blocked is a step that cannot be explained at the end of the log.
type blocked struct {
	e         *Event
	why       string
	first     bool // the trigger a guarded model's log order is stuck at
	ambiguous bool // several alternatives explain it differently
	unsent    bool // a receive whose send may lie beyond the end of the log
}

// verdict ends the check at the steps that cannot be explained: those
// happens-before ready (ready) and the others (waiting).
func (c *Checker) verdict(ready, waiting []blocked) Result {
	res := &c.res
	sort.SliceStable(ready, func(a, b int) bool {
		if ready[a].first != ready[b].first {
			return ready[a].first
		}
		return ready[a].e.Line < ready[b].e.Line
	})
	sort.Slice(waiting, func(a, b int) bool { return waiting[a].e.Line < waiting[b].e.Line })
	all := append(append([]blocked{}, ready...), waiting...)
	for _, b := range all {
		res.Pending = append(res.Pending, fmt.Sprintf("%s: %s", b.e, b.why))
	}
	// A step that several alternatives explain differently may be what
	// keeps the others from being explained: no verdict then.
	for _, b := range ready {
		if b.ambiguous {
			c.undecided(b.e, b.why)
			return *res
		}
	}
	if c.guessed != nil {
		c.undecided(all[0].e, c.afterGuess(all[0].why))
		return *res
	}
	// Receives whose sends are not in the log, and nothing else: the log
	// may be cut before the sends were logged (a prefix), so no verdict,
	// unless the log says it is whole (Options.Complete).
	if !c.opts.Complete && len(ready) > 0 {
		unsent := true
		for _, b := range ready {
			unsent = unsent && b.unsent
		}
		if unsent {
			c.undecided(ready[0].e, ready[0].why+"; the log may end before its send was logged (a prefix of the run), so this is no verdict: --complete says the log is whole")
			return *res
		}
	}
	c.fail(all[0].e, all[0].why)
	return *res
}

// undecided ends the check without a verdict at step e, which the log
// does not determine (why says so).
func (c *Checker) undecided(e *Event, why string) {
	c.res.Undecided, c.res.Reason = true, fmt.Sprintf("%s: %s", e, why)
	c.res.Reached = c.describe()
	c.res.Messages = c.inTransit()
}

func (c *Checker) fail(e *Event, why string) {
	c.res.Failed, c.res.Reason = e, why
	c.res.Reached = c.describe()
	c.res.Messages = c.inTransit()
}

func (c *Checker) inTransit() int {
	k := 0
	for _, nm := range c.net {
		k += nm.count
	}
	return k
}

func (c *Checker) missing(e *Event) string {
	var out []string
	for q, v := range e.VC {
		if q != e.P && c.done[q] < v {
			out = append(out, fmt.Sprintf("P%d's events up to #%d (only %d explained)", q, v, c.done[q]))
		}
	}
	return strings.Join(out, ", ")
}
