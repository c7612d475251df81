package eventlog_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
	"github.com/tokenmc/tokenmc/traces/eventlog"
	"pgregory.net/rapid"
)

// Tests of the observation semantics of steps logged non-atomically
// (docs/eventlog.md, "Steps of concurrent programs"): a generator of logs
// as a concurrent program writes them, a brute-force enumeration of the
// semantics, and properties relating the two to the validator.

// tb is what the helpers need of testing.TB and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
	Fatal(args ...any)
}

// concurrentLog runs algo's local handlers in a random order and writes
// the log as a concurrent program would: a step's trigger at once, its
// sends and enter later (with relaxed), each after its trigger,
// interleaved with other events of the same process, an enter always
// before the process's next exit, and a message received only after its
// send is logged. Vector timestamps are kept as an implementation keeps
// them. It stops after about events events or when nothing is enabled.
func concurrentLog(tb tb, algo string, n, r, events int, rng *rand.Rand, relaxed bool) []byte {
	return concurrentLogCause(tb, algo, n, r, events, rng, relaxed, false)
}

// concurrentLogCause is concurrentLog; with cause, every effect names its
// trigger's seq.
func concurrentLogCause(tb tb, algo string, n, r, events int, rng *rand.Rand, relaxed, cause bool) []byte {
	a, v, err := algorithms.Lookup(algo)
	if err != nil {
		tb.Fatal(err)
	}
	params := map[string]int{"n": n, "r": r}
	sys, _, err := a.BuildSim(v.Name, params)
	if err != nil {
		tb.Fatal(err)
	}
	lw := sys.(protosys.LocalSystem).NewLocalWorker()
	type msg struct {
		enc    []byte
		from   int
		mid    string
		vc     []int
		logged bool
	}
	type effect struct {
		m     *msg // nil: the enter
		group int
		trig  int // the trigger's seq
	}
	locals := make([]protosys.LocalState, n)
	vcs := make([][]int, n)
	sent := make([]int, n)
	pend := make([][]effect, n)
	for p := range n {
		locals[p] = lw.InitialLocal(p)
		vcs[p] = make([]int, n)
	}
	var net []*msg
	for _, m := range lw.InitialMessages() {
		net = append(net, &msg{enc: m, from: -1, logged: true, mid: fmt.Sprintf("init.%d", len(net)), vc: make([]int, n)})
	}
	var out []eventlog.Event
	emit := func(p int, e eventlog.Event) {
		vcs[p][p]++
		e.P, e.Seq, e.VC, e.TNs = p, vcs[p][p], append([]int(nil), vcs[p]...), int64(len(out)+1)
		out = append(out, e)
	}
	logEffect := func(p, k int) {
		f := pend[p][k]
		pend[p] = append(pend[p][:k], pend[p][k+1:]...)
		c := 0
		if cause {
			c = f.trig
		}
		if f.m == nil {
			emit(p, eventlog.Event{Kind: eventlog.KindEnter, Group: f.group, Cause: c})
			return
		}
		sent[p]++
		to := lw.To(f.m.enc)
		f.m.mid = fmt.Sprintf("%d.%d", p, sent[p])
		emit(p, eventlog.Event{Kind: eventlog.KindSend, Msg: lw.FormatMsg(f.m.enc), MID: f.m.mid, To: &to, Cause: c})
		f.m.vc, f.m.logged = out[len(out)-1].VC, true
	}
	for len(out) < events {
		type act struct {
			p   int
			eff int // >= 0: log that pending effect
			ev  protosys.LocalEvent
			m   int // Deliver: index in net
		}
		var acts []act
		for p := range n {
			for k := range pend[p] {
				acts = append(acts, act{p: p, eff: k})
			}
			enterOwed := false
			for _, f := range pend[p] {
				enterOwed = enterOwed || f.m == nil
			}
			switch locals[p].Phase {
			case model.Idle:
				acts = append(acts, act{p: p, eff: -1, ev: protosys.LocalEvent{Kind: model.Request}})
			case model.InCS:
				if !enterOwed {
					acts = append(acts, act{p: p, eff: -1, ev: protosys.LocalEvent{Kind: model.Exit}})
				}
			}
			for k, m := range net {
				if m.logged && lw.To(m.enc) == p {
					acts = append(acts, act{p: p, eff: -1, ev: protosys.LocalEvent{Kind: model.Deliver, Msg: m.enc}, m: k})
				}
			}
		}
		rng.Shuffle(len(acts), func(i, j int) { acts[i], acts[j] = acts[j], acts[i] })
		done := false
		for _, x := range acts {
			if x.eff >= 0 {
				logEffect(x.p, x.eff)
				done = true
				break
			}
			res, err := lw.Step(x.p, locals[x.p], x.ev)
			if err != nil {
				continue // e.g. a request after r requests
			}
			p := x.p
			locals[p] = res.Next
			switch x.ev.Kind {
			case model.Request:
				emit(p, eventlog.Event{Kind: eventlog.KindRequest})
			case model.Exit:
				emit(p, eventlog.Event{Kind: eventlog.KindExit})
			case model.Deliver:
				m := net[x.m]
				net = append(net[:x.m], net[x.m+1:]...)
				for q := range n {
					vcs[p][q] = max(vcs[p][q], m.vc[q])
				}
				e := eventlog.Event{Kind: eventlog.KindReceive, Msg: lw.FormatMsg(m.enc), MID: m.mid}
				if m.from >= 0 {
					from := m.from
					e.From = &from
				} else {
					e.MID = ""
				}
				emit(p, e)
			}
			trig := vcs[p][p]
			for _, s := range res.Sent {
				m := &msg{enc: s, from: p}
				net = append(net, m)
				pend[p] = append(pend[p], effect{m: m, trig: trig})
			}
			if res.Entered {
				pend[p] = append(pend[p], effect{group: res.Next.Group, trig: trig})
			}
			if !relaxed {
				for len(pend[p]) > 0 {
					logEffect(p, 0)
				}
			}
			done = true
			break
		}
		if !done {
			break
		}
	}
	var buf bytes.Buffer
	h := eventlog.Header{Algorithm: algo, Params: params}
	if err := eventlog.Write(&buf, h, out); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// validateText reads and validates a log.
func validateText(tb tb, sys model.System, text string, opts eventlog.Options) (*eventlog.Log, eventlog.Result) {
	tb.Helper()
	l, err := eventlog.Read(strings.NewReader(text), "gen.jsonl")
	if err != nil {
		tb.Fatalf("%v\n%s", err, text)
	}
	return l, eventlog.Validate(sys, l, opts)
}

func buildSys(tb tb, algo string, n, r int) model.System {
	a, v, err := algorithms.Lookup(algo)
	if err != nil {
		tb.Fatal(err)
	}
	sys, _, err := a.Build(v.Name, map[string]int{"n": n, "r": r})
	if err != nil {
		tb.Fatal(err)
	}
	return sys
}

var relaxedAlgos = []string{"suzuki-kasami", "ricart-agrawala", "raymond"}

// Logs written the way concurrent programs write them validate, and so
// does every prefix of them, cut at any line (inside a step or not).
func TestConcurrentLogsAndEveryPrefixValidate(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		algo := rapid.SampledFrom(relaxedAlgos).Draw(rt, "algo")
		n := rapid.IntRange(2, 3).Draw(rt, "n")
		seed := rapid.Uint64().Draw(rt, "seed")
		relaxed := rapid.Bool().Draw(rt, "relaxed")
		sys := buildSys(rt, algo, n, 2)
		text := string(concurrentLog(rt, algo, n, 2, 40, rand.New(rand.NewPCG(seed, 3)), relaxed))
		lines := strings.SplitAfter(text, "\n")
		for k := 1; k <= len(lines); k++ {
			cut := strings.Join(lines[:k], "")
			l, res := validateText(rt, sys, cut, eventlog.Options{})
			if !res.OK && !res.Undecided {
				rt.Fatalf("the prefix of %d lines is rejected at %v: %s\n%s", k, res.Failed, res.Reason, cut)
			}
			if res.OK && res.Events != len(l.Events) {
				rt.Fatalf("ok, but %d of %d events explained", res.Events, len(l.Events))
			}
			if !relaxed { // an atomic log's prefixes pass the atomic check too
				if _, res := validateText(rt, sys, cut, eventlog.Options{Atomic: true}); !res.OK {
					rt.Fatalf("the prefix of %d lines is rejected with Atomic at %v: %s\n%s", k, res.Failed, res.Reason, cut)
				}
			}
		}
		if !relaxed {
			if _, res := validateText(rt, sys, text, eventlog.Options{Atomic: true}); !res.OK {
				rt.Fatalf("an atomic log is rejected with Atomic: %v: %s", res.Failed, res.Reason)
			}
		}
	})
}

// Without Options.Atomic a concurrent program's log validates; with it,
// a log that has an effect logged late is rejected: the option keeps the
// old check.
func TestAtomicRejectsLateEffects(t *testing.T) {
	sys := buildSys(t, "ricart-agrawala", 3, 2)
	late := 0
	for seed := range uint64(20) {
		text := string(concurrentLog(t, "ricart-agrawala", 3, 2, 60, rand.New(rand.NewPCG(seed, 9)), true))
		if _, res := validateText(t, sys, text, eventlog.Options{}); !res.OK {
			t.Fatalf("seed %d: %v: %s", seed, res.Failed, res.Reason)
		}
		if _, res := validateText(t, sys, text, eventlog.Options{Atomic: true}); !res.OK {
			late++
		}
	}
	if late == 0 {
		t.Fatal("no generated log has an effect logged late: the generator does not test the relaxed semantics")
	}
}

// bruteForce decides by enumeration whether a behaviour of sys explains
// the log under the semantics of docs/eventlog.md, written down here
// directly: the log's triggers are the steps, taken in an order that
// extends the happens-before order among triggers; each step's sends and
// enter are each either a logged event of the process after the
// trigger (matching message and receiver) or not logged yet (the log is
// a prefix), a logged event being one step's effect only; an enter is
// logged before the process's next exit; a receive delivers the message
// that the model step whose effect its send is sent. Every logged event
// must be explained.
func bruteForce(tb tb, sys model.System, l *eventlog.Log) bool {
	lw := sys.(protosys.LocalSystem).NewLocalWorker()
	n := l.N()
	per := l.Per()
	var trig [][]*eventlog.Event
	effIdx := map[*eventlog.Event]int{}
	var effs []*eventlog.Event
	for p := range n {
		trig = append(trig, nil)
		for _, e := range per[p] {
			if e.IsTrigger() {
				trig[p] = append(trig[p], e)
			} else {
				effIdx[e] = len(effs)
				effs = append(effs, e)
			}
		}
	}
	if len(effs) > 62 {
		tb.Fatalf("brute force: %d effects is too many", len(effs))
	}
	all := uint64(1)<<len(effs) - 1
	// need[p][k][q]: how many of q's triggers must be taken before p's
	// k-th trigger (those whose seq is at most its vc[q]).
	need := make([][][]int, n)
	for p := range n {
		for _, t := range trig[p] {
			row := make([]int, n)
			for q := range n {
				if q == p {
					continue
				}
				for _, u := range trig[q] {
					if u.Seq <= t.VC[q] {
						row[q]++
					}
				}
			}
			need[p] = append(need[p], row)
		}
	}
	type node struct {
		locals []protosys.LocalState
		net    [][]byte
		next   []int
		mask   uint64
		enc    map[string]string // mid -> encoded message
	}
	key := func(nd *node) string {
		var b strings.Builder
		net := make([]string, len(nd.net))
		for k, m := range nd.net {
			net[k] = string(m)
		}
		sort.Strings(net)
		b.Write(lw.Assemble(nd.locals, nd.net, 0))
		fmt.Fprint(&b, nd.next, nd.mask)
		mids := make([]string, 0, len(nd.enc))
		for k, v := range nd.enc {
			mids = append(mids, k+"="+v)
		}
		sort.Strings(mids)
		fmt.Fprint(&b, mids)
		return b.String()
	}
	failed := map[string]bool{}
	var dfs func(nd *node) bool
	dfs = func(nd *node) bool {
		done := nd.mask == all
		for p := range n {
			done = done && nd.next[p] == len(trig[p])
		}
		if done {
			return true
		}
		k := key(nd)
		if failed[k] {
			return false
		}
		for p := range n {
			i := nd.next[p]
			if i >= len(trig[p]) {
				continue
			}
			ready := true
			for q := range n {
				ready = ready && nd.next[q] >= need[p][i][q]
			}
			if !ready {
				continue
			}
			t := trig[p][i]
			var ev protosys.LocalEvent
			net := nd.net
			switch t.Kind {
			case eventlog.KindRequest:
				ev = protosys.LocalEvent{Kind: model.Request, Arg: t.Group}
			case eventlog.KindExit:
				ev = protosys.LocalEvent{Kind: model.Exit}
			case eventlog.KindTimer:
				ev = protosys.LocalEvent{Kind: model.Timer, Arg: t.Timer}
			case eventlog.KindReceive:
				var enc string
				if t.MID != "" && !strings.HasPrefix(t.MID, "init.") {
					var ok bool
					if enc, ok = nd.enc[t.MID]; !ok {
						continue
					}
				} else {
					for _, m := range net {
						if lw.To(m) == p && lw.FormatMsg(m) == t.Msg {
							enc = string(m)
						}
					}
				}
				at := -1
				for k, m := range net {
					if string(m) == enc {
						at = k
					}
				}
				if at < 0 || lw.FormatMsg([]byte(enc)) != t.Msg {
					continue
				}
				net = append(append([][]byte{}, net[:at]...), net[at+1:]...)
				ev = protosys.LocalEvent{Kind: model.Deliver, Msg: []byte(enc)}
			}
			alts, err := lw.Alternatives(p, nd.locals[p], ev)
			if err != nil {
				continue
			}
			// the next exit of p after t: an enter must be logged before it
			nextExit := 1 << 30
			for _, u := range trig[p][i+1:] {
				if u.Kind == eventlog.KindExit {
					nextExit = u.Seq
					break
				}
			}
			for ch := range alts {
				ev.Choice = ch
				res, err := lw.Step(p, nd.locals[p], ev)
				if err != nil {
					continue
				}
				sends := append([][]byte(nil), res.Sent...)
				locals := append([]protosys.LocalState(nil), nd.locals...)
				locals[p] = res.Next
				local := locals[p]
				local.Local = append([]byte(nil), local.Local...)
				locals[p] = local
				net2 := append(append([][]byte{}, net...), sends...)
				// assign each model effect to a logged event or to none
				var assign func(j int, mask uint64, enc map[string]string) bool
				assign = func(j int, mask uint64, enc map[string]string) bool {
					if j == len(sends) {
						try := func(mask uint64) bool {
							next := append([]int(nil), nd.next...)
							next[p]++
							return dfs(&node{locals: locals, net: net2, next: next, mask: mask, enc: enc})
						}
						if !res.Entered {
							return try(mask)
						}
						for _, e := range per[p] {
							if e.Kind == eventlog.KindEnter && e.Seq > t.Seq && e.Seq < nextExit && mask&(1<<effIdx[e]) == 0 {
								if try(mask | 1<<effIdx[e]) {
									return true
								}
							}
						}
						return nextExit == 1<<30 && try(mask)
					}
					text, to := lw.FormatMsg(sends[j]), lw.To(sends[j])
					for _, e := range per[p] {
						if e.Kind == eventlog.KindSend && e.Seq > t.Seq && mask&(1<<effIdx[e]) == 0 && e.Msg == text && *e.To == to {
							enc2 := map[string]string{e.MID: string(sends[j])}
							for k, v := range enc {
								enc2[k] = v
							}
							if assign(j+1, mask|1<<effIdx[e], enc2) {
								return true
							}
						}
					}
					return assign(j+1, mask, enc) // not logged (yet)
				}
				if assign(0, nd.mask, nd.enc) {
					return true
				}
			}
		}
		failed[k] = true
		return false
	}
	locals := make([]protosys.LocalState, n)
	for p := range n {
		locals[p] = lw.InitialLocal(p)
	}
	return dfs(&node{locals: locals, net: lw.InitialMessages(), next: make([]int, n), enc: map[string]string{}})
}

// mutate applies one of the mutations of issue 21 to a log's text and
// returns the mutated log (renumbered, with the vector timestamps left
// out so that Read computes them from the file's order and the message
// ids), or "" when the log offers no place for it.
func mutate(text string, kind int, rng *rand.Rand) string {
	l, err := eventlog.Read(strings.NewReader(text), "m")
	if err != nil {
		return ""
	}
	evs := append([]eventlog.Event(nil), l.Events...)
	pick := func(ok func(k int) bool) int {
		var c []int
		for k := range evs {
			if ok(k) {
				c = append(c, k)
			}
		}
		if len(c) == 0 {
			return -1
		}
		return c[rng.IntN(len(c))]
	}
	switch kind {
	case 0: // an enter moved before the receive that allows it
		k := pick(func(k int) bool { return evs[k].Kind == eventlog.KindEnter })
		if k < 0 {
			return ""
		}
		r := -1
		for j := k - 1; j >= 0; j-- {
			if evs[j].P == evs[k].P && evs[j].IsTrigger() {
				r = j
				break
			}
		}
		if r < 0 || evs[r].Kind != eventlog.KindReceive {
			return ""
		}
		e := evs[k]
		evs = append(evs[:k], evs[k+1:]...)
		evs = append(evs[:r], append([]eventlog.Event{e}, evs[r:]...)...)
	case 1: // a receive dropped
		k := pick(func(k int) bool { return evs[k].Kind == eventlog.KindReceive })
		if k < 0 {
			return ""
		}
		evs = append(evs[:k], evs[k+1:]...)
	case 2: // a send duplicated
		k := pick(func(k int) bool { return evs[k].Kind == eventlog.KindSend })
		if k < 0 {
			return ""
		}
		d := evs[k]
		d.MID += "dup"
		evs = append(evs[:k+1], append([]eventlog.Event{d}, evs[k+1:]...)...)
	case 3: // two events of different processes, one happening after
		// the other, swapped: each process is said to have done what
		// the other did (an enter moved to the process that sent the
		// token, a receive to the process that sent it)
		k := pick(func(k int) bool { return true })
		var js []int
		for j := k + 1; k >= 0 && j < len(evs); j++ {
			if evs[j].P != evs[k].P && evs[j].VC[evs[k].P] >= evs[k].Seq && evs[j].Kind != evs[k].Kind {
				js = append(js, j)
			}
		}
		if len(js) == 0 {
			return ""
		}
		j := js[rng.IntN(len(js))]
		a, b := evs[k], evs[j]
		evs[k].Kind, evs[k].Msg, evs[k].MID, evs[k].To, evs[k].From, evs[k].Group = b.Kind, b.Msg, b.MID, b.To, b.From, b.Group
		evs[j].Kind, evs[j].Msg, evs[j].MID, evs[j].To, evs[j].From, evs[j].Group = a.Kind, a.Msg, a.MID, a.To, a.From, a.Group
	}
	seq := make([]int, l.N())
	for k := range evs {
		seq[evs[k].P]++
		evs[k].Seq, evs[k].VC = seq[evs[k].P], nil
	}
	// a mutation that puts an effect before every trigger of its
	// process makes a malformed log, not an impossible one
	trig := make([]bool, l.N())
	for _, e := range evs {
		if e.IsTrigger() {
			trig[e.P] = true
		} else if !trig[e.P] {
			return ""
		}
	}
	var buf bytes.Buffer
	if err := eventlog.Write(&buf, l.Header, evs); err != nil {
		return ""
	}
	return buf.String()
}

// drawConcurrentLog draws an algorithm, n, a seed and a size, and returns
// the system, the random source (stream) and a log of a concurrent
// program with effects logged late.
func drawConcurrentLog(rt *rapid.T, minSize, maxSize int, stream uint64) (model.System, *rand.Rand, string) {
	algo := rapid.SampledFrom(relaxedAlgos).Draw(rt, "algo")
	n := rapid.IntRange(2, 3).Draw(rt, "n")
	seed := rapid.Uint64().Draw(rt, "seed")
	size := rapid.IntRange(minSize, maxSize).Draw(rt, "events")
	rng := rand.New(rand.NewPCG(seed, stream))
	return buildSys(rt, algo, n, 2), rng, string(concurrentLog(rt, algo, n, 2, size, rng, true))
}

// compareWithBruteForce reads text (a log, mutated by mutation kind if
// kind >= 0), validates it and fails unless the verdict is brute's or
// undecided; it counts the outcome and returns the log (nil if text is
// malformed) and brute's verdict.
func compareWithBruteForce(rt *rapid.T, sys model.System, text string, kind int, counts map[string]int,
	brute func(tb, model.System, *eventlog.Log) bool) (*eventlog.Log, bool) {
	l, err := eventlog.Read(strings.NewReader(text), "m.jsonl")
	if err != nil {
		counts["malformed"]++
		return nil, false
	}
	res := eventlog.Validate(sys, l, eventlog.Options{})
	bf := brute(rt, sys, l)
	switch {
	case res.Undecided:
		counts["undecided"]++
	case res.OK != bf:
		rt.Fatalf("validator ok=%v (%v: %s), brute force %v, mutation %d:\n%s", res.OK, res.Failed, res.Reason, bf, kind, text)
	case res.OK && kind < 0:
		counts["accepted"]++
	case res.OK:
		counts["accepted after a mutation"]++
	default:
		counts[fmt.Sprintf("rejected after mutation %d", kind)]++
	}
	return l, bf
}

// The validator agrees with the brute-force enumeration of the semantics
// on small logs, both ways: on logs of concurrent programs, their
// prefixes, and logs made impossible (or not) by a mutation. An
// undecided answer is allowed (never needed with full renderings, see
// the count).
func TestRelaxedValidatorAgreesWithBruteForce(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(rt *rapid.T) {
		sys, rng, orig := drawConcurrentLog(rt, 4, 20, 5)
		lines := strings.SplitAfter(orig, "\n")
		cut := rapid.IntRange(1, len(lines)).Draw(rt, "cut")
		for kind := -1; kind < 4; kind++ {
			text := orig
			if kind >= 0 {
				if text = mutate(orig, kind, rng); text == "" {
					continue
				}
			} else {
				text = strings.Join(lines[:cut], "")
			}
			compareWithBruteForce(rt, sys, text, kind, counts, bruteForce)
		}
	})
	t.Logf("%v", counts)
	for k := range 4 {
		if counts[fmt.Sprintf("rejected after mutation %d", k)] == 0 {
			t.Errorf("no log made impossible by mutation %d: the property does not test rejection", k)
		}
	}
	if counts["accepted"] == 0 {
		t.Error("no log accepted")
	}
}

// The optional field cause: logs of concurrent programs that name each
// effect's trigger validate; an effect that names another trigger of its
// process (one whose step does not send that message) is rejected there.
func TestCauseNamesTheStep(t *testing.T) {
	wrong := 0
	for seed := range uint64(30) {
		algo := relaxedAlgos[seed%3]
		sys := buildSys(t, algo, 3, 2)
		text := string(concurrentLogCause(t, algo, 3, 2, 50, rand.New(rand.NewPCG(seed, 11)), true, true))
		if !strings.Contains(text, `"cause":`) {
			t.Fatal("no cause written")
		}
		l, res := validateText(t, sys, text, eventlog.Options{})
		if !res.OK {
			t.Fatalf("%s seed %d: %v: %s", algo, seed, res.Failed, res.Reason)
		}
		// name the process's first trigger as the cause of a send of
		// a later step
		for k := range l.Events {
			e := &l.Events[k]
			if e.Kind != eventlog.KindSend || e.Cause <= 1 {
				continue
			}
			first := 0
			for _, x := range l.Events {
				if x.P == e.P && x.IsTrigger() {
					first = x.Seq
					break
				}
			}
			if first == e.Cause {
				continue
			}
			e.Cause = first
			var buf bytes.Buffer
			if err := eventlog.Write(&buf, l.Header, l.Events); err != nil {
				t.Fatal(err)
			}
			_, res := validateText(t, sys, buf.String(), eventlog.Options{})
			if res.OK || res.Undecided || res.Failed == nil || res.Failed.Line != e.Line || !strings.Contains(res.Reason, fmt.Sprintf("cause %d", first)) {
				t.Fatalf("%s seed %d: a wrong cause at line %d: ok=%v at %v: %s", algo, seed, e.Line, res.OK, res.Failed, res.Reason)
			}
			wrong++
			break
		}
	}
	if wrong == 0 {
		t.Fatal("no wrong cause tried")
	}
}

// Messages logged with their kind only ({"kind":"REQ"}) match several
// messages a process's steps owe; the check then picks one and remembers
// the guess. A log of a behaviour is never called a violation: it is ok,
// or undecided when a guess led nowhere.
func TestGuessesNeverGiveViolations(t *testing.T) {
	counts := map[string]int{}
	for seed := range uint64(60) {
		algo := relaxedAlgos[seed%3]
		sys := buildSys(t, algo, 3, 3)
		text := string(concurrentLog(t, algo, 3, 3, 80, rand.New(rand.NewPCG(seed, 13)), true))
		l, err := eventlog.Read(strings.NewReader(text), "g.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		for k := range l.Events {
			if e := &l.Events[k]; e.Msg != "" {
				kind, _, _ := strings.Cut(e.Msg, "(")
				e.Msg = `{"kind":"` + kind + `"}`
			}
		}
		var buf bytes.Buffer
		if err := eventlog.Write(&buf, l.Header, l.Events); err != nil {
			t.Fatal(err)
		}
		_, res := validateText(t, sys, buf.String(), eventlog.Options{})
		switch {
		case res.OK:
			counts["ok"]++
		case res.Undecided:
			counts["undecided"]++
			if !strings.Contains(res.Reason, "another grouping might explain the log") && !strings.Contains(res.Reason, "alternatives") {
				t.Fatalf("%s seed %d: undecided: %s", algo, seed, res.Reason)
			}
		default:
			t.Fatalf("%s seed %d: a behaviour's log with kinds only is a violation at %v: %s", algo, seed, res.Failed, res.Reason)
		}
	}
	t.Logf("%v", counts)
}
