package protocol_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// afterWorker is the capability explore's breadth-first search uses
// (protocol's commute.go).
type afterWorker interface {
	model.Worker
	SuccessorsAfter(state []byte, via uint64, yield func(*model.Transition, []byte) bool)
	StepTag() uint64
	CommutingSteps() bool
}

// afterStep is one transition a worker yielded, copied.
type afterStep struct {
	t       model.Transition
	next    string
	skipped bool   // yielded with a nil successor
	tag     uint64 // StepTag while it was yielded
}

func afterSteps(w afterWorker, state string, via uint64, plain bool) []afterStep {
	var out []afterStep
	yield := func(t *model.Transition, next []byte) bool {
		c := *t
		c.Msg = bytes.Clone(t.Msg)
		st := afterStep{t: c, next: string(next), skipped: next == nil}
		if !plain && next != nil {
			st.tag = w.StepTag()
		}
		out = append(out, st)
		return true
	}
	if plain {
		w.Successors([]byte(state), yield)
	} else {
		w.SuccessorsAfter([]byte(state), via, yield)
	}
	return out
}

// sameStep reports whether two transitions are the same step of their
// process: the same kind and message, and for a local step the same
// argument (a Deliver's argument indexes the network).
func sameStep(a, b *model.Transition) bool {
	if a.Kind != b.Kind || a.Proc != b.Proc || !bytes.Equal(a.Msg, b.Msg) {
		return false
	}
	return a.Kind == model.Deliver || a.Kind == model.Lose || a.Arg == b.Arg
}

// checkCommute explores sys breadth first (up to max states) and checks,
// for every transition a from every state p to s = p·a, the claim
// SuccessorsAfter makes with a's tag: it yields the transitions of
// Successors(s) in the same order, and each it leaves unstepped is a step
// b that p yields before a, after which a is enabled and leads to s·b.
// It also checks that it leaves unstepped every transition the tag can
// tell is such a step (see skipExpected), Delivers to a's process among
// them only if sameProc. It returns the transitions checked and those left
// unstepped.
func checkCommute(t *testing.T, name string, sys model.System, max int, sameProc bool) (edges, skipped int) {
	t.Helper()
	w, ok := sys.NewWorker().(afterWorker)
	if !ok || !w.CommutingSteps() {
		return 0, 0
	}
	n := sys.Info().Processes
	var queue []string
	seen := map[string]bool{}
	w.Initial(func(s []byte) bool {
		if !seen[string(s)] {
			seen[string(s)] = true
			queue = append(queue, string(s))
		}
		return true
	})
	for qi := 0; qi < len(queue); qi++ {
		p := queue[qi]
		ps := afterSteps(w, p, 0, false)
		then := map[int][]afterStep{} // the transitions of p·b, by b's index in ps
		for ia, a := range ps {
			if a.skipped {
				t.Fatalf("%s: SuccessorsAfter with tag 0 left %v unstepped", name, a.t)
			}
			s := a.next
			if !seen[s] && len(seen) < max {
				seen[s] = true
				queue = append(queue, s)
			}
			plain := afterSteps(w, s, 0, true)
			after := afterSteps(w, s, a.tag, false)
			if len(plain) != len(after) {
				t.Fatalf("%s: after %v: SuccessorsAfter yields %d transitions, Successors %d", name, a.t, len(after), len(plain))
			}
			for ib := range after {
				b, want := &after[ib], &plain[ib]
				edges++
				if b.t.Kind != want.t.Kind || b.t.Proc != want.t.Proc || b.t.Arg != want.t.Arg || !bytes.Equal(b.t.Msg, want.t.Msg) {
					t.Fatalf("%s: after %v: transition %d is %v, Successors yields %v", name, a.t, ib, b.t, want.t)
				}
				// commutes: b is a Deliver to a's process whose message
				// p has below a's, and delivering it leads to the same
				// state before and after a, with the same flags.
				commutes := func() bool {
					if !sameProc {
						return false
					}
					jb := -1
					for j := range ia {
						if sameStep(&ps[j].t, &b.t) {
							jb = j
						}
					}
					if jb < 0 || b.t.Kind != model.Deliver || a.t.Kind != model.Deliver || ps[jb].t.Flags != want.t.Flags {
						return false
					}
					if then[jb] == nil {
						then[jb] = afterSteps(w, ps[jb].next, 0, true)
					}
					for _, c := range then[jb] {
						if sameStep(&c.t, &a.t) && c.next == want.next {
							return true
						}
					}
					return false
				}
				if exp := skipExpected(p, s, n, &a.t, &b.t, ps[:ia], commutes); exp != b.skipped {
					t.Fatalf("%s: after %v: %v left unstepped: %v, expected %v", name, a.t, b.t, b.skipped, exp)
				}
				if !b.skipped {
					if b.next != want.next {
						t.Fatalf("%s: after %v: transition %v leads elsewhere than in Successors", name, a.t, b.t)
					}
					continue
				}
				skipped++
				// b must be a step p yields before a ...
				jb := -1
				for j := range ia {
					if sameStep(&ps[j].t, &b.t) {
						jb = j
						break
					}
				}
				if jb < 0 {
					t.Fatalf("%s: after %v (transition %d of its state), %v is left unstepped but is not an earlier transition there", name, a.t, ia, b.t)
				}
				// ... with the flags it has here ...
				if ps[jb].t.Flags != want.t.Flags {
					t.Fatalf("%s: after %v, %v is left unstepped but has flags %v here and %v before", name, a.t, b.t, want.t.Flags, ps[jb].t.Flags)
				}
				// ... after which a is enabled and leads to s·b.
				if then[jb] == nil {
					then[jb] = afterSteps(w, ps[jb].next, 0, true)
				}
				found := false
				for _, c := range then[jb] {
					if sameStep(&c.t, &a.t) {
						found = true
						if c.next != want.next {
							t.Fatalf("%s: %v then %v and %v then %v lead to different states", name, a.t, b.t, b.t, a.t)
						}
					}
				}
				if !found {
					t.Fatalf("%s: %v is not enabled after %v", name, a.t, b.t)
				}
			}
		}
	}
	return edges, skipped
}

// skipExpected reports whether SuccessorsAfter(s, tag of a) should leave
// transition b of s = p·a unstepped: b is a step that p yields before a
// (before holds the transitions p yields before a), neither is a Lose,
// b does not deliver a message of which a sent copies (one a may have
// enabled), and b is a step of another process, or a Deliver to a's
// process (a a Deliver too) at a place below protocol.TagCommuteBits in
// s, that commutes with a (commutes). A tag records the messages a sent
// by their place in s's network one by one up to protocol.TagSentBits,
// and beyond that only whether a sent any: a Deliver to another process
// from there on is not left unstepped if a sent a message placed there.
func skipExpected(p, s string, n int, a, b *model.Transition, before []afterStep, commutes func() bool) bool {
	if a.Kind == model.Lose || b.Kind == model.Lose {
		return false
	}
	earlier := false
	for k := range before {
		if sameStep(&before[k].t, b) {
			earlier = true
		}
	}
	if a.Proc == b.Proc && (b.Kind != model.Deliver || b.Arg >= protocol.TagCommuteBits) {
		return false
	}
	if !earlier || b.Kind != model.Deliver {
		return earlier
	}
	pm, pc := protocol.NetworkCounts([]byte(p), n)
	sm, sc := protocol.NetworkCounts([]byte(s), n)
	count := func(msgs []string, counts []int, m string) int {
		for k := range msgs {
			if msgs[k] == m {
				return counts[k]
			}
		}
		return 0
	}
	// sent: a sent copies of message k of s (a Deliver took one copy of
	// its own message)
	sent := func(k int) bool {
		was := count(pm, pc, sm[k])
		if a.Kind == model.Deliver && sm[k] == string(a.Msg) {
			was--
		}
		return sc[k] > was
	}
	if sent(b.Arg) {
		return false
	}
	if a.Proc == b.Proc {
		return commutes()
	}
	if b.Arg >= protocol.TagSentBits {
		for k := protocol.TagSentBits; k < len(sm); k++ {
			if sent(k) {
				return false
			}
		}
	}
	return true
}

// TestSkippedStepsCommute checks checkCommute's claim on every variant of
// every registered algorithm whose steps commute, at its default
// parameters (and with a fault budget where the algorithm has one), over
// the first states of its graph.
func TestSkippedStepsCommute(t *testing.T) {
	checked := 0
	for _, a := range algorithms.All() {
		for _, v := range a.Variants {
			params := defaultsWithFaults(a)
			sys, _, err := a.Build(v.Name, params)
			if err != nil {
				t.Fatalf("%s %v: %v", v.Name, params, err)
			}
			edges, skipped := checkCommute(t, v.Name, sys, 400, true)
			if edges > 0 {
				checked++
				if skipped == 0 {
					t.Errorf("%s: no transition of %d left unstepped", v.Name, edges)
				}
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d variants have commuting steps", checked)
	}
}

// TestSkippedStepsCommuteInLargeNetworks checks the claim on a protocol
// whose states hold dozens of distinct messages in transit, beyond the
// positions a tag records one by one (protocol.TagSentBits): notes
// numbered 0 to k-1 from P0 and from P2 to each other process are in
// transit at the start, and a process that gets a note numbered below 2
// before it requests answers with a note to the sender (numbered k and
// up), which sorts after the 2k notes of P0 (32 of them). Two notes to one
// process commute (the count of notes it got goes up by two either way)
// unless one is its first: that Deliver has a flag of its own.
func TestSkippedStepsCommuteInLargeNetworks(t *testing.T) {
	const k = 16
	type proc struct{ Got int }
	type msg struct{ From, To, Seq int }
	var initial []msg
	for _, from := range []int{0, 2} {
		for to := range 3 {
			if to != from {
				for s := range k {
					initial = append(initial, msg{From: from, To: to, Seq: s})
				}
			}
		}
	}
	p := &protocol.Protocol[proc, msg]{
		Name:  "notes",
		N:     3,
		R:     1,
		Init:  func(int) proc { return proc{} },
		Hooks: protocol.Hooks[proc, msg]{InitialMessages: func() []msg { return initial }},
		Codec: protocol.Codec[proc, msg]{
			EncodeProc: func(e *model.Encoder, q *proc) { e.Int(q.Got) },
			DecodeProc: func(d *model.Decoder, q *proc) { q.Got = d.Int() },
			EncodeMsg:  func(e *model.Encoder, m *msg) { e.Int(m.From); e.Int(m.To); e.Int(m.Seq) },
			DecodeMsg:  func(d *model.Decoder, m *msg) { m.From, m.To, m.Seq = d.Int(), d.Int(), d.Int() },
			To:         func(m *msg) int { return m.To },
		},
		Format: protocol.Format[proc, msg]{
			FormatMsg: func(m *msg) string { return fmt.Sprintf("NOTE(%d->%d #%d)", m.From, m.To, m.Seq) },
		},
		OnRequest: func(c *protocol.Ctx[proc, msg], _ int) { c.Enter() },
		OnExit:    func(*protocol.Ctx[proc, msg]) {},
		OnDeliver: func(c *protocol.Ctx[proc, msg], m *msg) {
			if c.Self.Got == 0 {
				c.AddFlags(model.FlagsUser) // a first note's Deliver differs from a later one's
			}
			c.Self.Got++
			if c.Phase() == model.Idle && m.Seq < 2 {
				c.Send(msg{From: c.ID, To: m.From, Seq: k + m.Seq})
			}
		},
	}
	edges, skipped := checkCommute(t, "notes", p.System(), 40, true)
	if edges == 0 || skipped == 0 {
		t.Fatalf("%d transitions checked, %d left unstepped", edges, skipped)
	}
}

// TestSkippedStepsCommuteWithLocalGuard checks the claim on the repaired
// torus with a Guard that lets only some processes request
// (Protocol.GuardLocal): steps of different processes are left unstepped
// as without a Guard, Delivers to one process never (one may be allowed
// before the other's step and not after it).
func TestSkippedStepsCommuteWithLocalGuard(t *testing.T) {
	a, v, err := algorithms.Lookup("torus")
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.Build(v.Name, map[string]int{"n": 4, "r": 2, "requesters": 5})
	if err != nil {
		t.Fatal(err)
	}
	edges, skipped := checkCommute(t, "torus requesters=5", sys, 2000, false)
	if edges == 0 || skipped == 0 {
		t.Fatalf("%d transitions checked, %d left unstepped", edges, skipped)
	}
}
