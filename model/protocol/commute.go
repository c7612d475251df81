package protocol

import (
	"math/bits"

	"github.com/tokenmc/tokenmc/model"
)

// Steps of different processes commute. In the protocol layer a step of
// process i reads and writes only i's own segment (phase, requests made,
// group, local state), removes one copy of the message it is delivered
// (addressed to i) and adds the messages it sends to the multiset in
// transit. So if steps a (of i) and b (of j != i), neither a Lose, are
// both enabled in a state p, each stays enabled after the other, and
// p·a·b = p·b·a: the same state, whichever order. This holds only
// without the whole-state hooks (Guard may read anything, Normalize may
// rewrite anything), without a channel capacity (a's sends may disable
// b) and for deterministic handlers; such protocols do not offer
// SuccessorsAfter (see CommutingSteps).
//
// A breadth-first search that reached a state s = p·a (by its first
// candidate, the step a from p) need not step a transition b of s that p
// yields before a if p·b·a, the same state as s·b, is the successor of
// p·b, which comes earlier in the search's candidate order (see explore).
// That holds for every step b of another process, and for a Deliver b to
// the same process i as a Deliver a when the two messages' handlers
// commute on i's local state in p: in either order they leave i in the
// same phase, requests made, group and local state, send the same
// messages (as a multiset), and b's flags are the same after a as before
// it (so a transition property that reads the step sees the same b). The
// memos keep that verdict per local state and pair of messages (see
// semcommute.go). The tag of a step records what its successor's
// SuccessorsAfter needs to tell those transitions apart without p at
// hand:
//
//	bits 0-1   class: 0 none (nothing is skipped), 1 a local step
//	           (Request, Exit, Timer), 2 a Deliver
//	bits 2-11  the acting process i (a process past 1023: class 0)
//	bits 12-19 for a Deliver: how many distinct messages of s encode
//	           below the one delivered (Successors yields Delivers in
//	           that order; more than 255: class 0)
//	bits 20-41 for a Deliver: bit k (k < 21) set if the step's sends
//	           added copies of message k of s, one of those below the
//	           one delivered; bit 21 for any such k >= 21
//	bits 42-63 for a Deliver: bit k (k < 22) set if message k of s, below
//	           the one delivered, is addressed to i, was in transit in p
//	           and its Deliver commutes with the step in p
//
// Successors yields the local steps of the processes in increasing order,
// then the Delivers in the order of the network, then the Loses. So b
// (of j != i) comes before a in p if b is local and a a Deliver, if both
// are local and j < i, or if both are Delivers and b's message encodes
// below a's. A Deliver of s whose message a's sends added copies of may
// not have been enabled in p: it is not skipped.
const (
	tagNone    = 0
	tagLocal   = 1
	tagDeliver = 2

	tagProcShift    = 2
	tagPosShift     = 12
	tagSentShift    = 20
	tagCommuteShift = 42
	tagProcMax      = 1<<10 - 1
	tagPosMax       = 1<<8 - 1
	tagSentBits     = 21 // positions with a bit of their own; the next bit is "any later"
	tagCommuteBits  = 22
)

// viaTag is a decoded step tag.
type viaTag struct {
	class, proc, pos int
	sent, commute    uint64
}

// decode sets v to the step of tag, field by field (see setTransition).
func (v *viaTag) decode(tag uint64) {
	v.class = int(tag & 3)
	v.proc = int(tag >> tagProcShift & tagProcMax)
	v.pos = int(tag >> tagPosShift & tagPosMax)
	v.sent = tag >> tagSentShift & (1<<(tagSentBits+1) - 1)
	v.commute = tag >> tagCommuteShift
}

// skipsLocal reports whether a local step of process j is redundant after
// the step v.
func (v *viaTag) skipsLocal(j int) bool {
	switch v.class {
	case tagLocal:
		return j < v.proc
	case tagDeliver:
		return j != v.proc
	}
	return false
}

// skipsDeliver reports whether the Deliver of message k of the state, to
// process to, is redundant after the step v.
func (v *viaTag) skipsDeliver(to, k int) bool {
	if v.class != tagDeliver || k >= v.pos {
		return false
	}
	if to == v.proc {
		return k < tagCommuteBits && v.commute>>k&1 != 0
	}
	return v.sent>>min(k, tagSentBits)&1 == 0
}

// CommutingSteps reports whether the protocol's steps of different
// processes commute as the tags assume (explore's optional capability).
// With a Guard that reads only the acting process (Protocol.GuardLocal),
// a step b of another process is allowed after a exactly when it is
// allowed before it, and a after b: the argument holds for the steps of
// different processes, not for the Delivers to one process (stepTag).
func (w *protocolWorker[P, M]) CommutingSteps() bool {
	p := w.p
	return (p.Guard == nil || p.GuardLocal) && p.Normalize == nil && p.Capacity == 0 && !p.Nondeterministic
}

// SuccessorsAfter is Successors of a state that a search reached by the
// step whose StepTag was via (0: unknown). It yields the same transitions
// in the same order; those that the step via shows to lead where an
// earlier step of the search leads (see the top of this file) are yielded
// without being stepped, with a nil successor and no Flags. It is
// explore's optional worker capability for breadth-first search.
func (w *protocolWorker[P, M]) SuccessorsAfter(state []byte, via uint64, yield func(*model.Transition, []byte) bool) {
	w.tagging, w.tag = w.CommutingSteps(), tagNone
	if !w.tagging {
		via = 0 // decodes as the zero viaTag: nothing known
	}
	w.via.decode(via)
	w.successors(state, yield)
}

// StepTag returns, while SuccessorsAfter's yield runs for a stepped
// transition, the tag of that step (0 when nothing may be skipped after
// it).
func (w *protocolWorker[P, M]) StepTag() uint64 { return w.tag }

// stepLocal steps a local action t (Request, Exit, Timer), or yields it
// unstepped if the step that reached the state makes it redundant.
func (w *protocolWorker[P, M]) stepLocal(t *model.Transition, yield func(*model.Transition, []byte) bool) bool {
	if w.via.skipsLocal(t.Proc) {
		return yield(t, nil)
	}
	return w.step(t, yield)
}

// stepTag is the tag of step t, just written by stepOnce (the network by
// writeNetwork, with removed the index of the message delivered). It may
// run handlers (semcommute.go): the step's successor is written by then.
func (w *protocolWorker[P, M]) stepTag(t *model.Transition, removed int) uint64 {
	if t.Proc > tagProcMax {
		return tagNone
	}
	proc := uint64(t.Proc) << tagProcShift
	switch t.Kind {
	case model.Request, model.Exit, model.Timer:
		return tagLocal | proc
	case model.Deliver:
	default:
		return tagNone
	}
	// Only the messages below the delivered one matter: a Deliver of any
	// other is never left unstepped (nor one of the delivered message,
	// whose bit a copy sent back sets). w.plan is in the network's order,
	// and a new message placed before message at of the parsed state has
	// at messages of it and the new ones placed so far before it in s.
	pos := removed // messages of s that encode below the delivered one
	var sent uint64
	for _, pl := range w.plan {
		if pl.at > removed {
			break
		}
		sent |= 1 << min(pl.at+pos-removed, tagSentBits)
		if !pl.equal {
			pos++
		}
	}
	if pos > tagPosMax {
		return tagNone
	}
	tag := tagDeliver | proc | uint64(pos)<<tagPosShift | sent<<tagSentShift
	// The messages to the same process below the delivered one whose
	// Delivers commute with it; k is a message of p, at k plus the new
	// messages placed before it in s.
	same := w.below[t.Proc]
	if same == 0 || w.p.Guard != nil {
		// With a (local) Guard, a Deliver to i may be allowed in p and
		// not after a, or the other way round: only steps of other
		// processes, which a leaves as they were, are left unstepped.
		return tag
	}
	var commute uint64
	for ; same != 0; same &= same - 1 {
		k := bits.TrailingZeros64(same)
		at, touched := k, false
		for _, pl := range w.plan {
			if pl.at > k {
				break
			}
			if pl.at == k && pl.equal {
				touched = true // a's sends added copies of it
			}
			if !pl.equal {
				at++
			}
		}
		if at >= tagCommuteBits {
			break
		}
		if !touched && w.deliversCommute(t.Proc, k, removed) {
			commute |= 1 << at
		}
	}
	return tag | commute<<tagCommuteShift
}
