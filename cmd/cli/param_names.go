package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms"
)

// commandFlags are the own flags of the commands that take the algorithms'
// parameter flags (addParamFlags), by command. measure's --n and --timers
// are not listed: they replace the parameters of those names there on
// purpose (addParamFlags skips them), for every algorithm.
// TestParamNamedLikeFlag checks this list against the commands' --help.
var commandFlags = map[string][]string{
	"check": {"algo", "bitstate", "channel-capacity", "checkpoint", "checkpoint-every", "checkpoint-replace", "coverage", "dfs", "exact", "fairness", "full", "graph", "json",
		"max-depth", "max-states", "memory", "out", "progress", "props", "quiet", "report", "resume", "spill-above", "swarm", "swarm-depth",
		"swarm-index", "swarm-out", "symmetry", "trace-out", "verbose", "workdir", "workers"},
	"explore": {"addr", "algo", "props", "trace"},
	"measure": {"algo", "algos", "entries", "exp", "figures", "json", "load", "out", "quiet", "reps", "seed", "t-exec", "t-msg", "warmup", "workers"},
	"run":     {"algo", "duration", "history", "log", "max-cs", "max-delay", "max-think", "out", "progress", "quiet", "seed", "transport", "verify"},
	"simulate": {"algo", "channel-capacity", "depth", "full", "json", "no-shrink", "progress", "props", "out", "quiet", "runs", "seed", "steps", "strategy",
		"swarm", "swarm-index", "swarm-out", "trace-out", "workers"},
}

// checkParamNames refuses a parameter of a named like a flag of a command
// that takes parameter flags (or like -h/-help): its flag would clash
// with that command's own, which either crashes the flag package or
// leaves the parameter impossible to set.
func checkParamNames(a algorithms.Algorithm) error {
	cmds := make([]string, 0, len(commandFlags))
	for c := range commandFlags {
		cmds = append(cmds, c)
	}
	slices.Sort(cmds)
	for _, p := range a.Params {
		var in []string
		for _, c := range cmds {
			if p.Name == "h" || p.Name == "help" || slices.Contains(commandFlags[c], p.Name) {
				in = append(in, c)
			}
		}
		if len(in) > 0 {
			return fmt.Errorf("%s: parameter %q is named like the flag --%s of %s; give the parameter another name", a.Name, p.Name, p.Name, strings.Join(in, ", "))
		}
	}
	return nil
}
