package cli

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

// flipSys is a user's System whose successor function is not
// deterministic: every worker after the first yields the successors of the
// wrapped system in reverse order.
type flipSys struct {
	model.System
	workers atomic.Int32
}

func (f *flipSys) NewWorker() model.Worker {
	return &flipWorker{Worker: f.System.NewWorker(), flip: f.workers.Add(1) > 1}
}

type flipWorker struct {
	model.Worker
	flip bool
}

func (w *flipWorker) Successors(s []byte, yield func(*model.Transition, []byte) bool) {
	if !w.flip {
		w.Worker.Successors(s, yield)
		return
	}
	var ts []model.Transition
	var ns [][]byte
	w.Worker.Successors(s, func(t *model.Transition, n []byte) bool {
		ts = append(ts, *t)
		ns = append(ns, bytes.Clone(n))
		return true
	})
	for k := len(ts) - 1; k >= 0; k-- {
		if !yield(&ts[k], ns[k]) {
			return
		}
	}
}

// A user's algorithm whose successor function is not deterministic gets a
// one-line error from check (exit 2, the user's model is bad input), not
// a crash nor a trace of something else: the counterexample's rebuild
// (breadth-first search, one worker, so the search's and the rebuild's
// workers differ) does not reach the state the search found. The liveness
// check's rebuilds are refused the same way.
func TestNondeterministicUserAlgorithm(t *testing.T) {
	alg := algorithms.Algorithm{
		Name: "flip", Doc: "a ring whose successors change order", Source: "a test",
		Params: []spec.Param{{Name: "n", Doc: "processes", Min: 2, Max: 4, Default: 2}},
		Variants: []algorithms.Variant{
			{Name: "flip", Kind: spec.KindDefault, Doc: "Exit loses the token"},
		},
		Build: func(_ string, params map[string]int) (model.System, []model.Property, error) {
			p, err := lelann.New(lelann.DropOnExit, params["n"], 1)
			if err != nil {
				return nil, nil, err
			}
			p.Name = "flip"
			return &flipSys{System: p.System()}, nil, nil
		},
	}
	for _, args := range [][]string{
		{"check", "--algo", "flip", "--workers", "1", "--progress", "0"},
		{"check", "--algo", "flip", "--props", "starvation-freedom", "--progress", "0"},
	} {
		dir := t.TempDir()
		var out, errb bytes.Buffer
		code := Run(append(args, "--trace-out", dir+"/t.json"), &out, &errb, alg)
		if code != exitBadInput {
			t.Fatalf("%v: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", args, code, exitBadInput, out.String(), errb.String())
		}
		msg := errb.String()
		if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "flip is not deterministic") || !strings.Contains(msg, "modeltest.Check") {
			t.Fatalf("%v: stderr is not the one-line error:\n%s", args, msg)
		}
	}
}
