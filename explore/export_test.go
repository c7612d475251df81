package explore

// SetTestHookAnalysisStep makes CheckLiveness call f before each step of
// its analysis, for tests in package explore_test; restore undoes it.
func SetTestHookAnalysisStep(f func(phase string, step int)) (restore func()) {
	old := testHookAnalysisStep
	testHookAnalysisStep = f
	return func() { testHookAnalysisStep = old }
}

// DefaultSwarmSketch is the sample size of a swarm shard
// (SwarmShard.Apply), for tests in package explore_test.
const DefaultSwarmSketch = defaultSwarmSketch

// SetInsertModes sets how breadth-first blocks insert their successors
// (direct inserts in serial blocks, deferred look-ups in parallel blocks)
// and the size below which a block is serial, for tests that compare the
// ways; restore puts the defaults back.
func SetInsertModes(direct, deferred bool, serial int) (restore func()) {
	d, f, s := directInserts, deferInserts, serialBelow
	directInserts, deferInserts, serialBelow = direct, deferred, serial
	return func() { directInserts, deferInserts, serialBelow = d, f, s }
}

// SetRecentFilter turns the breadth-first search's filter of recent
// successors on or off, for tests that compare; restore puts the default
// back.
func SetRecentFilter(on bool) (restore func()) {
	r := recentFilter
	recentFilter = on
	return func() { recentFilter = r }
}

// SetCommuteSteps turns the breadth-first search's use of SuccessorsAfter
// on or off, for tests that compare; restore puts the default back.
func SetCommuteSteps(on bool) (restore func()) {
	c := commuteSteps
	commuteSteps = on
	return func() { commuteSteps = c }
}

// OnAdmit has f told every state a breadth-first block admits, in level
// order, with its parent's index and action (admitted); restore removes
// it.
func OnAdmit(f func(depth int, state []byte, parent int64, action uint16)) (restore func()) {
	admitted = f
	return func() { admitted = nil }
}

// The successor orders a swarm shard sets (Options.Order), for the tests
// that search under each.
const (
	OrderNatural  = orderNatural
	OrderReversed = orderReversed
	OrderShuffled = orderShuffled
)

// ErrCheckpoint wraps every error about a checkpoint to resume from, for
// the tests that tell them apart.
var ErrCheckpoint = errCheckpoint
