package eventlog

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// Steps logged non-atomically (docs/eventlog.md, "Steps of concurrent
// programs"). A concurrent program does not log a model step as one
// block: its trigger comes first, its effects (sends, the enter) may
// follow later, after events of other steps of the same process. The
// checker walks each process's events in log order. At a trigger it
// takes the model step at once (as soon as the trigger is ready in the
// happens-before order): the step's messages go into transit and its
// effects become owed by the process. Each later send or enter of the
// process must then be one of the effects its fired steps still owe; a
// receive can only deliver a message whose send has been logged. A step
// whose trigger is followed by exactly its effects is explained the
// atomic way first (the fast path, and the only way with
// Options.Atomic); the walk is used only when that fails.
//
// Why this is complete: the step a trigger starts depends only on the
// process's state and on the message it delivers, both fixed once the
// process's earlier triggers are explained; steps of different processes
// commute. So taking each step as soon as its trigger is ready loses no
// behaviour. Which owed effect a logged effect is depends on nothing
// else when the candidates are the same message to the same receiver;
// when they are different messages that the logged one matches equally
// (a structured message with too few fields), the checker picks the
// oldest and remembers that it guessed: a divergence after a guess is
// undecided, not a violation. Why it is sound: a log it accepts comes
// with its explanation, the model steps in an order consistent with the
// log's happens-before order and the effect each event is.

// maxOwed bounds the steps of one process whose effects are not all
// logged: beyond it the check stops, undecided.
const maxOwed = 1000

// owedStep is a step taken whose effects are not all logged yet.
type owedStep struct {
	trig  *Event
	label string
	sends []owedSend
	enter bool // the step entered the CS, and the enter is not logged yet
	group int  // the group entered
	order int  // index in Result.Order, or -1
}

type owedSend struct {
	enc, text string
	to        int
	logged    bool
}

func (o *owedStep) pending() bool {
	if o.enter {
		return true
	}
	for _, s := range o.sends {
		if !s.logged {
			return true
		}
	}
	return false
}

// describe says what o's step does and what of it the log shows so far:
// "Request(P3) (line 12) sends REQ(P3->P0), REQ(P3->P1); the log shows
// the send to P1 only".
func (o *owedStep) describe() string {
	var all, shown []string
	for _, s := range o.sends {
		all = append(all, s.text)
		if s.logged {
			shown = append(shown, fmt.Sprintf("P%d", s.to))
		}
	}
	var what []string
	if len(all) > 0 {
		w := "sends " + strings.Join(all, ", ")
		switch {
		case len(shown) == 0:
			w += "; the log shows none of these sends"
		default:
			w += "; the log shows the send to " + strings.Join(shown, ", ") + " only"
		}
		what = append(what, w)
	}
	if o.enter {
		what = append(what, fmt.Sprintf("enters P%d's CS, which the log does not show", o.trig.P))
	}
	return fmt.Sprintf("%s (%s) %s", o.label, lineOf(o.trig), strings.Join(what, "; "))
}

func lineOf(e *Event) string { return fmt.Sprintf("line %d", e.Line) }

// Divergence is one event no behaviour explains, found by Options.All.
type Divergence struct {
	Event  *Event // the event (nil for an effect the log never shows, with Options.Complete)
	Reason string
}

// owedSummary lists the steps of p whose effects are not all logged.
func (c *Checker) owedSummary(p int) string {
	if len(c.owed[p]) == 0 {
		return fmt.Sprintf("every step of P%d taken so far has all its effects logged", p)
	}
	var out []string
	for _, o := range c.owed[p] {
		out = append(out, o.describe())
	}
	return "steps of P" + fmt.Sprint(p) + " with effects not yet logged: " + strings.Join(out, "; ")
}

// could lists what the model lets p do in its current local state.
func (c *Checker) could(p int) string {
	s := c.locals[p]
	var out []string
	switch s.Phase {
	case model.Idle:
		if _, err := c.lw.Step(p, s, protosys.LocalEvent{Kind: model.Request}); err == nil {
			out = append(out, fmt.Sprintf("Request(P%d)", p))
		}
	case model.InCS:
		out = append(out, fmt.Sprintf("Exit(P%d)", p))
	}
	for t := range c.lw.Timers() {
		if c.lw.TimerEnabled(p, s, t) {
			out = append(out, c.label(&Event{P: p, Kind: KindTimer, Timer: t}, ""))
		}
	}
	var msgs []string
	for k := range c.netTo[p] {
		msgs = append(msgs, "Deliver "+c.net[k].text)
	}
	sort.Strings(msgs)
	if len(msgs) > 6 {
		msgs = append(msgs[:6], fmt.Sprintf("and %d other deliveries", len(msgs)-6))
	}
	out = append(out, msgs...)
	if len(out) == 0 {
		return fmt.Sprintf("P%d (%s) has no enabled step", p, s.Phase)
	}
	return fmt.Sprintf("P%d (%s) could do: %s", p, s.Phase, strings.Join(out, ", "))
}

// fireTrigger takes the model step of trigger e alone (its effects are
// matched as they are logged).
func (c *Checker) fireTrigger(p int, e *Event) fired {
	st := Step{Trigger: e}
	f := fired{event: e, definite: true}
	if e.Kind == KindExit {
		for _, o := range c.owed[p] {
			if o.enter {
				f.why = fmt.Sprintf("the log has P%d exit its CS, but the model's step %s (%s) enters P%d's CS and the log has no enter before this exit", p, o.label, lineOf(o.trig), p)
				return f
			}
		}
	}
	ev, base := c.prepare(p, e)
	if base.why != "" {
		return base
	}
	k, err := c.lw.Alternatives(p, c.locals[p], ev)
	if err != nil {
		base.why = fmt.Sprintf("%s is not enabled: %v; %s", base.label, err, c.could(p))
		return base
	}
	run := func(ch int) fired {
		f := base
		ev.Choice = ch
		res, err := c.lw.Step(p, c.locals[p], ev)
		if err != nil {
			f.why = fmt.Sprintf("%s is not enabled: %v; %s", f.label, err, c.could(p))
			return f
		}
		f.res = res
		for _, m := range res.Sent {
			f.sends = append(f.sends, string(m))
			f.texts = append(f.texts, c.lw.FormatMsg(m))
		}
		return f
	}
	if k == 1 {
		return run(0)
	}
	// A handler with a choice: the effects logged right after the
	// trigger (or later) tell the alternatives apart only as far as they
	// go; keep the alternatives whose effects include every adjacent
	// logged effect that no earlier step owes.
	var alts []fired
	for ch := range k {
		alts = append(alts, run(ch))
	}
	var keep []fired
	for _, a := range alts {
		if a.why == "" && c.adjacentFit(p, st, a) {
			keep = append(keep, a)
		}
	}
	if len(keep) == 0 {
		f := alts[0]
		if f.why == "" {
			f.why = fmt.Sprintf("none of the %d alternatives of the model's step %s sends the messages logged after it", k, base.label)
			if x := c.unfit(p, alts[0]); x != nil {
				f.event = x
				f.why = fmt.Sprintf("the log sends %s but the model's step %s (alternative 1 of %d) does not; none of the step's other %d alternatives produces the logged effects either", x.Msg, base.label, k, k-1)
			}
		}
		return f
	}
	for _, a := range keep[1:] {
		if !sameOutcome(&keep[0].res, &a.res) {
			if c.guessed == nil {
				c.guessed, c.guessWhy = e, fmt.Sprintf("%d alternatives of the model's step %s fit the effects logged so far and lead to different states; the first was taken", len(keep), base.label)
			}
			break
		}
	}
	return keep[0]
}

// adjacentFit reports whether every send logged right after trigger e
// (before p's next trigger) that no earlier step of p owes is one of the
// alternative's sends.
func (c *Checker) adjacentFit(p int, st Step, a fired) bool {
	return c.unfit(p, a) == nil
}

// unfit returns the first send logged right after p's head trigger that
// no earlier step of p owes and the alternative a does not send, or nil.
func (c *Checker) unfit(p int, a fired) *Event {
	used := make([]bool, len(a.sends))
	q := c.queue[p]
	for k := 1; k < len(q) && !isTrigger(q[k].Kind); k++ {
		x := q[k]
		if x.Kind != KindSend || c.owedMatch(p, x) >= 0 {
			continue
		}
		ok := false
		for j := range a.sends {
			if !used[j] && *x.To == c.lw.To([]byte(a.sends[j])) && c.match.match(x, a.texts[j]) {
				used[j], ok = true, true
				break
			}
		}
		if !ok {
			return x
		}
	}
	return nil
}

// prepare turns trigger e into the model's event and the fired base
// (label, consumed message), or says why it cannot be.
func (c *Checker) prepare(p int, e *Event) (protosys.LocalEvent, fired) {
	f := fired{event: e, definite: true}
	var ev protosys.LocalEvent
	switch e.Kind {
	case KindRequest:
		if c.info.Groups <= 1 && e.Group != 0 || e.Group >= max(c.info.Groups, 1) {
			f.why = fmt.Sprintf("group %d does not exist; %s has %d group(s)", e.Group, c.info.Name, max(c.info.Groups, 1))
			return ev, f
		}
		ev = protosys.LocalEvent{Kind: model.Request, Arg: e.Group}
	case KindExit:
		ev = protosys.LocalEvent{Kind: model.Exit}
	case KindTimer:
		if e.Timer >= c.lw.Timers() {
			f.why = fmt.Sprintf("timer %d does not exist; %s has %d timer(s) per process", e.Timer, c.info.Name, c.lw.Timers())
			return ev, f
		}
		ev = protosys.LocalEvent{Kind: model.Timer, Arg: e.Timer}
	case KindReceive:
		k, why, definite := c.findReceived(e)
		if why != "" {
			f.why, f.definite = why, definite && (c.VCGiven || c.eof)
			f.unsent = c.sendUnseen(e)
			f.definite = f.definite && !(f.unsent && !c.opts.Complete)
			return ev, f
		}
		f.consumed = k
		ev = protosys.LocalEvent{Kind: model.Deliver, Msg: []byte(k)}
	}
	text := ""
	if f.consumed != "" {
		text = c.net[f.consumed].text
	}
	f.label = c.label(e, text)
	return ev, f
}

// commitTrigger applies a step taken at its trigger alone: its effects
// become owed by p.
func (c *Checker) commitTrigger(p int, e *Event, f fired) {
	c.locals[p] = f.res.Next
	c.consume(e, f.consumed)
	o := &owedStep{trig: e, label: f.label, enter: f.res.Entered, group: f.res.Next.Group, order: -1}
	for j, m := range f.sends {
		k := c.addMsg([]byte(m))
		c.net[k].unlogged++
		o.sends = append(o.sends, owedSend{enc: k, text: f.texts[j], to: c.lw.To([]byte(m))})
	}
	if c.opts.KeepOrder {
		o.order = len(c.res.Order)
		c.res.Order = append(c.res.Order, Executed{Step: Step{Trigger: e}, Label: f.label, State: c.describe()})
	}
	if o.pending() {
		c.owed[p] = append(c.owed[p], o)
		if len(c.owed[p]) > maxOwed && !c.stop {
			// bounded memory and time: a log this far behind its
			// process's steps is almost surely missing their effects
			c.undecided(c.owed[p][0].trig, fmt.Sprintf("P%d has taken %d steps whose effects the log has not shown yet (the check's bound); the oldest: %s; the log probably leaves those effects out: validate it with --complete or --all to see them", p, maxOwed, c.owed[p][0].describe()))
			c.stop = true
		}
	}
	c.noteThread(p, e)
	c.lastLabel[p] = f.label
	c.pop(p, e)
	c.res.Steps++
}

// consume removes the message a receive delivered from transit.
func (c *Checker) consume(e *Event, k string) {
	if k == "" {
		return
	}
	c.removeMsg(k)
	if c.initial[k] > 0 && (e.MID == "" || c.mids[e.MID] == nil) {
		c.initial[k]--
	}
	if e.MID != "" {
		delete(c.mids, e.MID)
		c.gotMID[hashMID(e.MID)] = e.Line
	}
}

// pop removes p's head event e, now explained.
func (c *Checker) pop(p int, e *Event) {
	c.queue[p][0] = nil
	c.queue[p] = c.queue[p][1:]
	if len(c.queue[p]) == 0 {
		c.queue[p] = nil
	}
	c.done[p] = e.Seq
	c.res.Events++
}

// owedMatch returns the index in c.owed[p] of the step whose owed effect
// the logged effect x is (the oldest candidate), or -1.
func (c *Checker) owedMatch(p int, x *Event) int {
	i, _ := c.owedFind(p, x)
	return i
}

// owedFind returns the step and send index (-1 for an enter) of the owed
// effect x is, or -1; it notes a guess when x matches owed effects that
// are different messages.
func (c *Checker) owedFind(p int, x *Event) (int, int) {
	thread := -1
	if x.Thread != "" && x.Kind == KindSend {
		if s, ok := c.threadTrig[p][x.Thread]; ok {
			thread = s
		}
	}
	bi, bj := -1, -1
	for i, o := range c.owed[p] {
		if x.Cause != 0 && o.trig.Seq != x.Cause || thread >= 0 && o.trig.Seq != thread {
			continue
		}
		if x.Kind == KindEnter {
			if o.enter && (c.info.Groups <= 1 || x.Group == o.group) {
				return i, -1
			}
			continue
		}
		for j, s := range o.sends {
			if s.logged || s.to != *x.To || !c.match.match(x, s.text) {
				continue
			}
			if bi < 0 {
				bi, bj = i, j
				if x.Msg != "" && !x.Structured() {
					return bi, bj // a rendering names one message
				}
				continue
			}
			if s.enc != c.owed[p][bi].sends[bj].enc {
				c.ambiguousAt = x
			}
		}
	}
	return bi, bj
}

// matchEffect explains the logged effect x of p as an effect its steps
// owe, or says why it is none.
func (c *Checker) matchEffect(p int, x *Event) string {
	c.ambiguousAt = nil
	i, j := c.owedFind(p, x)
	if i < 0 {
		return c.effectWhy(p, x)
	}
	if c.ambiguousAt == x && c.guessed == nil {
		c.guessed, c.guessWhy = x, "the logged message matches several messages the model's steps sent, and the log does not say which; the oldest was taken (log messages in full, or give \"cause\")"
	}
	o := c.owed[p][i]
	if j < 0 {
		o.enter = false
	} else {
		s := &o.sends[j]
		s.logged = true
		if nm := c.net[s.enc]; nm != nil && nm.unlogged > 0 {
			nm.unlogged--
		}
		if x.MID != "" {
			if mi := c.mids[x.MID]; mi != nil {
				mi.enc, mi.explain = s.enc, true
			}
		}
	}
	if o.order >= 0 {
		st := &c.res.Order[o.order].Step
		st.Effects = append(st.Effects, x)
	}
	if !o.pending() {
		c.owed[p] = slices.Delete(c.owed[p], i, i+1)
	}
	c.pop(p, x)
	return ""
}

// effectWhy says why the logged effect x of p is no effect its steps owe.
func (c *Checker) effectWhy(p int, x *Event) string {
	var why string
	latest := c.lastLabel[p]
	if n := len(c.owed[p]); n > 0 {
		latest = c.owed[p][n-1].label
	}
	switch {
	case x.Kind == KindEnter && c.locals[p].Phase == model.InCS:
		why = fmt.Sprintf("the log has P%d enter its CS twice: P%d is in its CS in the model, and the log has shown that entry already", p, p)
	case x.Kind == KindEnter:
		why = fmt.Sprintf("the log has P%d enter its CS but the model's step %s does not enter, nor does any earlier step of P%d whose effects are not all logged (P%d is %s after it)", p, latest, p, p, c.locals[p].Phase)
	default:
		for _, o := range c.owed[p] {
			for _, s := range o.sends {
				if !s.logged && s.to != *x.To && c.match.match(x, s.text) {
					why = fmt.Sprintf("the log sends %s to P%d, but the model's step %s sends it to P%d", x.Msg, *x.To, o.label, s.to)
				}
			}
		}
		if why == "" && latest == "" {
			why = fmt.Sprintf("the log sends %s but no step of P%d does", x.Msg, p)
		} else if why == "" {
			why = fmt.Sprintf("the log sends %s but the model's step %s does not, nor does any earlier step of P%d whose sends are not all logged", x.Msg, latest, p)
		}
	}
	if x.Cause != 0 {
		why += fmt.Sprintf(" (the event names its trigger: cause %d)", x.Cause)
	}
	return why + "; " + c.owedSummary(p) + "; " + c.could(p)
}

// relaxedStep explains the head of p's queue if it can and reports
// whether it did; a head that cannot be explained is left, with why in
// c.head[p] (or dropped as a divergence, with Options.All).
func (c *Checker) relaxedStep(p int) bool {
	q := c.queue[p]
	if len(q) == 0 {
		return false
	}
	e := q[0]
	if !c.hbReady(e) {
		return false
	}
	if !isTrigger(e.Kind) {
		if why := c.matchEffect(p, e); why != "" {
			return c.headFails(p, fired{event: e, why: why, definite: true})
		}
		return true
	}
	if len(c.owed[p]) == 0 {
		st, complete := c.stepAt(p)
		if !complete {
			return false // wait for the step's effects to be read
		}
		if c.strictAllowed(p, st) { // else an effect names another step
			f := c.fire(p, st)
			if f.why == "" {
				c.commit(p, st, f)
				return true
			}
			if !f.definite || f.ambiguous {
				return c.headFails(p, f)
			}
		}
	}
	f := c.fireTrigger(p, e)
	if f.why != "" {
		return c.headFails(p, f)
	}
	c.commitTrigger(p, e, f)
	return true
}

// headFails handles a head of p's queue that cannot be explained now:
// with Options.All a definite failure is recorded and the event dropped
// (with the effects right after a dropped trigger that no step owes),
// and the walk goes on.
func (c *Checker) headFails(p int, f fired) bool {
	if !c.opts.All || !f.definite || f.ambiguous {
		return false
	}
	c.drop(p, f.event, f.why)
	return true
}

// drop records a divergence at e (the head of p's queue) and removes it.
func (c *Checker) drop(p int, e *Event, why string) {
	c.divs = append(c.divs, Divergence{Event: e, Reason: why})
	if len(c.divs) == 1 {
		c.firstReached = c.describe()
	}
	trig := isTrigger(e.Kind)
	c.dropOne(p)
	if trig {
		for len(c.queue[p]) > 0 && !isTrigger(c.queue[p][0].Kind) && c.owedMatch(p, c.queue[p][0]) < 0 {
			c.dropOne(p)
		}
	}
}

func (c *Checker) dropOne(p int) {
	e := c.queue[p][0]
	if e.Kind == KindSend && e.MID != "" {
		c.droppedMID[hashMID(e.MID)] = e.Line
		delete(c.mids, e.MID)
	}
	c.queue[p][0] = nil
	c.queue[p] = c.queue[p][1:]
	c.done[p] = e.Seq
	c.dropped++
}

// noteThread remembers trigger e as the latest of its thread.
func (c *Checker) noteThread(p int, e *Event) {
	if e.Thread != "" {
		if c.threadTrig[p] == nil {
			c.threadTrig[p] = map[string]int{}
		}
		c.threadTrig[p][e.Thread] = e.Seq
	}
}

// strictAllowed reports whether st's effects may be its own by their
// cause and thread fields.
func (c *Checker) strictAllowed(p int, st Step) bool {
	for _, x := range st.Effects {
		if x.Cause != 0 && x.Cause != st.Trigger.Seq {
			return false
		}
		if x.Kind == KindSend && x.Thread != "" && x.Thread != st.Trigger.Thread {
			if _, ok := c.threadTrig[p][x.Thread]; ok {
				return false
			}
		}
	}
	return true
}

// relaxed reports whether steps may be logged non-atomically: not with
// Options.Atomic, nor for a model with a whole-state guard, whose steps
// are explained in the log order of their triggers.
func (c *Checker) relaxed() bool { return !c.opts.Atomic && !c.guarded }

// headWhy says why the head of p's queue cannot be explained now (ok
// false: p has no event left, or its head is not happens-before ready).
func (c *Checker) headWhy(p int) (fired, bool) {
	q := c.queue[p]
	if len(q) == 0 || !c.hbReady(q[0]) {
		return fired{}, false
	}
	e := q[0]
	if !isTrigger(e.Kind) {
		if i := c.owedMatch(p, e); i >= 0 {
			return fired{event: e}, true
		}
		return fired{event: e, why: c.effectWhy(p, e), definite: true}, true
	}
	if len(c.owed[p]) == 0 {
		st, complete := c.stepAt(p)
		if !complete {
			return fired{event: e}, true
		}
		if c.strictAllowed(p, st) {
			if f := c.fire(p, st); f.why == "" || !f.definite || f.ambiguous {
				return f, true
			}
		}
	}
	g := c.guessed
	f := c.fireTrigger(p, e)
	c.guessed = g
	return f, true
}

// afterGuess turns a divergence found after a guessed grouping into the
// reason of an undecided result.
func (c *Checker) afterGuess(why string) string {
	return fmt.Sprintf("%s; but at %s %s, so another grouping might explain the log", why, c.guessed, c.guessWhy)
}

// finishRelaxed is Finish for the relaxed walk.
func (c *Checker) finishRelaxed() Result {
	res := &c.res
	c.advance()
	if c.opts.All {
		for {
			best := -1
			var bf fired
			for p := range c.n {
				f, ok := c.headWhy(p)
				if ok && f.why != "" && (best < 0 || f.event.Line < bf.event.Line) {
					best, bf = p, f
				}
			}
			if best < 0 {
				// only heads waiting for events that cannot be explained
				for p := range c.n {
					if len(c.queue[p]) > 0 && (best < 0 || c.queue[p][0].Line < bf.event.Line) {
						best, bf = p, fired{event: c.queue[p][0], why: "happens after events that cannot be explained: " + c.missing(c.queue[p][0])}
					}
				}
				if best < 0 {
					break
				}
			}
			c.drop(best, c.queue[best][0], bf.why)
			c.advance()
		}
	}
	res.Messages = c.inTransit()
	if len(c.divs) == 0 && res.Events == c.total {
		if c.opts.Complete {
			c.completeCheck()
		}
		if len(c.divs) == 0 {
			res.OK = true
			c.finishNotes()
			return *res
		}
	}
	if len(c.divs) > 0 {
		sort.SliceStable(c.divs, func(a, b int) bool { return divLine(c.divs[a]) < divLine(c.divs[b]) })
		res.Divergences = c.divs
		d := c.divs[0]
		if c.guessed != nil {
			c.undecided(d.Event, c.afterGuess(d.Reason))
		} else {
			res.Failed, res.Reason = d.Event, d.Reason
			res.Messages = c.inTransit()
		}
		if c.firstReached.Processes != nil {
			res.Reached = c.firstReached
		} else {
			res.Reached = c.describe()
		}
		if res.Failed == nil && !res.Undecided {
			res.Reason = d.Reason
		}
		return *res
	}
	var ready, waiting []blocked
	for p := range c.n {
		f, ok := c.headWhy(p)
		switch {
		case ok && f.why != "":
			// a receive whose send is not in the log, and the last event
			// of its process: the log may be cut before the send was
			// logged (with later events of the receiver, a send that
			// never came blocks them: that is a divergence)
			last := len(c.queue[p]) == 1 && c.queue[p][0] == f.event
			ready = append(ready, blocked{e: f.event, why: f.why, ambiguous: f.ambiguous, unsent: f.unsent && last})
		case len(c.queue[p]) > 0:
			e := c.queue[p][0]
			waiting = append(waiting, blocked{e: e, why: "happens after events that cannot be explained: " + c.missing(e)})
		}
	}
	return c.verdict(ready, waiting)
}

func divLine(d Divergence) int {
	if d.Event == nil {
		return 1 << 62
	}
	return d.Event.Line
}

// finishNotes notes the processes the log never shows requesting.
func (c *Checker) finishNotes() {
	if note := neverRequested(c.requests, nil); note != "" {
		c.res.Notes = append(c.res.Notes, note)
	}
	if c.opts.Complete {
		return // completeCheck reports them
	}
	for p := range c.n {
		if c.locals[p].Phase == model.Waiting && c.lastRequest[p] != nil {
			c.res.Notes = append(c.res.Notes, notServed(p, c.lastRequest[p]))
		}
	}
}

func notServed(p int, req *Event) string {
	return fmt.Sprintf("P%d's request (%s) is not served by the end of the log (fine for a prefix of a run; --complete says the run ended, and then it is checked)", p, lineOf(req))
}

// neverRequested says which processes have no request in the log
// (among the observed ones, nil: all), or "" when every one has, or none.
func neverRequested(requests []int, observed []bool) string {
	var never []string
	some := false
	for p, k := range requests {
		if observed != nil && !observed[p] {
			continue
		}
		if k == 0 {
			never = append(never, fmt.Sprintf("P%d", p))
		} else {
			some = true
		}
	}
	if len(never) == 0 || !some {
		return ""
	}
	return fmt.Sprintf("%s never requested the CS in this log (and so never entered): the log shows only the other processes competing", strings.Join(never, ", "))
}

// completeCheck is Options.Complete: the run ended cleanly, so every
// effect of a step taken must be logged, and a request not served is a
// divergence when the model would have served it.
func (c *Checker) completeCheck() {
	for p := range c.n {
		for _, o := range c.owed[p] {
			c.divs = append(c.divs, Divergence{Event: o.trig, Reason: "the run is complete, but the log never shows every effect of its step: the model's step " + o.describe()})
		}
	}
	for p := range c.n {
		if c.locals[p].Phase != model.Waiting {
			continue
		}
		if c.lastRequest[p] == nil {
			continue
		}
		what := fmt.Sprintf("P%d requested (%s) and the log ends without P%d entering its CS", p, lineOf(c.lastRequest[p]), p)
		switch canServe(c.gw, c.lw, c.global(), p) {
		case serveYes:
			c.res.Unserved = append(c.res.Unserved, what)
			c.divs = append(c.divs, Divergence{Event: c.lastRequest[p], Reason: what + "; the model serves that request from the state the log ends in (by delivering the messages in transit and taking its other steps), so the program should have"})
		case serveNo:
			c.res.Unserved = append(c.res.Unserved, what)
			c.res.Notes = append(c.res.Notes, what+"; no behaviour of the model serves it from the state the log ends in either (the model itself is stuck there)")
		default:
			c.res.Unserved = append(c.res.Unserved, what)
			c.res.Notes = append(c.res.Notes, what+"; whether the model serves it from there is unknown (the search of its continuations ran out of budget)")
		}
	}
}

const (
	serveNo = iota
	serveYes
	serveUnknown
)

// canServe searches the model's continuations from start, without new
// requests, for one in which p enters its CS.
func canServe(gw model.Worker, lw protosys.LocalWorker, start []byte, p int) int {
	seen := map[string]bool{string(start): true}
	frontier := [][]byte{start}
	const budget = 200_000
	for len(frontier) > 0 {
		s := frontier[0]
		frontier = frontier[1:]
		found := false
		gw.Successors(s, func(t *model.Transition, next []byte) bool {
			if t.Kind == model.Request || t.Kind == model.Lose {
				return true
			}
			locals, _, _ := lw.Split(next)
			if locals[p].Phase == model.InCS {
				found = true
				return false
			}
			if !seen[string(next)] && len(seen) < budget {
				seen[string(next)] = true
				frontier = append(frontier, append([]byte(nil), next...))
			}
			return true
		})
		if found {
			return serveYes
		}
	}
	if len(seen) >= budget {
		return serveUnknown
	}
	return serveNo
}
