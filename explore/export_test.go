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
