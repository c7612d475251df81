package explore

import (
	"context"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

// valueWorker is a model.Worker of a type Go cannot compare (a struct
// value with a slice): a search must never compare workers (a comparison
// of two such interface values panics).
type valueWorker struct {
	model.Worker
	scratch []byte
}

type valueWorkerSys struct{ model.System }

func (s valueWorkerSys) NewWorker() model.Worker {
	return valueWorker{Worker: s.System.NewWorker()}
}

// The filter of recent successors serves each goroutine of a block its
// own table without comparing workers, and the search with workers of an
// incomparable type counts what the plain one does.
func TestRecentFilterWithIncomparableWorkers(t *testing.T) {
	sys := ring(4, 2, false)
	want, err := Check(context.Background(), sys, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer func(s int) { serialBelow = s }(serialBelow)
	serialBelow = 0 // parallel blocks, so both goroutines take a table
	got, err := Check(context.Background(), valueWorkerSys{sys}, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got.Verdict != want.Verdict || got.States != want.States || got.Transitions != want.Transitions {
		t.Fatalf("got %s %d states %d transitions, want %s %d %d", got.Verdict, got.States, got.Transitions, want.Verdict, want.States, want.Transitions)
	}
}
