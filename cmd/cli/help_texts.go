package cli

// commandHelp holds the short --help page of every command (help.go
// renders it). A flag a command defines and its entry here does not name is
// listed after the named ones, with the first clause of its documentation;
// algorithm parameters other than --n and --r are shown only for the
// algorithm --algo names.
var commandHelp = map[string]cmdHelp{
	"list": {
		usage: "list [NAME...] [--brief] [--json]",
		about: `Lists the algorithms: Suzuki-Kasami first, then the other algorithms the
papers describe, then the rest. With NAME (an algorithm or NAME/VARIANT) only
that algorithm, with its parameters, properties and variants.`,
		flags: []string{"brief", "json"},
		examples: []string{
			"list --brief",
			"list suzuki-kasami",
			"list --json raymond",
		},
	},
	"check": {
		usage: "check --algo NAME[/VARIANT] [--n N] [--r R] [flags]",
		about: `Explores every reachable state (breadth first: a counterexample is a shortest
one) and checks the safety properties, or the liveness ones named in --props.
A violation is written as a trace file for replay, show and explore.`,
		flags: []string{"algo", "n r", "props", "fairness", "out", "report", "graph", "json", "quiet", "verbose", "full",
			"coverage", "workers", "max-states max-depth", "exact dfs", "symmetry", "channel-capacity",
			"memory workdir spill-above", "bitstate", "checkpoint checkpoint-every", "resume", "progress"},
		docs: map[string]string{
			"n r":                         "processes N, requests per process R",
			"props":                       "properties to check, comma-separated (default: every safety one)",
			"fairness":                    "message fairness for starvation-freedom (default weak)",
			"out":                         "counterexample trace file (default ALGO.PROPERTY.trace.json)",
			"report":                      "also write an HTML report of the run",
			"graph":                       "also write the state graph (DOT, or JSON for .json) of a small space",
			"verbose":                     "also print time, memory and collision figures",
			"max-states max-depth":        "stop (exit 3) after X states or at depth D",
			"exact dfs":                   "store full states; search depth first",
			"memory workdir spill-above":  "memory budget; where and when to spill to disk",
			"checkpoint checkpoint-every": "checkpoint to DIR every D (default 10m)",
			"coverage":                    "print how often each action fired (a separate walk)",
			"full":                        "print every state of a counterexample in full",
			"channel-capacity":            "at most K messages per channel (an under-approximation)",
			"bitstate":                    "bitstate search in a bit array of SIZE (may miss states)",
			"symmetry":                    "one state per orbit of the algorithm's symmetry group",
			"quiet":                       "print only the verdict and the trace file",
		},
		examples: []string{
			"check --algo suzuki-kasami --n 3 --r 1",
			"check --algo suzuki-kasami/send-in-cs --n 2 --out sk.trace.json",
			"check --algo raymond --n 3 --props starvation-freedom",
		},
	},
	"replay": {
		usage: "replay FILE [--json] [--quiet] [--full]",
		about: `Re-executes every step of a trace through the model and checks that it
reproduces the recorded states and violation (for a lasso, that its cycle is
fair and the process starves along it).`,
		flags: []string{"json", "quiet", "full"},
		examples: []string{
			"replay suzuki-kasami_send-in-cs.mutex.trace.json",
			"replay --quiet raymond.starvation-freedom.P1.trace.json",
		},
	},
	"simulate": {
		usage: "simulate --algo NAME[/VARIANT] [--n N] [--r R] [flags]",
		about: `Random walks checking every safety property at each step, for process
counts beyond exhaustive search. The walks depend on --seed only. A violation
is shrunk and written as a trace file for replay, show and explore.`,
		flags: []string{"algo", "n r", "props", "runs steps", "seed", "strategy", "depth", "workers", "out",
			"no-shrink", "json", "quiet", "full", "channel-capacity", "progress"},
		docs: map[string]string{
			"n r":              "processes N, requests per process R",
			"runs steps":       "K runs of at most S steps each (default 100, 10000)",
			"workers":          "goroutines running walks (default: every core)",
			"out":              "counterexample trace file (default ALGO.PROPERTY.sim.trace.json)",
			"full":             "print every state of a counterexample in full",
			"channel-capacity": "at most K messages per channel",
			"depth":            "PCT bug depth D (default 3)",
		},
		examples: []string{
			"simulate --algo suzuki-kasami --n 16 --r 2",
			"simulate --algo raymond/keep-holder --n 8 --strategy pct --runs 1000",
		},
	},
	"explore": {
		usage: "explore --algo NAME[/VARIANT] [--n N] [--r R] [--trace FILE] [--addr HOST:PORT]",
		about: `Serves an explorer of the state space on a local web page (the URL is
printed): the state, every enabled action, the chart of the path so far, and a
box that jumps through a trace. With --trace alone the trace's model is used.`,
		flags: []string{"algo", "n r", "props", "trace", "addr"},
		docs:  map[string]string{"n r": "processes N, requests per process R"},
		examples: []string{
			"explore --algo suzuki-kasami --n 3",
			"explore --trace suzuki-kasami_send-in-cs.mutex.trace.json",
		},
	},
	"report": {
		usage: "report [--out FILE] [--algo NAMES] [--max-states X] [--json]",
		about: `Checks every variant of every algorithm (or of those --algo names) at its
default parameters and prints a Markdown table of states and verdicts. Exit 1
when a row differs from its expectation, 3 when a row is incomplete.`,
		flags: []string{"algo", "out", "max-states", "workers", "json", "quiet"},
		docs: map[string]string{
			"algo": "algorithms to report on, comma-separated (default: all)",
			"out":  "write the table to FILE, keeping its hand-written part",
		},
		examples: []string{
			"report --algo suzuki-kasami,raymond",
			"report --out docs/results.md",
		},
	},
	"measure": {
		usage: "measure --algo A,B --n N[,N...] --load light|heavy|LAMBDA[,...] [flags]\n       tokenmc measure --out DIR",
		about: `Discrete-event simulation of the models: messages per CS and delays beside
the published formulas, means over --reps replications with 95% confidence
intervals. --out DIR writes the paper figures (SVG, PNG) and a table instead.`,
		flags: []string{"algo", "n", "load", "t-msg t-exec", "exp", "timers", "entries warmup", "reps", "seed",
			"workers", "json", "out", "quiet"},
		docs: map[string]string{
			"algo":           "algorithms, comma-separated (see tokenmc list)",
			"t-msg t-exec":   "message delay and CS duration (default 0.1 each)",
			"entries warmup": "CS entries measured, and discarded first (2000, 200)",
			"out":            "write the paper figures and table to DIR and exit",
			"quiet":          "no progress lines on stderr",
		},
		examples: []string{
			"measure --algo suzuki-kasami,raymond --n 5,10 --load light,heavy",
			"measure --algo raymond --tree 1 --n 15 --load 0.5",
			"measure --out figures/",
		},
	},
	"run": {
		usage: "run --algo NAME[/VARIANT] [--n N] [--r R] [--out FILE] [--history FILE] [flags]",
		about: `Runs the algorithm as N concurrent processes over Go channels or loopback
TCP, with random delays, and logs every event with vector timestamps for
'tokenmc validate'; --history writes the lock history for 'tokenmc history'.`,
		flags: []string{"algo", "n r", "duration", "transport", "out", "history", "verify", "seed",
			"max-delay max-cs max-think", "progress", "quiet"},
		docs: map[string]string{
			"n r":                        "processes N, requests per process R",
			"out":                        "event log file (default ALGO.log.jsonl, never replaced)",
			"max-delay max-cs max-think": "upper bounds of message delays, CS and think times",
		},
		examples: []string{
			"run --algo suzuki-kasami --n 4 --r 3 --verify",
			"run --algo raymond --n 5 --transport tcp --out raymond.log.jsonl",
		},
	},
	"validate": {
		usage: "validate FILE|- [--algo NAME] [--mapping FILE] [--follow] [--all] [--complete]",
		about: `Checks that an event log (docs/eventlog.md) is a behaviour of the model its
header names (or --algo): a full log is replayed in happens-before order (a
step's sends and entry may be logged late, as concurrent programs do), a
partial one searched for; a log cut anywhere is a prefix. Exit 1 names the
first event nothing explains.`,
		flags: []string{"algo", "mapping", "follow", "idle", "all", "complete", "atomic", "max-states", "out", "json", "quiet"},
		docs: map[string]string{
			"all":        "full logs: report every divergence, not only the first",
			"complete":   "the run ended cleanly: unlogged effects and unserved requests count",
			"atomic":     "full logs: each step's effects follow its trigger directly",
			"out":        "partial logs: write the explaining behaviour as a trace",
			"idle":       "with --follow: stop when the file has not grown for D",
			"max-states": "partial logs: undecided (exit 3) after X states",
		},
		examples: []string{
			"validate suzuki-kasami.log.jsonl",
			"validate --algo suzuki-kasami/send-in-cs run.log.jsonl",
			"validate --follow --idle 5s raymond.log.jsonl",
		},
	},
	"history": {
		usage: "history FILE [--model lock|group-lock|locks] [--mapping FILE] [--out OUT.html]",
		about: `Checks a client-visible lock history (or the event log of 'tokenmc run') for
linearizability with porcupine. With --out, or on a violation, it writes
porcupine's visualisation inside a tokenmc page.`,
		flags: []string{"model", "mapping", "out", "timeout", "json"},
		docs: map[string]string{
			"out":   "HTML visualisation file (default on a violation: FILE.porcupine.html)",
			"model": "lock, group-lock or locks (default: the header's, else lock)",
		},
		examples: []string{
			"history run.history.jsonl",
			"history suzuki-kasami.log.jsonl --out history.html",
		},
	},
	"show": {
		usage: "show FILE [--format text|svg|html] [--out OUT] [--algo NAME] [--mapping FILE]",
		about: `Renders a trace or an event log as a message sequence chart: a lifeline per
process, the token's path, CS intervals and the violating step marked; html
steps through the trace with the state after each step.`,
		flags: []string{"format", "out", "algo", "mapping"},
		examples: []string{
			"show suzuki-kasami_send-in-cs.mutex.trace.json",
			"show --format html --out sk.html suzuki-kasami_send-in-cs.mutex.trace.json",
		},
	},
}
