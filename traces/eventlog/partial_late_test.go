package eventlog_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
	"github.com/tokenmc/tokenmc/traces/eventlog"
	"pgregory.net/rapid"
)

// Tests of counted partial logs whose steps' effects are logged after
// later triggers of their process (docs/eventlog.md, "Partial logs").

// csOnlyVC projects a full log's text on its requests, enters and exits,
// keeping seq and vc (seq_counts_all).
func csOnlyVC(tb tb, text string) []byte {
	l, err := eventlog.Read(strings.NewReader(text), "full")
	if err != nil {
		tb.Fatal(err)
	}
	h := l.Header
	h.Observed = &eventlog.Observed{Kinds: []string{eventlog.KindRequest, eventlog.KindEnter, eventlog.KindExit}, SeqCountsAll: true}
	var evs []eventlog.Event
	for _, e := range l.Events {
		switch e.Kind {
		case eventlog.KindRequest, eventlog.KindEnter, eventlog.KindExit:
			evs = append(evs, e)
		}
	}
	var buf bytes.Buffer
	if err := eventlog.Write(&buf, h, evs); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// stripVC leaves out a log's vector timestamps.
func stripVC(text string) string {
	return regexp.MustCompile(`,"vc":\[[0-9,]*\]`).ReplaceAllString(text, "")
}

// bruteForceCounted decides by enumeration whether a behaviour of sys
// explains a counted CS-only log (vector timestamps given) under the
// semantics of docs/eventlog.md, written down here directly, with every
// event of every process placed at an explicit position: a model step
// logs its trigger at its process's next position; each of its sends and
// its enter is logged later, at a position of its own, in any order with
// the process's other events; an enter before the process's next exit.
// The events at the positions the log records are the log's (same kind,
// at the seq it gives), the others are of kinds the log leaves out; an
// event is logged only when every process q has logged vc[q] events; a
// process logs nothing at a position no recorded event counts (its own
// seq, another's vc). The log is a prefix: effects may stay unlogged.
func bruteForceCounted(tb tb, sys model.System, l *eventlog.Log) bool {
	lw := sys.(protosys.LocalSystem).NewLocalWorker()
	n := l.N()
	per := l.Per()
	limit := make([]int, n)
	for _, e := range l.Events {
		for q, v := range e.VC {
			limit[q] = max(limit[q], v)
		}
	}
	type node struct {
		locals []protosys.LocalState
		net    [][]byte
		cnt    []int // events logged per process
		cut    []int // recorded events explained per process
		sends  []int // sends owed per process
		enter  []int // enter owed per process: -1 none, else its group
	}
	key := func(nd *node) string {
		net := make([]string, len(nd.net))
		for k, m := range nd.net {
			net[k] = string(m)
		}
		sort.Strings(net)
		return fmt.Sprint(string(lw.Assemble(nd.locals, nil, 0)), net, nd.cnt, nd.cut, nd.sends, nd.enter)
	}
	// at returns p's recorded event at position pos (nil: none), and
	// whether it is the next one to explain.
	at := func(nd *node, p, pos int) *eventlog.Event {
		if nd.cut[p] < len(per[p]) && per[p][nd.cut[p]].Seq == pos {
			return per[p][nd.cut[p]]
		}
		return nil
	}
	ready := func(nd *node, e *eventlog.Event) bool {
		for q := range n {
			if q != e.P && nd.cnt[q] < e.VC[q] {
				return false
			}
		}
		return true
	}
	copyNode := func(nd *node) *node {
		return &node{locals: append([]protosys.LocalState(nil), nd.locals...), net: nd.net,
			cnt: append([]int(nil), nd.cnt...), cut: append([]int(nil), nd.cut...),
			sends: append([]int(nil), nd.sends...), enter: append([]int(nil), nd.enter...)}
	}
	failed := map[string]bool{}
	var dfs func(nd *node) bool
	dfs = func(nd *node) bool {
		done := true
		for p := range n {
			done = done && nd.cut[p] == len(per[p])
		}
		if done {
			return true
		}
		k := key(nd)
		if failed[k] {
			return false
		}
		for p := range n {
			pos := nd.cnt[p] + 1
			if pos > limit[p] {
				continue
			}
			rec := at(nd, p, pos)
			if rec != nil && !ready(nd, rec) {
				continue
			}
			if rec == nil && nd.cut[p] < len(per[p]) && per[p][nd.cut[p]].Seq < pos {
				continue
			}
			// log an owed send (a kind the log leaves out)
			if rec == nil && nd.sends[p] > 0 {
				c := copyNode(nd)
				c.cnt[p]++
				c.sends[p]--
				if dfs(c) {
					return true
				}
			}
			// log the owed enter
			if rec != nil && rec.Kind == eventlog.KindEnter && nd.enter[p] >= 0 && (sys.Info().Groups <= 1 || rec.Group == nd.enter[p]) {
				c := copyNode(nd)
				c.cnt[p]++
				c.cut[p]++
				c.enter[p] = -1
				if dfs(c) {
					return true
				}
			}
			// take a step, its trigger logged at pos
			var evs []protosys.LocalEvent
			switch nd.locals[p].Phase {
			case model.Idle:
				for g := range max(sys.Info().Groups, 1) {
					evs = append(evs, protosys.LocalEvent{Kind: model.Request, Arg: g})
				}
			case model.InCS:
				if nd.enter[p] < 0 {
					evs = append(evs, protosys.LocalEvent{Kind: model.Exit})
				}
			}
			for i, m := range nd.net {
				if lw.To(m) == p {
					evs = append(evs, protosys.LocalEvent{Kind: model.Deliver, Msg: m, Arg: i})
				}
			}
			for _, ev := range evs {
				switch ev.Kind {
				case model.Request:
					if rec == nil || rec.Kind != eventlog.KindRequest || rec.Group != ev.Arg {
						continue
					}
				case model.Exit:
					if rec == nil || rec.Kind != eventlog.KindExit {
						continue
					}
				default:
					if rec != nil {
						continue
					}
				}
				alts, err := lw.Alternatives(p, nd.locals[p], ev)
				if err != nil {
					continue
				}
				for ch := range alts {
					ev.Choice = ch
					res, err := lw.Step(p, nd.locals[p], ev)
					if err != nil {
						continue
					}
					c := copyNode(nd)
					c.locals[p] = res.Next
					var net [][]byte
					for i, m := range nd.net {
						if ev.Kind != model.Deliver || i != ev.Arg {
							net = append(net, m)
						}
					}
					c.net = append(net, res.Sent...)
					c.cnt[p]++
					if rec != nil {
						c.cut[p]++
					}
					c.sends[p] += len(res.Sent)
					if res.Entered {
						c.enter[p] = res.Next.Group
					}
					if dfs(c) {
						return true
					}
				}
			}
		}
		failed[k] = true
		return false
	}
	root := &node{locals: make([]protosys.LocalState, n), net: lw.InitialMessages(),
		cnt: make([]int, n), cut: make([]int, n), sends: make([]int, n), enter: make([]int, n)}
	for p := range n {
		root.locals[p] = lw.InitialLocal(p)
		root.enter[p] = -1
	}
	return dfs(root)
}

// mutateCounted changes one thing in a counted log's text: an event's seq
// moved by one (kind 0), an event dropped (1), an event said to depend
// on one more event of another process (2), two adjacent events of a
// process swapped (3). It returns "" when the log offers no place for it.
func mutateCounted(text string, kind int, rng *rand.Rand) string {
	l, err := eventlog.Read(strings.NewReader(text), "m")
	if err != nil || len(l.Events) < 2 {
		return ""
	}
	evs := append([]eventlog.Event(nil), l.Events...)
	for k := range evs {
		evs[k].VC = append([]int(nil), evs[k].VC...)
	}
	k := rng.IntN(len(evs))
	e := &evs[k]
	switch kind {
	case 0:
		d := 1
		if rng.IntN(2) == 0 && e.Seq > 1 {
			d = -1
		}
		e.Seq += d
		e.VC[e.P] = e.Seq
	case 1:
		evs = append(evs[:k], evs[k+1:]...)
	case 2:
		q := rng.IntN(l.N())
		if q == e.P {
			return ""
		}
		e.VC[q]++
	case 3:
		j := -1
		for i := k + 1; i < len(evs); i++ {
			if evs[i].P == e.P {
				j = i
				break
			}
		}
		if j < 0 {
			return ""
		}
		evs[k].Kind, evs[j].Kind = evs[j].Kind, evs[k].Kind
	}
	var buf bytes.Buffer
	if err := eventlog.Write(&buf, l.Header, evs); err != nil {
		return ""
	}
	return buf.String()
}

// The validator agrees with the brute-force enumeration on CS-only
// counted logs of concurrent programs (effects logged late), their
// prefixes and mutations, both ways; with Options.Atomic it accepts only
// what the enumeration accepts, and rejects some of the programs' logs.
func TestCountedLateEffectsAgreeWithBruteForce(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(rt *rapid.T) {
		sys, rng, full := drawConcurrentLog(rt, 6, 30, 11)
		orig := string(csOnlyVC(rt, full))
		lines := strings.SplitAfter(strings.TrimSuffix(orig, "\n"), "\n")
		cut := rapid.IntRange(1, len(lines)).Draw(rt, "cut")
		for kind := -2; kind < 4; kind++ {
			text := orig
			switch {
			case kind == -1:
				text = strings.Join(lines[:cut], "")
			case kind >= 0:
				if text = mutateCounted(orig, kind, rng); text == "" {
					continue
				}
			}
			l, bf := compareWithBruteForce(rt, sys, text, kind, counts, bruteForceCounted)
			if l == nil {
				continue
			}
			if kind < 0 && !bf {
				rt.Fatalf("a concurrent program's CS-only log is not explained by the enumeration:\n%s", text)
			}
			if kind < 0 {
				// without its vector timestamps (ordered by t_ns) too
				_, res := validateText(rt, sys, stripVC(text), eventlog.Options{})
				if !res.OK && !res.Undecided {
					rt.Fatalf("without vc, rejected at %v: %s\n%s", res.Failed, res.Reason, stripVC(text))
				}
				if _, at := validateText(rt, sys, stripVC(text), eventlog.Options{Atomic: true}); !at.OK && !at.Undecided && res.OK {
					counts["without vc: atomic rejects, late accepts"]++
				}
			}
			at := eventlog.Validate(sys, l, eventlog.Options{Atomic: true})
			switch {
			case at.OK && !bf:
				rt.Fatalf("Atomic accepts a log the enumeration rejects:\n%s", text)
			case !at.OK && !at.Undecided && bf:
				counts["atomic rejects, late accepts"]++
			}
		}
	})
	t.Logf("%v", counts)
	for _, k := range []string{"accepted", "accepted after a mutation", "atomic rejects, late accepts", "without vc: atomic rejects, late accepts"} {
		if counts[k] == 0 {
			t.Errorf("no case %q: the property does not test it", k)
		}
	}
	for k := range 4 {
		if counts[fmt.Sprintf("rejected after mutation %d", k)] == 0 {
			t.Errorf("no log made impossible by mutation %d: the property does not test rejection", k)
		}
	}
}

// The CS-only log of a correct Suzuki-Kasami program (examples/concurrent
// /sklock) in which P0's receiver thread logs the token's send to P1
// (seq 6, unrecorded) after P0's requester logged its next request
// (seq 5): the send belongs to the step that received P1's REQUEST
// (seq 4). Only a check that lets effects be logged after later
// triggers explains it; Atomic rejects it at that request.
func TestCountedLogWithLateEffect(t *testing.T) {
	sys := buildSys(t, "suzuki-kasami", 3, 8)
	data, err := os.ReadFile("testdata/sklock-cs-late-effects.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	l, err := eventlog.Read(bytes.NewReader(data), "sklock-cs-late-effects.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	res := eventlog.Validate(sys, l, eventlog.Options{Witness: true})
	if !res.OK || res.Events != len(l.Events) {
		t.Fatalf("rejected: %v: %s", res.Failed, res.Reason)
	}
	checkWitness(t, sys, l, res.Path)
	at := eventlog.Validate(sys, l, eventlog.Options{Atomic: true})
	if at.OK || at.Undecided || at.Failed == nil || at.Failed.Line != 7 {
		t.Fatalf("Atomic: ok=%v undecided=%v failed=%v (want a violation at line 7, P0's request at seq 5): %s", at.OK, at.Undecided, at.Failed, at.Reason)
	}
	// P1's enter moved before P0's exit (its vc no longer counts P0's
	// exit, its time is before it): the stays overlap, no behaviour of
	// the model explains that.
	old := `{"p":1,"seq":7,"kind":"enter","vc":[7,7,3],"lamport":9,"t_ns":1184127}`
	text := strings.Replace(string(data), old, `{"p":1,"seq":7,"kind":"enter","vc":[2,7,3],"lamport":9,"t_ns":525000}`, 1)
	if text == string(data) {
		t.Fatal("the edit did not apply")
	}
	l2, err := eventlog.Read(strings.NewReader(text), "edited.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if r := eventlog.Validate(sys, l2, eventlog.Options{}); r.OK || r.Undecided {
		t.Fatalf("P1 enters while P0 is in its CS, and the log is not rejected: ok=%v undecided=%v", r.OK, r.Undecided)
	}
}
