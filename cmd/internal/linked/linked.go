// Package linked holds the parts of the command line that link large
// dependencies: the linearizability check of lock histories (porcupine)
// and the figures of measure --out (gonum/plot). Package cmd/cli calls
// them through the variables here, which are nil unless the program links
// the package that sets them: github.com/tokenmc/tokenmc/cmd/cli/history
// sets Linearize, github.com/tokenmc/tokenmc/cmd/cli/figures sets Figures
// (cmd/tokenmc imports both). A program that embeds cmd/cli without them
// does not link porcupine nor gonum/plot; the commands that need them say
// what to import.
package linked

import (
	"context"
	"io"
	"time"

	"github.com/tokenmc/tokenmc/cmd/internal/history"
	"github.com/tokenmc/tokenmc/explore/measure"
)

// Linearizability is the verdict of a linearizability check of a history.
type Linearizability struct {
	// Linearizable: some order of the operations, each taking effect at
	// one instant between its call and its return, is a legal run of the
	// history's sequential model.
	Linearizable bool
	// Unknown: the check gave up at its timeout.
	Unknown bool
	// Operations is the number of operations checked.
	Operations int
	// Visualize writes porcupine's HTML visualisation of the check.
	Visualize func(w io.Writer) error
}

// Linearize checks h for linearizability against its header's model,
// giving up after timeout (0: no limit). Nil unless the program links
// github.com/tokenmc/tokenmc/cmd/cli/history.
var Linearize func(h *history.History, timeout time.Duration) Linearizability

// Figures simulates the runs of the docs' figures and table and writes
// them into dir, progress lines to log; resolve fills in each
// configuration's Build and Facts. Nil unless the program links
// github.com/tokenmc/tokenmc/cmd/cli/figures.
var Figures func(ctx context.Context, dir string, log io.Writer, resolve func(cfg *measure.Config) error) error

// HistoryPackage and FiguresPackage are the import paths that set
// Linearize and Figures, for the messages of a program without them.
const (
	HistoryPackage = "github.com/tokenmc/tokenmc/cmd/cli/history"
	FiguresPackage = "github.com/tokenmc/tokenmc/cmd/cli/figures"
)
