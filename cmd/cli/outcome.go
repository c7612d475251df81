package cli

import "github.com/tokenmc/tokenmc/explore"

// Verdicts as the --json outputs of check and simulate spell them (the
// values of explore.Verdict), and the stop reasons of an incomplete
// search (explore's Result.StopReason and its constants; "stop_reason" in
// the JSON): a public contract, compared by name instead of by string
// literal.
const (
	verdictOK         = "ok"
	verdictOKPartial  = "ok-partial"
	verdictViolation  = "violation"
	verdictIncomplete = "incomplete"

	stopInterrupted = explore.StopInterrupted
	stopMemory      = explore.StopMemory
	stopDisk        = explore.StopDisk
	stopMaxStates   = explore.StopMaxStates
	stopMaxDepth    = explore.StopMaxDepth
)
