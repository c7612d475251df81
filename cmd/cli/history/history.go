// Package history adds the history command (and the linearizability check
// of run --verify) to the command line of package cmd/cli: it links the
// linearizability checker porcupine (github.com/anishathalye/porcupine).
// A program that embeds the command line imports it for its effect:
//
//	import _ "github.com/tokenmc/tokenmc/cmd/cli/history"
//
// Without it, cmd/cli does not link porcupine: its usage does not list
// history, 'history' says which package to import (exit 2), and run
// --verify reports the history as not checked. The tokenmc command
// imports it.
package history

import (
	"time"

	"github.com/tokenmc/tokenmc/cmd/internal/history"
	"github.com/tokenmc/tokenmc/cmd/internal/linearize"
	"github.com/tokenmc/tokenmc/cmd/internal/linked"
)

func init() {
	linked.Linearize = func(h *history.History, timeout time.Duration) linked.Linearizability {
		r := linearize.Check(h, timeout)
		return linked.Linearizability{Linearizable: r.Linearizable, Unknown: r.Unknown, Operations: r.Operations, Visualize: r.Visualize}
	}
}
