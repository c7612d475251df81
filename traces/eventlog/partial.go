package eventlog

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// The search of a partial log. A node is a global state of the model
// together with a cut of the log: how many events of each process the
// path to it has explained. From a node, every enabled transition of the
// model is tried. Its observable events (its trigger, sends and entry,
// those of the observed kinds of an observed process) must be the next
// events of its process in the log, and the first of them must be ready:
// every event that happens before it (by the vector timestamps, and by
// the t_ns when the log has one clock) is already explained. A
// transition with no observable event is silent: it keeps the cut.
// Nodes are processed by the number of events explained, so only the
// nodes of a few such layers are in memory at once. The log is
// consistent when a node explains every event; inconsistent when no node
// is left; undecided when the budget of states runs out.
//
// In a counted log (Observed.SeqCountsAll) a node also records how many
// events each process has executed, recorded or not: a step's events take
// the next positions of its process's numbering, so the recorded events
// fix where each step must fall, a step is tried only if some recorded
// event depends on it (need), and a process whose next event is a
// recorded request, exit or timer takes that step at once (expand).
// That search takes each step's events at consecutive positions; when it
// finds no behaviour, a second one lets a step's effects be logged after
// later triggers of its process (partial_late.go; not with
// Options.Atomic).

type pnode struct {
	state []byte
	cut   []int32 // per process: log events explained
	pos   []int32 // counted logs: per process, events executed (in seq units)
	rel   []rproc // counted logs, late effects: per process, its logging state
	link  int32   // index in the witness arena, or -1
}

type plink struct {
	parent int32
	p      int
	ev     protosys.LocalEvent
}

type layer struct {
	nodes []*pnode
	seen  map[string]bool
}

type partialSearch struct {
	lw     protosys.LocalWorker
	gw     model.Worker
	info   model.Info
	n      int
	ev     [][]*Event
	total  int
	kinds  map[string]bool // observed kinds; nil: all
	procs  []bool
	byTime bool
	match  msgMatcher
	opts   Options
	arena  []plink
	layers map[int]*layer
	states int
	key    []byte
	// counted: seq and vc count every event, recorded or not
	// (Observed.SeqCountsAll); need[q] is the largest count of q's
	// events any recorded event depends on.
	counted bool
	need    []int32
	last    []int32 // with after-steps: per process, the seq of its last recorded event
	// late: a counted log whose steps' effects may be logged after
	// later triggers of their process (partial_late.go); vcNeed[q] is
	// need[q] before after-steps widen it.
	late   bool
	vcNeed []int32
	forced bool // late: only steps whose trigger is p's next recorded event
}

func searchPartial(sys model.System, l *Log, opts Options) Result {
	witness := opts.Witness
	opts.Witness = opts.Witness || opts.Complete
	res := searchPartial1(sys, l, opts)
	partialNotes(sys, l, opts, &res)
	if !witness {
		res.Path = nil
	}
	return res
}

// partialNotes adds the notes of a partial log's result (processes never
// requesting), and with Options.Complete the requests never served.
func partialNotes(sys model.System, l *Log, opts Options, res *Result) {
	o := l.Header.Observed
	kinds := map[string]bool{}
	for _, k := range o.Kinds {
		kinds[k] = true
	}
	n := l.N()
	if len(kinds) > 0 && !kinds[KindRequest] || n != sys.Info().Processes || !res.OK {
		return
	}
	observed := make([]bool, n)
	for _, p := range o.Processes {
		observed[p] = true
	}
	if len(o.Processes) == 0 {
		observed = nil
	}
	requests := make([]int, n)
	lastReq := make([]*Event, n)
	for k := range l.Events {
		if e := &l.Events[k]; e.Kind == KindRequest {
			requests[e.P]++
			lastReq[e.P] = e
		}
	}
	if note := neverRequested(requests, observed); note != "" {
		res.Notes = append(res.Notes, note)
	}
	if !opts.Complete && (len(kinds) == 0 || kinds[KindEnter]) {
		served := make([]bool, n)
		for k := range l.Events {
			switch e := &l.Events[k]; e.Kind {
			case KindRequest:
				served[e.P] = false
			case KindEnter:
				served[e.P] = true
			}
		}
		for p := range n {
			if lastReq[p] != nil && !served[p] {
				res.Notes = append(res.Notes, notServed(p, lastReq[p]))
			}
		}
	}
	if !opts.Complete || !res.OK || len(res.Path) == 0 {
		return
	}
	lw := sys.(protosys.LocalSystem).NewLocalWorker()
	final := res.Path[len(res.Path)-1]
	locals, _, _ := lw.Split(final)
	for p := range n {
		if locals[p].Phase != model.Waiting || lastReq[p] == nil {
			continue
		}
		what := fmt.Sprintf("P%d requested (%s) and the log ends without P%d entering its CS", p, lineOf(lastReq[p]), p)
		res.Unserved = append(res.Unserved, what)
		switch canServe(sys.NewWorker(), lw, final, p) {
		case serveYes:
			why := what + "; the model serves that request from the state the log ends in, so the program should have"
			res.Divergences = append(res.Divergences, Divergence{Event: lastReq[p], Reason: why})
			if res.OK {
				res.OK, res.Failed, res.Reason = false, lastReq[p], why
				res.Reached = sys.NewWorker().Describe(final)
			}
		case serveNo:
			res.Notes = append(res.Notes, what+"; no behaviour of the model serves it from the state the log ends in either")
		default:
			res.Notes = append(res.Notes, what+"; whether the model serves it from there is unknown (budget)")
		}
	}
}

func searchPartial1(sys model.System, l *Log, opts Options) Result {
	if opts.MaxStates <= 0 {
		opts.MaxStates = defaultMaxStates
	}
	budget := opts.MaxStates
	counted := l.Header.Observed.SeqCountsAll
	// Timestamps computed from process order and message ids know
	// nothing of the unrecorded steps a process takes after its last
	// recorded event, which others may depend on (the REPLY another
	// process needs to enter): the first search leaves them out, which
	// keeps it small; when it finds no behaviour, search again with them.
	// In a counted log, when no behaviour logged atomically explains the
	// log, search again with effects logged late (unless Options.Atomic).
	var tries [][2]bool // after, late
	tries = append(tries, [2]bool{false, false})
	if counted && !l.VCGiven {
		tries = append(tries, [2]bool{true, false})
	}
	if counted && !opts.Atomic {
		tries = append(tries, [2]bool{false, true})
		if !l.VCGiven {
			tries = append(tries, [2]bool{true, true})
		}
	}
	var res Result
	states := 0
	for _, tr := range tries {
		opts.MaxStates = max(budget-states, 1)
		res = searchPartialWith(sys, l, opts, tr[0], tr[1])
		states += res.States
		res.States = states
		if res.OK || res.Undecided || res.Failed == nil {
			break
		}
	}
	return res
}

// searchPartialWith is the search; after: a counted log's processes may
// take unrecorded steps after their last recorded event; late: a counted
// log's steps may be logged with their effects after later triggers.
func searchPartialWith(sys model.System, l *Log, opts Options, after, late bool) Result {
	var res Result
	ls, ok := sys.(protosys.LocalSystem)
	if !ok {
		res.Reason = fmt.Sprintf("%s cannot validate a partial log: its system is not compiled from a protocol.Protocol", sys.Info().Name)
		return res
	}
	info := sys.Info()
	n := l.N()
	if info.Processes != n {
		res.Reason = fmt.Sprintf("the log has n=%d processes but the model %s has %d", n, info.Name, info.Processes)
		return res
	}
	if opts.MaxStates <= 0 {
		opts.MaxStates = defaultMaxStates
	}
	s := &partialSearch{lw: ls.NewLocalWorker(), gw: sys.NewWorker(), info: info, n: n, opts: opts,
		layers: map[int]*layer{}, total: len(l.Events)}
	o := l.Header.Observed
	if len(o.Kinds) > 0 {
		s.kinds = map[string]bool{}
		for _, k := range o.Kinds {
			s.kinds[k] = true
		}
	}
	s.procs = make([]bool, n)
	for _, p := range o.Processes {
		s.procs[p] = true
	}
	if len(o.Processes) == 0 {
		for p := range s.procs {
			s.procs[p] = true
		}
	}
	s.byTime = l.Header.Clock == clockGlobal
	if !l.VCGiven {
		timed := len(l.Events) > 0
		for k := range l.Events {
			if l.Events[k].TNs == 0 {
				timed = false
			}
		}
		s.byTime = s.byTime || timed
	}
	s.ev = make([][]*Event, n)
	s.counted = o.SeqCountsAll
	s.late = late && s.counted
	s.need = make([]int32, n)
	for k := range l.Events {
		e := &l.Events[k]
		s.ev[e.P] = append(s.ev[e.P], e)
		for q, v := range e.VC {
			s.need[q] = max(s.need[q], int32(v))
		}
	}
	s.vcNeed = append([]int32(nil), s.need...)
	if after {
		s.last = make([]int32, n)
		for q := range s.need {
			s.need[q] = math.MaxInt32 - 1
			if k := len(s.ev[q]); k > 0 {
				s.last[q] = int32(s.ev[q][k-1].Seq)
			}
		}
	}
	locals := make([]protosys.LocalState, n)
	for i := range n {
		locals[i] = s.lw.InitialLocal(i)
	}
	init := s.lw.Assemble(locals, s.lw.InitialMessages(), 0)
	res.Initial = s.gw.Describe(init)
	root := &pnode{state: init, cut: make([]int32, n), link: -1}
	if s.counted && !s.late {
		root.pos = make([]int32, n)
	}
	if s.late {
		root.rel = make([]rproc, n)
		for p := range root.rel {
			root.rel[p].enter = -1
			if len(s.ev[p]) == 0 {
				root.rel[p].collapse(s.vcNeed[p])
			}
		}
	}
	if opts.Witness {
		s.arena = append(s.arena, plink{parent: -1, p: -1})
		root.link = 0
	}
	s.add(0, root)
	bestK, bestNodes := -1, []*pnode(nil)
	for k := 0; k <= s.total; k++ {
		ly := s.layers[k]
		if ly == nil {
			continue
		}
		if k == s.total {
			res.OK = true
			res.Events, res.States = s.total, s.states
			if opts.Witness {
				res.Path = s.path(ly.nodes[0])
			}
			res.Steps = max(len(res.Path)-1, 0)
			return res
		}
		for i := 0; i < len(ly.nodes); i++ {
			if i%1024 == 1023 {
				if opts.Progress != nil {
					opts.Progress(k, s.total, s.states)
				}
				select {
				case <-opts.Stop:
					res.Undecided = true
					res.Events, res.States = k, s.states
					res.Reason = fmt.Sprintf("interrupted after visiting %d model states, with %d of %d events explained", s.states, k, s.total)
					return res
				default:
				}
			}
			if s.states > opts.MaxStates {
				res.Undecided = true
				res.Events, res.States = k, s.states
				res.Reason = fmt.Sprintf("the search visited %d model states (the budget, --max-states) and explained %d of %d events on its way; neither a behaviour nor a contradiction was found", s.states, k, s.total)
				return res
			}
			s.expand(k, ly.nodes[i])
		}
		bestK, bestNodes = k, ly.nodes
		delete(s.layers, k)
	}
	res.Events, res.States = bestK, s.states
	s.explain(&res, bestNodes)
	return res
}

// add puts a node in layer k unless it is there already.
func (s *partialSearch) add(k int, nd *pnode) bool {
	ly := s.layers[k]
	if ly == nil {
		ly = &layer{seen: map[string]bool{}}
		s.layers[k] = ly
	}
	s.key = append(s.key[:0], nd.state...)
	for _, c := range nd.cut {
		s.key = binary.AppendUvarint(s.key, uint64(c))
	}
	for _, c := range nd.pos {
		s.key = binary.AppendUvarint(s.key, uint64(c))
	}
	for k := range nd.rel {
		s.key = nd.rel[k].appendKey(s.key)
	}
	if ly.seen[string(s.key)] {
		return false
	}
	ly.seen[string(s.key)] = true
	ly.nodes = append(ly.nodes, nd)
	s.states++
	return true
}

func (s *partialSearch) observed(p int, kind string) bool {
	return s.procs[p] && (s.kinds == nil || s.kinds[kind])
}

// trans is one enabled transition of a node.
type trans struct {
	p       int
	ev      protosys.LocalEvent
	res     protosys.LocalResult
	network [][]byte // the network before it
	text    string   // the delivered message's rendering, once asked for
}

// textOf returns the rendering of the message t delivers.
func (s *partialSearch) textOf(t *trans) string {
	if t.text == "" && t.ev.Kind == model.Deliver {
		t.text = s.lw.FormatMsg(t.ev.Msg)
	}
	return t.text
}

// netAfter returns the network after t.
func netAfter(t *trans) [][]byte {
	net := make([][]byte, 0, len(t.network)+len(t.res.Sent))
	for k, m := range t.network {
		if t.ev.Kind == model.Deliver && k == t.ev.Arg {
			continue
		}
		net = append(net, m)
	}
	return append(net, t.res.Sent...)
}

// prefilter reports, for a counted log, whether process p may take a
// step whose trigger is of the given kind at nd: the step's first event
// takes position pos[p]+1, where the log has a trigger of that kind, or
// nothing if the kind is not observed.
func (s *partialSearch) prefilter(nd *pnode, p int, kind string) bool {
	if !s.counted {
		return true
	}
	if s.late {
		return s.latePrefilter(nd, p, kind)
	}
	next := nd.pos[p] + 1
	if next > s.need[p] {
		return false
	}
	at := int(nd.cut[p])
	if at < len(s.ev[p]) && int32(s.ev[p][at].Seq) == next {
		return s.ev[p][at].Kind == kind
	}
	return !s.observed(p, kind)
}

// transitions enumerates the enabled transitions of a state (those that
// pass prefilter).
func (s *partialSearch) transitions(nd *pnode, only int, yield func(t *trans)) {
	state := nd.state
	locals, network, _ := s.lw.Split(state)
	groups := max(s.info.Groups, 1)
	for p := range s.n {
		if s.counted && !s.late && nd.pos[p]+1 > s.need[p] || only >= 0 && p != only {
			continue
		}
		var evs []protosys.LocalEvent
		switch locals[p].Phase {
		case model.Idle:
			for g := range groups {
				evs = append(evs, protosys.LocalEvent{Kind: model.Request, Arg: g})
			}
		case model.InCS:
			evs = append(evs, protosys.LocalEvent{Kind: model.Exit})
		}
		for t := range s.lw.Timers() {
			if s.lw.TimerEnabled(p, locals[p], t) {
				evs = append(evs, protosys.LocalEvent{Kind: model.Timer, Arg: t})
			}
		}
		for k, m := range network {
			if s.lw.To(m) == p && (k == 0 || string(network[k-1]) != string(m)) {
				evs = append(evs, protosys.LocalEvent{Kind: model.Deliver, Msg: m, Arg: k})
			}
		}
		for _, ev := range evs {
			if !s.prefilter(nd, p, kindOf(ev.Kind)) {
				continue
			}
			if !s.lw.Allowed(state, p, ev) { // a whole-state guard (true without one)
				continue
			}
			// one transition per alternative of a handler that
			// leaves a choice open (protocol.Ctx.Choose)
			k, err := s.lw.Alternatives(p, locals[p], ev)
			if err != nil {
				continue
			}
			for ch := range k {
				ev.Choice = ch
				res, err := s.lw.Step(p, locals[p], ev)
				if err != nil {
					continue
				}
				t := &trans{p: p, ev: ev, res: res, network: network}
				yield(t)
			}
		}
	}
	_ = locals
}

// expand tries every transition of nd.
func (s *partialSearch) expand(k int, nd *pnode) {
	if s.late {
		for p := range s.n {
			if s.lateForced(nd, p) {
				s.forced = true
				matched := s.expandFrom(k, nd, p)
				s.forced = false
				if matched > 0 {
					return
				}
			}
		}
		for p := range s.n {
			s.lateEffects(k, nd, p)
		}
		s.expandFrom(k, nd, -1)
		return
	}
	// A forced step first: in a counted log, a process whose next event
	// is a recorded request, exit or timer can only take that step next.
	// If it is enabled and ready now, it stays so (steps of other
	// processes neither disable it nor make it less ready) and commutes
	// with every step of the others, so any behaviour that explains the
	// log can take it first: it is the only successor worth trying.
	if s.counted {
		for p := range s.n {
			at := int(nd.cut[p])
			if at >= len(s.ev[p]) || int32(s.ev[p][at].Seq) != nd.pos[p]+1 {
				continue
			}
			switch s.ev[p][at].Kind {
			case KindRequest, KindExit, KindTimer:
				if s.expandFrom(k, nd, p) > 0 {
					return
				}
			}
		}
	}
	s.expandFrom(k, nd, -1)
}

// expandFrom adds the successors of nd by the transitions of process
// only (or of every process, if only < 0) that match the log; it returns
// how many matched.
func (s *partialSearch) expandFrom(k int, nd *pnode, only int) int {
	matched := 0
	locals, _, faults := s.lw.Split(nd.state)
	s.transitions(nd, only, func(t *trans) {
		var m, size int
		var ok bool
		var cut []int32
		var rel []rproc
		if s.late {
			cut, rel, m, ok = s.lateStep(nd, t)
		} else if s.counted {
			m, size, ok = s.matchCounted(nd, t)
		} else {
			m, ok = s.matchStep(nd, t)
		}
		if !ok {
			return
		}
		matched++
		old := locals[t.p]
		locals[t.p] = t.res.Next
		next := s.lw.Assemble(locals, netAfter(t), faults)
		locals[t.p] = old
		if cut == nil {
			cut = nd.cut
			if m > 0 {
				cut = append([]int32(nil), nd.cut...)
				cut[t.p] += int32(m)
			}
		}
		child := &pnode{state: next, cut: cut, pos: nd.pos, rel: rel, link: -1}
		if s.counted && !s.late {
			child.pos = append([]int32(nil), nd.pos...)
			child.pos[t.p] += int32(size)
			if s.last != nil {
				// after its last recorded event a process's count
				// matters to nothing: one node for every count
				child.pos[t.p] = min(child.pos[t.p], s.last[t.p]+1)
			}
		}
		if s.opts.Witness {
			child.link = int32(len(s.arena))
		}
		if s.add(k+m, child) && s.opts.Witness {
			ev := t.ev
			ev.Msg = append([]byte(nil), ev.Msg...)
			s.arena = append(s.arena, plink{parent: nd.link, p: t.p, ev: ev})
		}
	})
	return matched
}

// kindOf returns the event kind of a trigger ("" for a kind that logs no
// event of its own, a fault).
func kindOf(k model.ActionKind) string {
	switch k {
	case model.Request:
		return KindRequest
	case model.Exit:
		return KindExit
	case model.Timer:
		return KindTimer
	case model.Deliver:
		return KindReceive
	}
	return ""
}

// obsEvent is one observable event of a transition.
type obsEvent struct {
	kind  string
	group int
	timer int
	text  string // send, receive: the message's rendering
	to    int    // send: the receiver
	from  int    // receive: the sender, -1 if unknown
}

// matchStep returns how many log events transition t explains at node
// nd, and false if it contradicts the log (or is not yet allowed by the
// happens-before order).
func (s *partialSearch) matchStep(nd *pnode, t *trans) (int, bool) {
	p := t.p
	var trig *obsEvent
	var effects []obsEvent
	kind := kindOf(t.ev.Kind)
	if s.observed(p, kind) {
		text := s.textOf(t)
		trig = &obsEvent{kind: kind, group: t.ev.Arg, timer: t.ev.Arg, text: text, from: s.match.sender(text)}
	}
	if s.observed(p, KindSend) {
		for _, m := range t.res.Sent {
			effects = append(effects, obsEvent{kind: KindSend, text: s.lw.FormatMsg(m), to: s.lw.To(m)})
		}
	}
	if t.res.Entered && s.observed(p, KindEnter) {
		effects = append(effects, obsEvent{kind: KindEnter, group: t.res.Next.Group})
	}
	m := len(effects)
	if trig != nil {
		m++
	}
	if m == 0 {
		return 0, true
	}
	at := int(nd.cut[p])
	if at+m > len(s.ev[p]) {
		// The log may end in the middle of the step: its first events
		// are p's last recorded ones, the rest come after the end.
		if at >= len(s.ev[p]) {
			return 0, false
		}
		m = len(s.ev[p]) - at
	}
	evs := s.ev[p][at : at+m]
	if !s.ready(nd, evs[0], true) {
		return 0, false
	}
	for _, e := range evs[1:] {
		if !s.ready(nd, e, false) {
			return 0, false
		}
	}
	if trig != nil {
		if !s.same(evs[0], trig) {
			return 0, false
		}
		evs = evs[1:]
	}
	used := make([]bool, len(effects))
	for _, e := range evs {
		found := false
		for j := range effects {
			if !used[j] && s.same(e, &effects[j]) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return 0, false
		}
	}
	return m, true
}

// matchCounted is matchStep for counted logs: the transition's events
// take the next positions of its process's seq numbering, and the
// recorded events at those positions must be its events; it returns the
// number of recorded events explained and of events executed.
func (s *partialSearch) matchCounted(nd *pnode, t *trans) (int, int, bool) {
	p := t.p
	kind := kindOf(t.ev.Kind)
	size := 1 + len(t.res.Sent)
	if t.res.Entered {
		size++
	}
	pos := nd.pos[p]
	end := pos + int32(size)
	if pos+1 > s.need[p] {
		return 0, 0, false // nothing recorded depends on the step
	}
	at := int(nd.cut[p])
	logged := s.ev[p][at:]
	k := 0
	for k < len(logged) && int32(logged[k].Seq) <= end {
		k++
	}
	logged = logged[:k]
	// The trigger is the step's first event; the effects follow in any order.
	var trig *obsEvent
	if s.observed(p, kind) {
		text := s.textOf(t)
		trig = &obsEvent{kind: kind, group: t.ev.Arg, timer: t.ev.Arg, text: text, from: s.match.sender(text)}
	}
	var effects []obsEvent
	for _, m := range t.res.Sent {
		o := obsEvent{kind: KindSend, to: s.lw.To(m)}
		if s.observed(p, KindSend) {
			o.text = s.lw.FormatMsg(m)
		}
		effects = append(effects, o)
	}
	if t.res.Entered {
		effects = append(effects, obsEvent{kind: KindEnter, group: t.res.Next.Group})
	}
	want := 0 // observable events of the step
	if s.observed(p, kind) {
		want++
	}
	for k := range effects {
		if s.observed(p, effects[k].kind) {
			want++
		}
	}
	if len(logged) != want {
		// The log may end in the middle of the step: its recorded events
		// are p's last ones, and the step's other observable events fit
		// in the positions after p's last recorded event.
		last := s.ev[p][len(s.ev[p])-1].Seq
		if len(logged) == 0 || len(logged) > want || at+len(logged) != len(s.ev[p]) || int(end)-last < want-len(logged) {
			return 0, 0, false
		}
		want = len(logged)
	}
	if want == 0 {
		return 0, size, true
	}
	if !s.readyCounted(nd, logged[0], true) {
		return 0, 0, false
	}
	rest := logged
	if s.observed(p, kind) {
		if int32(logged[0].Seq) != pos+1 || !s.same(logged[0], trig) {
			return 0, 0, false
		}
		rest = logged[1:]
	}
	used := make([]bool, len(effects))
	for _, e := range rest {
		if !s.readyCounted(nd, e, false) {
			return 0, 0, false
		}
		found := false
		for j := range effects {
			if !used[j] && s.same(e, &effects[j]) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return 0, 0, false
		}
	}
	return want, size, true
}

// readyCounted: every event that happens before e has been executed (by
// the counts of every process), and, ordered by time, every recorded
// event with an earlier time is explained.
func (s *partialSearch) readyCounted(nd *pnode, e *Event, first bool) bool {
	for q := range s.n {
		if q == e.P {
			continue
		}
		if nd.pos[q] < int32(e.VC[q]) {
			return false
		}
		if first && s.byTime {
			if at := nd.cut[q]; int(at) < len(s.ev[q]) && s.ev[q][at].TNs < e.TNs {
				return false
			}
		}
	}
	return true
}

// ready reports whether every event that happens before e is explained
// at nd (first: also every event with an earlier time, if ordered by time).
func (s *partialSearch) ready(nd *pnode, e *Event, first bool) bool {
	for q := range s.n {
		if q == e.P {
			continue
		}
		at := nd.cut[q]
		if int(at) >= len(s.ev[q]) {
			continue
		}
		nx := s.ev[q][at]
		if nx.Seq <= e.VC[q] {
			return false
		}
		if first && s.byTime && nx.TNs < e.TNs {
			return false
		}
	}
	return true
}

// same reports whether log event e is the observable event o.
func (s *partialSearch) same(e *Event, o *obsEvent) bool {
	if e.Kind != o.kind {
		return false
	}
	switch o.kind {
	case KindRequest:
		return e.Group == o.group
	case KindEnter:
		return s.info.Groups <= 1 || e.Group == o.group
	case KindTimer:
		return e.Timer == o.timer
	case KindSend:
		return *e.To == o.to && s.match.match(e, o.text)
	case KindReceive:
		if e.From != nil && o.from >= 0 && *e.From != o.from {
			return false
		}
		return s.match.match(e, o.text)
	}
	return true
}

// path rebuilds the states from the initial one to nd.
func (s *partialSearch) path(nd *pnode) [][]byte {
	var chain []plink
	for i := nd.link; i > 0; i = s.arena[i].parent {
		chain = append(chain, s.arena[i])
	}
	locals := make([]protosys.LocalState, s.n)
	for i := range s.n {
		locals[i] = s.lw.InitialLocal(i)
	}
	state := s.lw.Assemble(locals, s.lw.InitialMessages(), 0)
	out := [][]byte{state}
	for k := len(chain) - 1; k >= 0; k-- {
		lk := chain[k]
		locals, network, faults := s.lw.Split(state)
		res, err := s.lw.Step(lk.p, locals[lk.p], lk.ev)
		if err != nil {
			panic(fmt.Sprintf("eventlog: witness step %d does not replay: %v", len(out), err))
		}
		locals[lk.p] = res.Next
		var net [][]byte
		removed := false
		for _, m := range network {
			if !removed && lk.ev.Kind == model.Deliver && string(m) == string(lk.ev.Msg) {
				removed = true
				continue
			}
			net = append(net, m)
		}
		net = append(net, res.Sent...)
		state = s.lw.Assemble(locals, net, faults)
		out = append(out, state)
	}
	return out
}

// explain fills in why the search failed: the events after the largest
// cut reached, and the first of them (by line) that is ready there.
func (s *partialSearch) explain(res *Result, best []*pnode) {
	if len(best) == 0 {
		res.Reason = "no model state to start from"
		return
	}
	type cand struct {
		e     *Event
		ready bool
		nd    *pnode
	}
	var cs []cand
	for _, nd := range best {
		for p := range s.n {
			if int(nd.cut[p]) < len(s.ev[p]) {
				e := s.ev[p][nd.cut[p]]
				r := false
				if s.late {
					r = s.lateReadyNow(nd, e)
				} else if s.counted {
					r = s.readyCounted(nd, e, true)
				} else {
					r = s.ready(nd, e, true)
				}
				cs = append(cs, cand{e, r, nd})
			}
		}
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].ready != cs[b].ready {
			return cs[a].ready
		}
		return cs[a].e.Line < cs[b].e.Line
	})
	c := cs[0]
	res.Failed = c.e
	res.Reached = s.gw.Describe(c.nd.state)
	var what string
	switch c.e.Kind {
	case KindEnter:
		what = "enter its CS"
	case KindExit:
		what = "exit its CS"
	case KindRequest:
		what = "request"
	case KindSend:
		what = "send " + c.e.Msg
	case KindReceive:
		what = "receive " + strings.TrimSpace(c.e.Msg)
	case KindTimer:
		what = fmt.Sprintf("fire timer %d", c.e.Timer)
	}
	if c.ready {
		res.Reason = fmt.Sprintf("no behaviour of the model explains it: after the %d events before it (in every order consistent with the log's happens-before%s), the model reaches %d state(s), and in none of them, nor after any steps the log does not record, can P%d %s",
			res.Events, map[bool]string{true: " and its timestamps", false: ""}[s.byTime], len(best), c.e.P, what)
	} else {
		res.Reason = fmt.Sprintf("no behaviour of the model explains the log beyond %d events; this event waits for events that happen before it and were not explained", res.Events)
	}
	seen := map[*Event]bool{}
	for _, x := range cs {
		if !seen[x.e] && len(res.Pending) < 8 {
			seen[x.e] = true
			res.Pending = append(res.Pending, x.e.String())
		}
	}
}
