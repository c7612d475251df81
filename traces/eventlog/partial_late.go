package eventlog

import (
	"encoding/binary"

	"github.com/tokenmc/tokenmc/model"
)

// The search of a counted partial log whose steps may be logged late
// (docs/eventlog.md, "Partial logs"): a step's trigger is logged when the
// step happens, its effects later, interleaved with events of the
// process's later steps. A recorded event at seq s says that exactly s-1
// events of its process were logged before it. The search does not fix
// where each unrecorded event is logged; per process it keeps how many
// events are logged (lo) and which events of the steps taken are not
// logged yet: unrecorded triggers (in order, each with its unobserved
// effects), unobserved effects whose trigger is logged, an unobserved
// enter, and the observed effects the log must still show. At a recorded
// event the gap before it is filled with s-1-lo of those events, triggers
// first: a trigger logged earlier only lowers what later gaps must hold,
// and leaves as many events to log, so that choice loses nothing.

// rproc is one process's logging state in the late-effects search.
type rproc struct {
	lo    int32   // events of the process logged so far
	free  int32   // unobserved effects not logged whose trigger is logged (no enter)
	enter int32   // an unobserved enter not logged: -1 none, 0 its trigger is logged, i > 0 the i-th floating trigger's
	trig  []int32 // floating triggers (unrecorded, not logged) in order: each one's unobserved effects (no enter)
	owed  []owed  // observed effects the log must still show
}

// owed is an observed effect not yet logged; at: 0 its trigger is
// logged, i > 0 the i-th floating trigger's.
type owed struct {
	o  obsEvent
	at int32
}

func (r *rproc) clone() rproc {
	c := *r
	c.trig = append([]int32(nil), r.trig...)
	c.owed = append([]owed(nil), r.owed...)
	return c
}

// most is the largest number of events the process can have logged now.
func (r *rproc) most() int32 {
	m := r.lo + int32(len(r.trig)) + r.free
	for _, c := range r.trig {
		m += c
	}
	if r.enter >= 0 {
		m++
	}
	return m
}

// place logs g more unrecorded events of the process: at least its first
// needTrig floating triggers, and its unobserved enter if needEnter;
// triggers first, then the enter, then other effects. It reports false
// when that is impossible.
func (r *rproc) place(g, needTrig int32, needEnter bool) bool {
	if g < 0 {
		return false
	}
	if needEnter && r.enter > needTrig {
		needTrig = r.enter
	}
	k := min(int32(len(r.trig)), g)
	if needEnter && r.enter >= 0 {
		k = min(k, g-1)
	}
	if k < needTrig {
		return false
	}
	avail := r.free
	for _, c := range r.trig[:k] {
		avail += c
	}
	enterFree := r.enter >= 0 && r.enter <= k
	x := g - k
	if enterFree && x > 0 {
		x--
		r.enter = -1
	} else if needEnter && r.enter >= 0 {
		return false
	}
	if x > avail {
		return false
	}
	r.lo += g
	r.free = avail - x
	r.trig = append([]int32(nil), r.trig[k:]...)
	if r.enter > 0 {
		r.enter = max(r.enter-k, 0)
	}
	for j := range r.owed {
		r.owed[j].at = max(r.owed[j].at-k, 0)
	}
	return true
}

// add records a step's effects; floating: its trigger is not logged.
func (r *rproc) addStep(floating bool, unobserved int32, enter, enterObserved bool, obs []obsEvent) {
	at := int32(0)
	if floating {
		r.trig = append(r.trig, unobserved)
		at = int32(len(r.trig))
	} else {
		r.free += unobserved
	}
	if enter && !enterObserved {
		r.enter = at
	}
	for _, o := range obs {
		r.owed = append(r.owed, owed{o: o, at: at})
	}
}

// collapse forgets what no recorded event of the process can depend on
// once all of them are explained: only how many events it can still log
// matters, up to the most any recorded event counts.
func (r *rproc) collapse(need int32) {
	r.free = min(r.most()-r.lo, max(need-r.lo, 0))
	r.trig, r.owed, r.enter = nil, nil, -1
}

func (r *rproc) appendKey(b []byte) []byte {
	b = binary.AppendVarint(b, int64(r.lo))
	b = binary.AppendVarint(b, int64(r.free))
	b = binary.AppendVarint(b, int64(r.enter))
	b = binary.AppendUvarint(b, uint64(len(r.trig)))
	for _, c := range r.trig {
		b = binary.AppendVarint(b, int64(c))
	}
	b = binary.AppendUvarint(b, uint64(len(r.owed)))
	for _, o := range r.owed {
		b = append(b, o.o.kind...)
		b = binary.AppendVarint(b, int64(o.o.group))
		b = binary.AppendVarint(b, int64(o.o.to))
		b = binary.AppendVarint(b, int64(o.at))
		b = append(b, o.o.text...)
		b = append(b, 0)
	}
	return b
}

// nextSeq is the seq of p's next recorded event not explained at nd, or
// a number above every seq.
func (s *partialSearch) nextSeq(nd *pnode, p int) int32 {
	if at := int(nd.cut[p]); at < len(s.ev[p]) {
		return int32(s.ev[p][at].Seq)
	}
	return 1 << 30
}

// lateReady reports whether recorded event e of p may be logged at nd,
// and if so commits the other processes to have logged what happens
// before it (in rel, a copy of nd.rel the caller owns).
func (s *partialSearch) lateReady(nd *pnode, rel []rproc, e *Event) bool {
	for q := range s.n {
		if q == e.P {
			continue
		}
		if s.byTime {
			if at := nd.cut[q]; int(at) < len(s.ev[q]) && s.ev[q][at].TNs < e.TNs {
				return false
			}
		}
		v := int32(e.VC[q])
		if v <= rel[q].lo {
			continue
		}
		if s.nextSeq(nd, q) <= v || rel[q].most() < v {
			return false
		}
		r := rel[q].clone()
		if !r.place(v-r.lo, 0, false) {
			return false
		}
		rel[q] = r
	}
	return true
}

// lateCommits reports whether logging e at nd needs no other process to
// log more (its happens-before is logged already).
func (s *partialSearch) lateCommits(nd *pnode, e *Event) bool {
	for q := range s.n {
		if q != e.P && int32(e.VC[q]) > nd.rel[q].lo {
			return true
		}
	}
	return false
}

// lateStep returns what transition t of nd changes in the late-effects
// search (the cut, the logging states, the recorded events explained),
// and false if t contradicts the log.
func (s *partialSearch) lateStep(nd *pnode, t *trans) ([]int32, []rproc, int, bool) {
	p := t.p
	kind := kindOf(t.ev.Kind)
	if t.ev.Kind == model.Exit {
		for _, o := range nd.rel[p].owed {
			if o.o.kind == KindEnter {
				return nil, nil, 0, false // the enter is logged before the exit
			}
		}
	}
	var unobserved int32
	var obs []obsEvent
	for _, m := range t.res.Sent {
		if s.observed(p, KindSend) {
			obs = append(obs, obsEvent{kind: KindSend, text: s.lw.FormatMsg(m), to: s.lw.To(m)})
		} else {
			unobserved++
		}
	}
	enterObs := s.observed(p, KindEnter)
	if t.res.Entered && enterObs {
		obs = append(obs, obsEvent{kind: KindEnter, group: t.res.Next.Group})
	}
	rel := append([]rproc(nil), nd.rel...)
	r := nd.rel[p].clone()
	cut := nd.cut
	m := 0
	if s.observed(p, kind) {
		at := int(nd.cut[p])
		if at >= len(s.ev[p]) {
			return nil, nil, 0, false
		}
		e := s.ev[p][at]
		text := s.textOf(t)
		if !s.same(e, &obsEvent{kind: kind, group: t.ev.Arg, timer: t.ev.Arg, text: text, from: s.match.sender(text)}) {
			return nil, nil, 0, false
		}
		if !r.place(int32(e.Seq)-1-r.lo, int32(len(r.trig)), t.ev.Kind == model.Exit) {
			return nil, nil, 0, false
		}
		if !s.lateReady(nd, rel, e) {
			return nil, nil, 0, false
		}
		r.lo++
		r.addStep(false, unobserved, t.res.Entered, enterObs, obs)
		cut = append([]int32(nil), nd.cut...)
		cut[p]++
		m = 1
	} else {
		if t.ev.Kind == model.Exit && r.enter >= 0 {
			// an unrecorded exit: the unobserved enter is logged before it
			if !r.place(r.enter+1, r.enter, true) || r.lo >= s.nextSeq(nd, p) {
				return nil, nil, 0, false
			}
		}
		if r.lo+int32(len(r.trig))+1 > s.lateLimit(nd, p) {
			return nil, nil, 0, false // nothing recorded depends on the step
		}
		r.addStep(true, unobserved, t.res.Entered, enterObs, obs)
	}
	if int(cut[p]) == len(s.ev[p]) {
		r.collapse(s.vcNeed[p])
	}
	rel[p] = r
	return cut, rel, m, true
}

// lateLimit is the last position at which a step of p with an
// unrecorded trigger may be logged at nd: where some recorded event may
// depend on it; with after-steps, any position once every recorded event
// of p is explained.
func (s *partialSearch) lateLimit(nd *pnode, p int) int32 {
	if s.last != nil && int(nd.cut[p]) < len(s.ev[p]) {
		return s.last[p]
	}
	return s.need[p]
}

// lateEffects adds the children of nd that log p's next recorded event,
// an effect, as one of the observed effects p owes; it returns how many.
func (s *partialSearch) lateEffects(k int, nd *pnode, p int) int {
	at := int(nd.cut[p])
	if at >= len(s.ev[p]) || isTrigger(s.ev[p][at].Kind) {
		return 0
	}
	e := s.ev[p][at]
	added := 0
	tried := map[string]bool{}
	for j, o := range nd.rel[p].owed {
		if !s.same(e, &o.o) {
			continue
		}
		key := string((&rproc{owed: []owed{o}}).appendKey(nil))
		if tried[key] {
			continue
		}
		tried[key] = true
		rel := append([]rproc(nil), nd.rel...)
		r := nd.rel[p].clone()
		r.owed = append(r.owed[:j], r.owed[j+1:]...)
		if !r.place(int32(e.Seq)-1-r.lo, o.at, false) {
			continue
		}
		if !s.lateReady(nd, rel, e) {
			continue
		}
		r.lo++
		cut := append([]int32(nil), nd.cut...)
		cut[p]++
		if int(cut[p]) == len(s.ev[p]) {
			r.collapse(s.vcNeed[p])
		}
		rel[p] = r
		s.add(k+1, &pnode{state: nd.state, cut: cut, rel: rel, link: nd.link})
		added++
	}
	return added
}

// lateForced reports whether p's next recorded event at nd is a trigger
// that leaves no room before it for another step of p and needs no
// other process to log more: then that step is the only successor worth
// trying (if it matches).
func (s *partialSearch) lateForced(nd *pnode, p int) bool {
	at := int(nd.cut[p])
	if at >= len(s.ev[p]) {
		return false
	}
	e := s.ev[p][at]
	switch e.Kind {
	case KindRequest, KindExit, KindTimer:
	default:
		return false
	}
	r := &nd.rel[p]
	least := r.lo + int32(len(r.trig))
	if e.Kind == KindExit && r.enter >= 0 {
		least++
	}
	return int32(e.Seq)-1 == least && !s.lateCommits(nd, e)
}

// latePrefilter is prefilter for the late-effects search: a step whose
// trigger is observed only if it is p's next recorded event, one whose
// trigger is not only if a recorded event may depend on it.
func (s *partialSearch) latePrefilter(nd *pnode, p int, kind string) bool {
	if s.observed(p, kind) {
		at := int(nd.cut[p])
		return at < len(s.ev[p]) && s.ev[p][at].Kind == kind
	}
	if s.forced {
		return false
	}
	r := &nd.rel[p]
	return r.lo+int32(len(r.trig))+1 <= s.lateLimit(nd, p)
}

// lateReadyNow is readyCounted for explain: e could be logged at nd.
func (s *partialSearch) lateReadyNow(nd *pnode, e *Event) bool {
	rel := append([]rproc(nil), nd.rel...)
	return s.lateReady(nd, rel, e)
}
