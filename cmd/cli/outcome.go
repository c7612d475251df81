package cli

import (
	"fmt"
	"github.com/tokenmc/tokenmc/model/protocol"
	"io"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

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
	// verdictModelError: the model under check failed (panicked) at a
	// reachable state (explore.ModelFailed); exit code exitModelError.
	verdictModelError = string(explore.ModelFailed)

	stopInterrupted = explore.StopInterrupted
	stopMemory      = explore.StopMemory
	stopDisk        = explore.StopDisk
	stopMaxStates   = explore.StopMaxStates
	stopMaxDepth    = explore.StopMaxDepth
)

// exitModelError is the exit code of a run whose model under check
// failed (panicked) at a reachable state: the model's error, not a
// violation of a property and not a bug of tokenmc (exit 4). A public
// contract, beside the codes of dispatch.go.
const exitModelError = 5

// modelErrorJSON is the "model_error" member of the --json outputs of
// check, simulate and replay: how the model failed and the trace that
// reaches the state where it did.
type modelErrorJSON struct {
	Message string `json:"message"`           // the failure in one line
	Action  string `json:"action,omitempty"`  // the action being stepped, when known
	Handler string `json:"handler,omitempty"` // the handler or hook that panicked, when known
	// Length is the number of steps to the state where the model failed.
	Length    int    `json:"length"`
	TraceFile string `json:"trace_file,omitempty"`
}

// reportModelPanic reports a failure of the model's code that no command
// turned into its own report (no trace: the command was not a search):
// the failure and where in the model it panicked.
func reportModelPanic(stderr io.Writer, prog string, mp *protocol.ModelPanic) {
	fmt.Fprintf(stderr, "%s: the model failed (exit 5, not a bug in %s): %s\n", prog, prog, mp.Error())
	printPanicFrames(stderr, mp.Stack)
}

// printPanicFrames prints the top frames of a model's panic stack.
func printPanicFrames(stderr io.Writer, stack []byte) {
	if frames := topFrames(stack, maxFrames); len(frames) > 0 {
		fmt.Fprintln(stderr, "  where it panicked:")
		for _, f := range frames {
			fmt.Fprintf(stderr, "    %s\n", f)
		}
	}
}

// writeModelError writes the trace of the model's failure me (a path of
// sys, from an initial state) to traceOut, or to the default name
// ALGO.model-error.trace.json (ALGO.model-error.sim.trace.json for
// simulate, sim), reports the failure and the top frames of
// its stack on stderr, and returns it for the --json output with the
// trace (nil if it could not be built).
func writeModelError(prog string, sys model.System, meta traces.Meta, me *explore.ModelError, traceOut string, sim bool, stderr io.Writer) (*modelErrorJSON, *traces.Trace) {
	fmt.Fprintf(stderr, "%s: the model failed: %s\n", prog, me.Error())
	printPanicFrames(stderr, me.Panic.Stack)
	out := &modelErrorJSON{Message: me.Error(), Action: me.Panic.Action, Handler: me.Panic.Handler, Length: me.Len()}
	meta.ModelError = me.Panic
	tr, err := traces.FromSteps(sys.NewWorker(), meta, me.Path, me.Actions)
	if err != nil {
		fmt.Fprintf(stderr, "%s: could not build the trace to the failing state: %v\n", prog, err)
		return out, nil
	}
	path := traceOut
	if path == "" {
		path = defaultFile(meta.Algorithm, tr.Property, sim) // "model-error"
	}
	out.TraceFile = saveTrace(prog, stderr, path, path == traceOut, tr)
	return out, tr
}

// modelErrorLine is the verdict line of a model failure.
func modelErrorLine(me *modelErrorJSON) string {
	return fmt.Sprintf("verdict: MODEL ERROR after %d steps: %s", me.Length, me.Message)
}

// printModelError prints the trace of a model failure and how to replay
// it, after the verdict line.
func printModelError(w io.Writer, prog string, me *modelErrorJSON, tr *traces.Trace) {
	fmt.Fprintln(w)
	if tr != nil {
		_ = traces.Render(w, tr)
	}
	if me.TraceFile != "" {
		fmt.Fprintf(w, "\ntrace written to %s; replay it with: %s replay %s\n", me.TraceFile, progOr(prog), me.TraceFile)
	}
}
