package cli

import (
	"fmt"
	"io"

	"github.com/tokenmc/tokenmc/traces"
)

type replayReport struct {
	File       string `json:"file"`
	Algorithm  string `json:"algorithm"`
	Property   string `json:"property"`
	Steps      int    `json:"steps"`
	Reproduced bool   `json:"reproduced"`
	DivergedAt int    `json:"diverged_at,omitempty"`
	Reason     string `json:"reason,omitempty"`
	// ModelError: the model failed (panicked) during the replay (exit 5):
	// as recorded, for a model-error trace that is reproduced.
	ModelError *modelErrorJSON `json:"model_error,omitempty"`
}

func cmdReplay(cat *catalog, args []string, stdout io.Writer) (int, error) {
	fs := cat.newFlagSet("replay", "tokenmc replay FILE [--json]\n\nRe-executes every step of a trace through the model and checks that it\nreproduces the recorded states and the recorded property violation. For a\nlasso (a starvation-freedom trace) it also checks that the cycle returns to\nits start, that the starving process waits throughout, and that the cycle is\nfair: every action family enabled throughout it is taken in it.", stdout)
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	quiet := fs.Bool("quiet", false, "do not print the trace")
	full := fs.Bool("full", false, "print every state of the trace in full, not only what each step changed")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, badInput("replay needs exactly one trace FILE, got %d arguments", len(pos))
	}
	file := pos[0]
	tr, res, err := replayFile(cat, file)
	if err != nil {
		return 0, err
	}
	rep := replayReport{File: file, Algorithm: tr.Algorithm, Property: tr.Property, Steps: len(tr.Steps),
		Reproduced: res.OK, DivergedAt: res.DivergedAt, Reason: res.Reason}
	if f := res.ModelError; f != nil {
		rep.ModelError = &modelErrorJSON{Message: f.Message, Action: f.Action, Handler: f.Handler, Length: res.Steps}
	}
	if *asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return 0, err
		}
	} else {
		if !*quiet && res.OK {
			_ = traces.Render(stdout, tr, traces.RenderOptions{Full: *full})
			fmt.Fprintln(stdout)
		}
		switch {
		case res.OK && tr.IsLasso():
			fmt.Fprintf(stdout, "replay: ok, %d steps re-executed; the cycle from step %d returns to its start, P%d waits throughout and the cycle is fair: %s is violated as recorded\n",
				len(tr.Steps), *tr.Loop, *tr.WaitingProcess, tr.Property)
		case res.OK && rep.ModelError != nil:
			fmt.Fprintf(stdout, "replay: ok, %d steps re-executed; the model fails at the final state as recorded: %s\n", len(tr.Steps), rep.ModelError.Message)
		case res.OK && tr.IsWitness():
			fmt.Fprintf(stdout, "replay: ok, %d steps re-executed; %s\n", len(tr.Steps), res.Reason)
		case res.OK && tr.WaitingProcess != nil:
			fmt.Fprintf(stdout, "replay: ok, %d steps re-executed; %s\n", len(tr.Steps), res.Reason)
		case res.OK:
			fmt.Fprintf(stdout, "replay: ok, %d steps re-executed; the final state violates %s as recorded\n", len(tr.Steps), tr.Property)
		default:
			fmt.Fprintf(stdout, "replay: NOT REPRODUCED: %s\n", res.Reason)
		}
	}
	if rep.ModelError != nil && (res.OK || res.DivergedAt > 0) {
		return exitModelError, nil // the model's own failure, as check reports it
	}
	if res.OK {
		return exitOK, nil
	}
	return exitViolation, nil
}

// replayFile reads the trace file and replays it over its algorithm (and
// channel capacity); the error is bad input (an unreadable trace, an
// unknown algorithm).
func replayFile(cat *catalog, file string) (*traces.Trace, traces.Result, error) {
	tr, err := traces.ReadFile(file)
	if err != nil {
		return nil, traces.Result{}, badInput("%v", err)
	}
	a, v, err := cat.lookup(tr.Algorithm)
	if err != nil {
		return nil, traces.Result{}, badInput("%s: %v", file, err)
	}
	sys, extra, err := a.BuildSim(v.Name, tr.Params)
	if err != nil {
		return nil, traces.Result{}, badInput("%s: %v", file, err)
	}
	capacity, err := traceCapacity(tr.Options) // check --channel-capacity
	if err != nil {
		return nil, traces.Result{}, err
	}
	if sys, err = applyCapacity(sys, v.Name, capacity); err != nil {
		return nil, traces.Result{}, err
	}
	res, err := traces.Replay(sys, allProps(extra), tr)
	if err != nil {
		return nil, traces.Result{}, badInput("%s: %v", file, err)
	}
	return tr, res, nil
}
