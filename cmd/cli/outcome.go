package cli

// Verdicts as the --json outputs of check and simulate spell them (the
// values of explore.Verdict), and the stop reasons of an incomplete
// search (explore's Result.StopReason; "stop_reason" in the JSON): a
// public contract, compared by name instead of by string literal.
const (
	verdictOK         = "ok"
	verdictOKPartial  = "ok-partial"
	verdictViolation  = "violation"
	verdictIncomplete = "incomplete"

	stopInterrupted = "interrupted"
	stopMemory      = "memory"
	stopDisk        = "disk"
	stopMaxStates   = "max-states"
	stopMaxDepth    = "max-depth"
)
