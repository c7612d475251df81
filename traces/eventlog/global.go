package eventlog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// validateGlobal searches for an interleaving of the log's steps that is
// consistent with the recorded happens-before order (the vector
// timestamps) and in which every step is an enabled transition of sys,
// producing exactly the recorded sends and enters.
//
// The search is greedy and yet complete for systems compiled from a
// protocol.Protocol: a step touches only its own process's local state, adds
// messages and removes only a message addressed to its own process, so
// steps of different processes commute and none disables another. The set
// of steps executable in some interleaving therefore has one maximal
// consistent cut, which any fair greedy order reaches. When the greedy
// order stops short of the whole log, the step of the earliest line that
// is HB-ready at the maximal cut (or, if none is ready, the earliest
// pending step) is the first event no interleaving explains. (A System
// that wraps a protocol and filters its transitions by the global state,
// such as a timer guard that needs an empty network, is not persistent in
// this sense: for it the greedy order may miss interleavings, and a
// rejection is not conclusive.)
func validateGlobal(sys model.System, l *Log) Result {
	w := sys.NewWorker()
	var state []byte
	w.Initial(func(s []byte) bool { state = append([]byte(nil), s...); return false })
	info := sys.Info()
	res := Result{Initial: w.Describe(state)}
	n := l.N()
	if info.Processes != n {
		res.Reason = fmt.Sprintf("the log has n=%d processes but the model %s has %d", n, info.Name, info.Processes)
		return res
	}
	steps := l.Steps()
	next := make([]int, n) // next step per process
	done := make([]int, n) // events executed per process
	cur := res.Initial
	type cand struct {
		p    int
		next []byte
		lbl  string
	}
	for {
		progressed := false
		for p := range n {
			for next[p] < len(steps[p]) {
				st := steps[p][next[p]]
				if !hbReady(st.Trigger, done) {
					break
				}
				nx, lbl, why := fire(w, state, st, info.Groups > 1)
				if why != "" {
					break
				}
				after := w.Describe(nx)
				if why := checkEffects(&cur, &after, st, lbl); why != "" {
					break
				}
				state = nx
				cur = after
				next[p]++
				done[p] += 1 + len(st.Effects)
				res.Steps++
				res.Events += 1 + len(st.Effects)
				res.Order = append(res.Order, Executed{Step: st, Label: lbl, State: after})
				progressed = true
			}
		}
		if !progressed {
			break
		}
	}
	for _, m := range cur.Network {
		res.Messages += m.Count
	}
	if res.Events == len(l.Events) {
		res.OK = true
		return res
	}
	// Explain the failure at the maximal cut.
	res.Reached = cur
	type blocked struct {
		e   *Event
		why string
	}
	var ready, waiting []blocked
	for p := range n {
		if next[p] >= len(steps[p]) {
			continue
		}
		st := steps[p][next[p]]
		if !hbReady(st.Trigger, done) {
			waiting = append(waiting, blocked{st.Trigger, "happens after events that cannot be explained: " + missing(st.Trigger, done)})
			continue
		}
		nx, lbl, why := fire(w, state, st, info.Groups > 1)
		if why == "" {
			after := w.Describe(nx)
			if why2 := checkEffects(&cur, &after, st, lbl); why2 != "" {
				ready = append(ready, blocked{effectEvent(st, why2), why2})
				continue
			}
		}
		ready = append(ready, blocked{st.Trigger, why})
	}
	sort.Slice(ready, func(a, b int) bool { return ready[a].e.Line < ready[b].e.Line })
	sort.Slice(waiting, func(a, b int) bool { return waiting[a].e.Line < waiting[b].e.Line })
	for _, b := range append(append([]blocked{}, ready...), waiting...) {
		res.Pending = append(res.Pending, fmt.Sprintf("%s: %s", b.e, b.why))
	}
	first := append(ready, waiting...)[0]
	res.Failed, res.Reason = first.e, first.why
	return res
}

// hbReady reports whether every event that happens before e (by its
// vector timestamp) has been executed.
func hbReady(e *Event, done []int) bool {
	for q, v := range e.VC {
		if q == e.P {
			if done[q] != v-1 {
				return false
			}
			continue
		}
		if done[q] < v {
			return false
		}
	}
	return true
}

func missing(e *Event, done []int) string {
	var out []string
	for q, v := range e.VC {
		if q != e.P && done[q] < v {
			out = append(out, fmt.Sprintf("P%d's events up to #%d (only %d explained)", q, v, done[q]))
		}
	}
	return strings.Join(out, ", ")
}

// fire finds the model transition of st's trigger in state and returns
// the state it leads to and its label, or why there is none.
func fire(w model.Worker, state []byte, st Step, groups bool) ([]byte, string, string) {
	e := st.Trigger
	var want string
	switch e.Kind {
	case KindRequest:
		if groups {
			want = fmt.Sprintf("Request(P%d, g=%d)", e.P, e.Group)
		} else {
			want = fmt.Sprintf("Request(P%d)", e.P)
		}
	case KindExit:
		want = fmt.Sprintf("Exit(P%d)", e.P)
	case KindTimer:
		want = fmt.Sprintf("Timer(P%d, t=%d)", e.P, e.Timer)
	case KindReceive:
		want = "Deliver " + e.Msg
	}
	var labels []string
	var nextState []byte
	var found bool
	var ts []model.Transition
	var nexts [][]byte
	w.Successors(state, func(t *model.Transition, nx []byte) bool {
		tc := *t
		tc.Msg = append([]byte(nil), t.Msg...)
		ts = append(ts, tc)
		nexts = append(nexts, append([]byte(nil), nx...))
		return true
	})
	for k := range ts {
		t := &ts[k]
		if t.Proc != e.P || t.Kind == model.Lose {
			continue
		}
		lbl := w.Label(state, t)
		labels = append(labels, lbl)
		// A timer matches by number, not by label: a model with named
		// timers (Protocol.TimerNames) labels it Timer(P0, NAME).
		if lbl == want || (e.Kind == KindTimer && t.Kind == model.Timer && t.Arg == e.Timer) {
			nextState, found, want = nexts[k], true, lbl
		}
	}
	if found {
		return nextState, want, ""
	}
	var why string
	switch e.Kind {
	case KindReceive:
		why = fmt.Sprintf("no message %s to P%d is in transit, so it cannot be delivered (it was never sent, or was already delivered)", e.Msg, e.P)
	default:
		why = fmt.Sprintf("%s is not enabled", want)
	}
	if len(labels) > 0 {
		why += "; P" + fmt.Sprint(e.P) + " could do: " + strings.Join(labels, ", ")
	} else {
		why += fmt.Sprintf("; P%d has no enabled step", e.P)
	}
	return nil, "", why
}

// checkEffects compares the recorded sends and enter of st with what the
// model's step did between states before and after.
func checkEffects(before, after *model.StateDescription, st Step, label string) string {
	e := st.Trigger
	cnt := map[string]int{}
	for _, m := range after.Network {
		cnt[m.Message] += m.Count
	}
	for _, m := range before.Network {
		cnt[m.Message] -= m.Count
	}
	if e.Kind == KindReceive {
		cnt[e.Msg]++
	}
	for _, f := range st.Effects {
		if f.Kind == KindSend {
			cnt[f.Msg]--
		}
	}
	var extra, unsent []string
	keys := make([]string, 0, len(cnt))
	for k := range cnt {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for c := cnt[k]; c > 0; c-- {
			unsent = append(unsent, k)
		}
		for c := cnt[k]; c < 0; c++ {
			extra = append(extra, k)
		}
	}
	entered := after.Processes[e.P].Phase == model.InCS.String() && before.Processes[e.P].Phase != model.InCS.String()
	logged := false
	for _, f := range st.Effects {
		if f.Kind == KindEnter {
			logged = true
		}
	}
	var why []string
	if len(extra) > 0 {
		why = append(why, "the log sends "+strings.Join(extra, ", ")+" but the model's step "+label+" does not")
	}
	if len(unsent) > 0 {
		why = append(why, "the model's step "+label+" sends "+strings.Join(unsent, ", ")+" but the log does not")
	}
	if logged && !entered {
		why = append(why, fmt.Sprintf("the log has P%d enter its CS but the model's step %s does not enter (P%d is %s after it)", e.P, label, e.P, after.Processes[e.P].Phase))
	}
	if entered && !logged {
		why = append(why, fmt.Sprintf("the model's step %s enters P%d's CS but the log has no enter", label, e.P))
	}
	return strings.Join(why, "; ")
}

// effectEvent returns the event of st that a failed effect check names:
// a logged send or enter the model does not do, else the trigger.
func effectEvent(st Step, why string) *Event {
	for _, f := range st.Effects {
		if f.Kind == KindEnter && strings.Contains(why, "enter its CS but the model") {
			return f
		}
		if f.Kind == KindSend && strings.Contains(why, "the log sends") && strings.Contains(why, f.Msg) {
			return f
		}
	}
	return st.Trigger
}
