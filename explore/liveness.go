package explore

import (
	"context"
	"fmt"
	"slices"
	"time"
	"unsafe"

	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// LivenessOptions configure CheckLiveness.
type LivenessOptions struct {
	// Starvation checks starvation-freedom; Occupancy checks
	// concurrent-occupancy (group mutual exclusion systems only).
	Starvation, Occupancy bool
	// Fairness is the assumption on message delivery (Exit and timers are
	// always weakly fair, Request and faults never).
	Fairness model.Fairness
	// Options holds the bounds shared with Check, so that a liveness
	// check can take a safety search's options as they are. CheckLiveness
	// reads only these of its fields:
	//
	//	MaxStates     admit at most this many states (0: no bound)
	//	MaxDepth      do not expand states at this distance (0: no bound)
	//	Exact         identify states by their bytes, not by fingerprints
	//	MemoryBudget  if positive, stop the graph's construction (with
	//	              StopReason "memory") once the process's resident
	//	              memory exceeds it; the analysis then runs on the
	//	              partial graph, as after MaxStates
	//	Progress      if set, called every ProgressEvery (default 5s),
	//	              from a separate goroutine, while the graph is built
	//	WorkDir       where the graph's edges, parent links and BFS levels
	//	              are spilled while it is built (see CheckLiveness)
	//	SpillAbove    the bytes of one BFS level kept in memory (the edges
	//	              and parent links go to files whatever it says)
	//	Workers       1: the graph is built by one goroutine; otherwise
	//	              (and by default, with more than one processor) one
	//	              goroutine generates the next batch of successors
	//	              while another numbers the current one; the graph is
	//	              the same either way
	//
	// and ignores the others (Properties, Bitstate, DFS, checkpoints). The
	// fields are promoted, so opts.MaxStates works as before.
	Options
	// AnalysisProgress, if set, is called every ProgressEvery while the
	// graph is analysed, from a separate goroutine.
	AnalysisProgress func(AnalysisProgress)
}

// LivenessResult is what CheckLiveness found.
type LivenessResult struct {
	// Verdict is Violated if some lasso, deadlock or occupancy violation
	// was found (each is real even when the graph is incomplete), else
	// Incomplete if a bound or an interrupt cut the graph, else OK.
	Verdict     Verdict
	States      int64 // distinct states admitted
	Transitions int64 // edges of the graph
	Depth       int   // largest BFS distance
	Families    int   // distinct transition families (fair or not)
	// FairComponents counts, over all processes, the strongly connected
	// sets of states where the process waits that admit a fair cycle.
	FairComponents int
	GraphBytes     int64 // memory of the graph and of the state table
	Elapsed        time.Duration
	// StopReason says why the graph or its analysis is partial:
	// "max-states", "max-depth", "memory" (MemoryBudget) or
	// "interrupted" (the context was cancelled while the graph was built
	// or analysed; the violations found before are real).
	StopReason StopReason
	// Starving holds, for each process that can starve, by process id, the
	// lasso with the shortest prefix (and a short fair cycle).
	Starving []Lasso
	// Deadlock is a shortest path to a state without enabled transitions in
	// which some process is Waiting: a finite maximal behaviour that
	// starves, reported as a no-deadlock violation (when Starvation is
	// checked).
	Deadlock *Violation
	// Occupancy is the shallowest violation of concurrent-occupancy.
	Occupancy *OccupancyViolation
	// ModelError is set when the verdict is ModelFailed: the model
	// panicked at a reachable state, and the graph stopped there.
	ModelError *ModelError
}

// Lasso is a starvation counterexample: Path[0] is an initial state, each
// Path[k+1] is the successor of Path[k] by the transition with index
// Actions[k] in Successors order, and Path[len(Path)-1] equals Path[Loop]:
// the steps Loop..len(Actions)-1 form a fair cycle along which Process is
// Waiting throughout.
type Lasso struct {
	Process int
	Path    [][]byte
	Actions []int
	Loop    int // number of prefix steps
}

// Len is the number of steps (prefix plus one turn of the cycle).
func (l *Lasso) Len() int { return len(l.Actions) }

// CycleLen is the number of steps of the cycle.
func (l *Lasso) CycleLen() int { return len(l.Actions) - l.Loop }

// OccupancyViolation is a reachable state in which Process requests Group,
// nobody is InCS with or Waiting for another group, and Process cannot
// enter its CS without an Exit or a request for another group.
type OccupancyViolation struct {
	Process, Group int
	Path           [][]byte // a shortest path to the state
	Actions        []int
	// Explored and ExploredTransitions give the size of the restricted
	// graph reachable from the state (no Exit, no request for another
	// group): the proof that none of its states has Process InCS.
	Explored, ExploredTransitions int64
}

// Len is the number of steps of the path.
func (v *OccupancyViolation) Len() int { return len(v.Actions) }

// CheckLiveness builds the reachable state graph of sys and checks
// starvation-freedom and/or concurrent-occupancy on it (semantics.md §1).
// With Starvation, terminal states with a Waiting process are reported as
// a no-deadlock violation. It returns an error only for invalid options or
// a system it cannot handle (more than 64 processes, a state with more than
// 65,536 transitions, bounded channels: see Capacity below), or one whose
// Initial or Successors are not deterministic: a counterexample's path is
// rebuilt by re-running them, and a rebuild that does not match the graph
// (a missing transition, other phases or another number of successors than
// recorded, a lasso whose cycle does not close) is an error that says so.
//
// # Capacity
//
// A system whose workers are CapacityBlockers (a protocol with a channel
// capacity, design notes §10.2) is refused: under the bound a Waiting
// process may be stuck only because a send is disabled, so a lasso or a
// terminal state of the bounded graph need not exist without the bound,
// and the absence of one proves nothing about the unbounded system either.
//
// # The graph
//
// A sequential breadth-first search numbers the states and records every
// transition as an edge (target, fairness family). States are not kept:
// paths are rebuilt by replaying transition indices. While the graph is
// built, the fingerprint table (12 bytes a slot) is in memory and the
// edges, BFS parent links and levels go to files in the work directory
// (Options.WorkDir, else the system's temporary directory; removed at
// the end). Then the table is freed and the edges are loaded, bit-packed
// at the width the graph needs (target plus family bits), with 4 bytes of
// offsets and 8 bytes of analysis arrays per state (12 once a fair
// component or a strong-fairness refinement needs component marks),
// outside the Go heap: on the repaired torus d=2 r=2 (10.6 million
// states, 5.1 edges a state, 29 bits an edge) the process peaks at about
// 33 bytes a state. Families are those of model.AppendFamily:
// Exit(i) and each timer are weakly fair, each distinct message is weakly
// fair, strongly fair or unfair according to Fairness, Request and Lose
// are unfair.
//
// # Starvation: fair strongly connected components
//
// Process p can starve iff some reachable strongly connected set S of
// states where p is Waiting, with at least one edge inside, can be
// traversed forever fairly: every weak family enabled in all states of S
// is taken on an edge inside S, every strong family enabled in some state
// of S is taken inside S. For each p the check runs Tarjan's algorithm on
// the subgraph of states where p waits and judges each component C:
//
//   - a weak family enabled everywhere in C and taken nowhere inside it
//     rules out C and every subset of C (it is still enabled everywhere,
//     still never taken), so C is dropped whole: for weak fairness the
//     maximal components are the only candidates and no iteration is
//     needed;
//   - a strong family enabled somewhere in C but never taken inside it
//     rules out the states where it is enabled: they are removed and the
//     rest of C is decomposed again (the Emerson-Lei refinement for
//     Streett conditions);
//   - otherwise C is fair: the walk through all its edges is a fair cycle.
//
// The lasso's loop starts at the shallowest state (BFS depth) of any fair
// component, so its prefix is a shortest one; its cycle is built greedily
// inside the component (nearest edge of an unsatisfied family, or nearest
// state where an unsatisfied weak family is disabled, then back to the
// start): short, not necessarily shortest.
//
// This SCC analysis was chosen over a nested depth-first search because
// fairness over many families (every message in transit is one) is a
// generalized Büchi/Streett condition: nested DFS needs a counter
// construction that multiplies the graph by the number of families, while
// the SCC analysis is linear per process, deterministic, reports every
// starving process with a shortest prefix, and checks strong fairness by
// the same code. Its cost is memory: the whole graph is kept, hence
// starvation-freedom is not among the default properties of
// 'tokenmc check'.
//
// # Bounds
//
// MaxStates and MaxDepth cut the graph. A state whose successors were not
// all admitted keeps no edges and is left out of every analysis, so any
// lasso or occupancy violation found is real; when none is found the
// verdict is Incomplete.
//
// # Interrupts and progress
//
// Cancelling ctx stops the construction of the graph and its analysis
// alike: the analysis looks at ctx before each process (or process and
// group) and every few thousand states within one. The result holds what
// was found so far, with StopReason "interrupted". Progress reports the
// construction, AnalysisProgress the analysis.
//
// # Concurrent occupancy
//
// For each process p and group X, a backward search over the edges that
// are neither an Exit nor a request for another group marks the states
// from which p can reach its CS; a reachable state where p waits for X and
// nobody is InCS with, or Waiting for, another group that is not marked is
// a violation. The shallowest one is reported with the size of the
// restricted graph reachable from it, none of whose states has p InCS.
func CheckLiveness(ctx context.Context, sys model.System, opts LivenessOptions) (*LivenessResult, error) {
	if opts.MaxStates < 0 || opts.MaxDepth < 0 {
		return nil, fmt.Errorf("max-states and max-depth must be >= 0")
	}
	if opts.MaxStates == 0 || opts.MaxStates > 1<<32-2 {
		opts.MaxStates = 1<<32 - 2 // state numbers are uint32
	}
	if opts.Occupancy && !sys.Info().GME {
		return nil, fmt.Errorf("concurrent-occupancy applies to group mutual exclusion systems only; %s is not one", sys.Info().Name)
	}
	start := time.Now()
	var live liveCounters
	stop := startProgress(&Options{Progress: opts.Progress, ProgressEvery: opts.ProgressEvery}, &live, start)
	wd := &workDir{parent: opts.WorkDir}
	defer wd.remove()
	g, br, err := buildGraph(ctx, sys, opts, opts.Occupancy, &live, wd)
	stop()
	if err != nil {
		return nil, err
	}
	defer g.close()
	st := newAnalysisState(ctx)
	stopReport := st.report(opts.AnalysisProgress, opts.ProgressEvery, int64(g.states()), start)
	defer stopReport()
	res := &LivenessResult{
		States:      int64(g.states()),
		Transitions: g.numEdges(),
		Depth:       g.maxDepth,
		Families:    len(g.fams.class),
		GraphBytes:  g.bytes() + br.idBytes,
		StopReason:  br.stopReason,
	}
	w := sys.NewWorker()
	// rebuild replays the BFS path to s followed by more transitions.
	rebuild := func(s uint32, more func() []int) ([][]byte, []int, int, error) {
		init, acts, err := g.pathActions(s)
		if err != nil {
			return nil, nil, 0, err
		}
		prefix := len(acts)
		if more != nil {
			acts = append(acts, more()...)
		}
		path, err := g.replayPath(w, sys.Info().Name, init, acts)
		return path, acts, prefix, err
	}
	if br.failure != nil {
		path, acts, _, err := rebuild(br.failedAt, nil)
		if err != nil {
			return nil, err
		}
		res.Verdict, res.ModelError = ModelFailed, &ModelError{Panic: br.failure, Path: path, Actions: acts}
		res.Elapsed = time.Since(start)
		return res, nil
	}
	if br.deadlock >= 0 && opts.Starvation {
		path, acts, _, err := rebuild(uint32(br.deadlock), nil)
		if err != nil {
			return nil, err
		}
		res.Deadlock = &Violation{Property: invariants.NoDeadlock, Path: path, Actions: acts}
	}
	st.stopped = br.stopReason == StopInterrupted
	if opts.Starvation && !st.stopped {
		an := newAnalyzer(g, st)
		defer an.free()
		for p := range g.n {
			if !st.begin("starvation", p, g.n) {
				break
			}
			if p == 0 {
				an.findCycles() // for every process: part of the first one's step
			}
			comp, s0, n := an.fairComponent(p)
			res.FairComponents += n
			st.fairComponents.Store(int64(res.FairComponents))
			if comp == nil {
				continue
			}
			path, acts, loop, err := rebuild(s0, func() []int { return an.cycle(s0, comp) })
			if err != nil {
				return nil, err
			}
			res.Starving = append(res.Starving, Lasso{Process: p, Path: path, Actions: acts, Loop: loop})
		}
		an.free() // before the occupancy analysis allocates its own
	}
	if opts.Occupancy && !st.stopped {
		if res.Occupancy, err = checkOccupancy(g, w, sys.Info().Name, st); err != nil {
			return nil, err
		}
	}
	if st.stopped {
		res.StopReason = StopInterrupted
	}
	switch {
	case len(res.Starving) > 0 || res.Deadlock != nil || res.Occupancy != nil:
		res.Verdict = Violated
	case res.StopReason != "":
		res.Verdict = Incomplete
	default:
		res.Verdict = OK
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// analysisBytesPerState is the memory per state of the analysis besides
// the edges: the offsets (4 bytes) and the analyzer's index, low and mark
// arrays (4 each; mark only once a fair component or a strong-fairness
// refinement needs it).
const analysisBytesPerState = 16

// analyzer finds fair strongly connected components. Its scratch arrays
// are sized to the graph and reused; the large ones are held outside the
// Go heap (allocU32) and released by free.
type analyzer struct {
	g       *graph
	st      *analysisState // cancellation and progress
	index   []int32        // Tarjan numbering, 0: unvisited, -1: done; cycle's BFS stamps
	low     []int32        // Tarjan low links; cycle's BFS predecessors
	onStack []uint64       // bit set
	cyclic  []uint64       // bit set: the states on a cycle (findCycles)
	mark    []uint32       // component membership stamps (see marks)
	raw     [3][]uint32    // index, low, mark as allocated
	stamp   uint32
	stack   []uint32
	calls   []tframe

	// per-family scratch
	cnt     []int32
	seenAt  []uint32 // last state (+1) that counted the family
	taken   []bool
	famUsed []uint32

	bfsStamp int32
}

// tframe is a frame of the iterative Tarjan search: a state and the index
// of its next edge (a state has at most maxAction+1 edges).
type tframe struct {
	v, i uint32
}

func newAnalyzer(g *graph, st *analysisState) *analyzer {
	n := g.states()
	f := len(g.fams.class)
	a := &analyzer{g: g, st: st, onStack: make([]uint64, (n+63)/64),
		cnt: make([]int32, f), seenAt: make([]uint32, f), taken: make([]bool, f)}
	a.raw[0], a.raw[1] = allocU32(n), allocU32(n)
	a.index, a.low = asInt32(a.raw[0]), asInt32(a.raw[1])
	return a
}

// free releases the analyzer's arrays; it must not be used afterwards.
func (a *analyzer) free() {
	for i, t := range a.raw {
		freeU32(t)
		a.raw[i] = nil
	}
	a.index, a.low, a.mark = nil, nil, nil
}

// marks returns the component membership stamps, allocated on first use:
// a check without a fair component under weak fairness needs none.
func (a *analyzer) marks() []uint32 {
	if a.mark == nil {
		a.raw[2] = allocU32(a.g.states())
		a.mark = a.raw[2]
	}
	return a.mark
}

func asInt32(u []uint32) []int32 {
	if len(u) == 0 {
		return nil
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(&u[0])), len(u))
}

func (a *analyzer) isOnStack(v uint32) bool { return a.onStack[v>>6]&(1<<(v&63)) != 0 }

func (a *analyzer) setOnStack(v uint32, on bool) {
	if on {
		a.onStack[v>>6] |= 1 << (v & 63)
	} else {
		a.onStack[v>>6] &^= 1 << (v & 63)
	}
}

// sccs runs Tarjan's algorithm on the subgraph induced by the states of
// nodes (nil: all states) for which in holds and calls emit with each of
// its components that contain a cycle (more than one state, or a
// self-loop). emit's slice is valid only during the call, and while emit
// runs the component's states, and no others, are marked on the stack
// (isOnStack): an edge from the component to a state lower on Tarjan's
// stack would put that state in the component. emit must not call sccs.
// If the analysis is stopped meanwhile the search ends early.
func (a *analyzer) sccs(nodes []uint32, in func(uint32) bool, emit func([]uint32)) {
	g := a.g
	var counter int32
	push := func(v uint32) {
		counter++
		a.index[v], a.low[v] = counter, counter
		a.setOnStack(v, true)
		a.stack = append(a.stack, v)
		a.calls = append(a.calls, tframe{v, 0})
		a.st.visit()
	}
	search := func(r uint32) {
		if a.index[r] != 0 || !in(r) {
			return
		}
		push(r)
		for len(a.calls) > 0 {
			if a.st.stopped { // drop the search in progress
				for _, v := range a.stack {
					a.setOnStack(v, false)
				}
				a.stack, a.calls = a.stack[:0], a.calls[:0]
				return
			}
			f := &a.calls[len(a.calls)-1]
			v := f.v
			if lo, hi := g.edges(v); lo+int64(f.i) < hi {
				u := g.target(lo + int64(f.i))
				f.i++
				if !in(u) {
					continue
				}
				if a.index[u] == 0 {
					push(u)
				} else if a.isOnStack(u) {
					a.low[v] = min(a.low[v], a.index[u])
				}
				continue
			}
			a.calls = a.calls[:len(a.calls)-1]
			if len(a.calls) > 0 {
				p := a.calls[len(a.calls)-1].v
				a.low[p] = min(a.low[p], a.low[v])
			}
			if a.low[v] != a.index[v] {
				continue
			}
			k := len(a.stack) - 1
			for a.stack[k] != v {
				k--
			}
			comp := a.stack[k:]
			if len(comp) > 1 || a.selfLoop(v) {
				emit(comp)
			}
			for _, x := range comp {
				a.setOnStack(x, false)
				a.index[x] = -1
			}
			a.stack = a.stack[:k]
		}
	}
	if nodes == nil {
		for r := range uint32(g.states()) {
			if a.st.stopped {
				break
			}
			search(r)
		}
		clear(a.index)
		return
	}
	for _, r := range nodes {
		if a.st.stopped {
			break
		}
		search(r)
	}
	for _, v := range nodes {
		a.index[v] = 0
	}
}

func (a *analyzer) selfLoop(v uint32) bool {
	lo, hi := a.g.edges(v)
	for e := lo; e < hi; e++ {
		if a.g.target(e) == v {
			return true
		}
	}
	return false
}

// findCycles marks the states that lie on a cycle of the graph of the
// expanded states (in a strongly connected component with more than one
// state or a self-loop), with one pass of Tarjan's algorithm. A component
// of the subgraph where a process waits is a strongly connected part of
// that graph, so its states are all marked: fairComponent then searches
// each process's subgraph among the marked states only, and finds the
// same components (a state left out is on no cycle, so in no component
// with one), which it judges in any order, in a fraction of the time when
// most states are on no cycle.
//
// It is sccs specialised to the whole graph, the one pass over every edge:
// the states left unexpanded are marked done before it starts (no test
// per edge), a state is on Tarjan's stack exactly when its index is
// positive (the states of a finished component are done, -1), a frame's
// edges are walked in a loop of their own until one leads to a new state,
// and a self-loop is marked when its edge is walked (no second walk of a
// one-state component's edges). sccs is the general search; a test
// compares the two.
func (a *analyzer) findCycles() {
	g := a.g
	n := uint32(g.states())
	a.cyclic = make([]uint64, (n+63)/64)
	index, low := a.index, a.low
	defer clear(index)
	for s := range n {
		if !g.expanded(s) {
			index[s] = -1
		}
	}
	var counter int32
	stack, calls := a.stack[:0], a.calls[:0]
	defer func() { a.stack, a.calls = stack[:0], calls[:0] }()
	push := func(v uint32) {
		counter++
		index[v], low[v] = counter, counter
		stack = append(stack, v)
		calls = append(calls, tframe{v, 0})
	}
	for r := range n {
		if index[r] != 0 {
			continue
		}
		if !a.st.visit() {
			return
		}
		push(r)
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			lo, hi := g.edges(v)
			lv := low[v]
			e := lo + int64(f.i)
			var u uint32
			for ; e < hi; e++ {
				u = g.target(e)
				iu := index[u]
				if iu == 0 {
					break
				}
				if iu > 0 { // on the stack
					lv = min(lv, iu)
					if u == v { // a self-loop: v is on a cycle, whatever its component
						a.cyclic[v>>6] |= 1 << (v & 63)
					}
				}
			}
			low[v] = lv
			if e < hi { // u is a new state: descend
				f.i = uint32(e-lo) + 1
				if !a.st.visit() {
					return
				}
				push(u)
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				p := calls[len(calls)-1].v
				low[p] = min(low[p], lv)
			}
			if lv != index[v] {
				continue
			}
			k := len(stack) - 1
			for stack[k] != v {
				k--
			}
			comp := stack[k:]
			for _, x := range comp {
				if len(comp) > 1 {
					a.cyclic[x>>6] |= 1 << (x & 63)
				}
				index[x] = -1
			}
			stack = stack[:k]
		}
	}
}

// onCycle reports whether findCycles marked state s (every state before
// findCycles ran).
func (a *analyzer) onCycle(s uint32) bool {
	return a.cyclic == nil || a.cyclic[s>>6]&(1<<(s&63)) != 0
}

// fairComponent returns, for process p, a fair component (a strongly
// connected set of states where p waits, all expanded, that admits a fair
// cycle) containing the shallowest state of all fair components, that
// state, and the number of fair components.
//
// Weak fairness is monotone: if a component C fails because a weak family
// is enabled in every state of C and taken on no edge inside C, every
// strongly connected subset of C fails for the same reason, so C is
// discarded whole. A strong family enabled somewhere in C but never taken
// inside it rules out exactly the states where it is enabled: they are
// removed and the rest is decomposed again (the Emerson-Lei / Streett
// refinement). A component that passes both tests is fair: the cycle that
// walks all its edges satisfies every family. Fair components are
// disjoint, so the result does not depend on the order in which they are
// judged. If the analysis is stopped meanwhile it returns no component.
func (a *analyzer) fairComponent(p int) ([]uint32, uint32, int) {
	g := a.g
	var best []uint32
	var bestS uint32
	var bestD int32
	found := 0
	var work [][]uint32 // what remains of components after a refinement
	judge := func(c []uint32) {
		ok, remove := a.judge(c)
		if ok {
			found++
			better := false
			for _, s := range c {
				d := g.depth(s)
				if (best == nil && !better) || d < bestD || (d == bestD && s < bestS) {
					bestS, bestD, better = s, d, true
				}
			}
			if better {
				best = slices.Clone(c)
			}
			return
		}
		if remove == nil {
			return
		}
		var rest []uint32
		for _, s := range c {
			if !remove(s) {
				rest = append(rest, s)
			}
		}
		if len(rest) > 0 {
			work = append(work, rest)
		}
	}
	a.sccs(nil, func(s uint32) bool { return a.onCycle(s) && g.isWaiting(s, p) && g.expanded(s) }, judge)
	for len(work) > 0 && !a.st.stopped {
		rest := work[len(work)-1]
		work = work[:len(work)-1]
		a.stamp++
		st := a.stamp
		mark := a.marks()
		for _, s := range rest {
			mark[s] = st
		}
		a.sccs(rest, func(s uint32) bool { return a.mark[s] == st }, judge)
	}
	if a.st.stopped {
		return nil, 0, found
	}
	if best != nil {
		a.stamp++
		mark := a.marks()
		for _, s := range best {
			mark[s] = a.stamp
		}
	}
	return best, bestS, found
}

// judge decides a component (called from sccs's emit, while exactly the
// component's states are on the stack): fair; unfair with nothing to
// salvage (remove nil); or unfair unless the states that remove selects
// are dropped.
func (a *analyzer) judge(c []uint32) (bool, func(uint32) bool) {
	g := a.g
	a.famUsed = a.famUsed[:0]
	for _, s := range c {
		lo, hi := g.edges(s)
		for e := lo; e < hi; e++ {
			to, f := g.edge(e)
			if g.fams.class[f] == model.Unfair {
				continue
			}
			if a.seenAt[f] != s+1 {
				if a.cnt[f] == 0 {
					a.famUsed = append(a.famUsed, f)
				}
				a.seenAt[f] = s + 1
				a.cnt[f]++
			}
			if a.isOnStack(to) {
				a.taken[f] = true
			}
		}
	}
	weakFail := false
	var strongBad []uint32
	for _, f := range a.famUsed {
		if a.taken[f] {
			continue
		}
		switch g.fams.class[f] {
		case model.WeaklyFair:
			if int(a.cnt[f]) == len(c) {
				weakFail = true
			}
		case model.StronglyFair:
			strongBad = append(strongBad, f)
		}
	}
	for _, f := range a.famUsed {
		a.cnt[f], a.seenAt[f], a.taken[f] = 0, 0, false
	}
	if weakFail {
		return false, nil
	}
	if len(strongBad) == 0 {
		return true, nil
	}
	bad := make(map[uint32]bool, len(strongBad))
	for _, f := range strongBad {
		bad[f] = true
	}
	return false, func(s uint32) bool {
		lo, hi := g.edges(s)
		for e := lo; e < hi; e++ {
			if bad[g.family(e)] {
				return true
			}
		}
		return false
	}
}

// cycle builds a fair cycle from s0 through comp, the component that
// fairComponent returned (and left marked with a.stamp), and returns its
// transition indices. It grows a closed walk greedily: while some family
// is unsatisfied on the walk (weak: enabled at every state of the walk and
// never taken; strong: enabled at some state and never taken), it appends
// a shortest path inside the component to the nearest edge of such a
// family or, for a weak one, to the nearest state where it is disabled;
// then it closes the walk by a shortest path back to s0. Every extension
// satisfies a family for good, so this ends; the component being fair, a
// target always exists. The cycle is short, not necessarily shortest.
func (a *analyzer) cycle(s0 uint32, comp []uint32) []int {
	g := a.g
	st := a.stamp
	inC := func(s uint32) bool { return a.mark[s] == st }
	defer func() { // bfs stamps a.index inside the component
		for _, s := range comp {
			a.index[s] = 0
		}
	}()
	var walk []int64 // edge indices
	cur := s0
	for {
		unsat := a.unsatisfied(s0, walk)
		if len(unsat) == 0 && len(walk) > 0 && cur == s0 {
			break
		}
		var path []int64
		if len(unsat) == 0 {
			path = a.bfs(cur, inC, func(e int64) bool { return g.target(e) == s0 }, nil)
		} else {
			path = a.bfs(cur, inC,
				func(e int64) bool { return unsat[g.family(e)] },
				func(s uint32) bool { return a.disablesWeak(s, unsat) })
		}
		if path == nil {
			panic("explore: no fair cycle in a component judged fair (liveness bug)")
		}
		walk = append(walk, path...)
		cur = g.target(walk[len(walk)-1])
	}
	out := make([]int, len(walk))
	s := s0
	for k, e := range walk {
		lo, _ := g.edges(s)
		out[k] = int(e - lo)
		s = g.target(e)
	}
	return out
}

// unsatisfied returns the fair families that the closed walk from s0 along
// edges would violate.
func (a *analyzer) unsatisfied(s0 uint32, walk []int64) map[uint32]bool {
	g := a.g
	states := []uint32{s0}
	taken := map[uint32]bool{}
	for _, e := range walk {
		to, f := g.edge(e)
		taken[f] = true
		states = append(states, to)
	}
	if len(walk) > 0 {
		states = states[:len(states)-1] // the last is s0 again, or the open end
		if end := g.target(walk[len(walk)-1]); end != s0 {
			states = append(states, end)
		}
	}
	slices.Sort(states)
	states = slices.Compact(states)
	count := map[uint32]int{}
	for _, s := range states {
		seen := map[uint32]bool{}
		lo, hi := g.edges(s)
		for e := lo; e < hi; e++ {
			f := g.family(e)
			if g.fams.class[f] != model.Unfair && !seen[f] {
				seen[f] = true
				count[f]++
			}
		}
	}
	out := map[uint32]bool{}
	for f, n := range count {
		if taken[f] {
			continue
		}
		if g.fams.class[f] == model.StronglyFair || n == len(states) {
			out[f] = true
		}
	}
	return out
}

// disablesWeak reports whether some weak family of unsat is disabled at s.
func (a *analyzer) disablesWeak(s uint32, unsat map[uint32]bool) bool {
	g := a.g
	lo, hi := g.edges(s)
	for f := range unsat {
		if g.fams.class[f] != model.WeaklyFair {
			continue
		}
		enabled := false
		for e := lo; e < hi; e++ {
			if g.family(e) == f {
				enabled = true
				break
			}
		}
		if !enabled {
			return true
		}
	}
	return false
}

// bfs returns a shortest non-empty path of edges inside the component from
// src that ends with an edge for which edgeGoal holds, or at a state other
// than src for which stateGoal holds. It marks the states it reaches in
// a.index with a fresh stamp and their predecessors in a.low; the edge
// that reached a state u is the first edge of its predecessor to u (the
// search looks at a state's edges in order and marks u at the first).
func (a *analyzer) bfs(src uint32, in func(uint32) bool, edgeGoal func(int64) bool, stateGoal func(uint32) bool) []int64 {
	g := a.g
	a.bfsStamp++
	bs := a.bfsStamp
	trace := func(e int64) []int64 {
		var p []int64
		for {
			p = append(p, e)
			from := g.source(e)
			if from == src {
				break
			}
			e = a.firstEdge(uint32(a.low[from]), from)
		}
		slices.Reverse(p)
		return p
	}
	a.index[src] = bs
	queue := []uint32{src}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		lo, hi := g.edges(s)
		for e := lo; e < hi; e++ {
			u := g.target(e)
			if !in(u) {
				continue
			}
			if edgeGoal(e) {
				return trace(e)
			}
			if a.index[u] == bs {
				continue
			}
			a.index[u] = bs
			a.low[u] = int32(s)
			if stateGoal != nil && stateGoal(u) {
				return trace(e)
			}
			queue = append(queue, u)
		}
	}
	return nil
}

// firstEdge returns the first edge of s to u.
func (a *analyzer) firstEdge(s, u uint32) int64 {
	lo, hi := a.g.edges(s)
	for e := lo; e < hi; e++ {
		if a.g.target(e) == u {
			return e
		}
	}
	panic("explore: a BFS predecessor without an edge to its successor (liveness bug)")
}
