// Command tokenmc is a model checker and trace verifier for token-based
// distributed mutual exclusion, over the built-in algorithms of package
// algorithms:
//
//	tokenmc list [--json]                            algorithms, variants, parameters
//	tokenmc check --algo NAME [flags]                check every reachable state
//	tokenmc replay FILE [--json]                     re-execute a counterexample trace
//	tokenmc simulate --algo NAME [flags]             random walks checking safety at large N
//	tokenmc explore --algo NAME [flags]              walk the state space in a web browser
//	tokenmc report [--out FILE] [--json]             every variant at its defaults
//	tokenmc swarm plan|merge [flags]                 a check as K shards on a cluster, merged
//	tokenmc measure --algos A,B --n N --load L       message complexity and delays
//	tokenmc run --algo NAME [flags]                  run as concurrent processes, log events
//	tokenmc validate FILE [--algo NAME] [--follow]   check an event log against the model
//	tokenmc history FILE [--out OUT] [--json]        check a lock history (porcupine)
//	tokenmc show FILE [--format text|svg|html]       render a trace or event log
//	tokenmc help [COMMAND]                           usage, or a command's flags
//	tokenmc version                                  the version
//
// Exit codes: 0 ok, 1 violation (or a trace that diverges), 2 bad input,
// 3 stopped early by a bound or Ctrl-C, 4 internal error. The command line
// is package cmd/cli, which a program with its own algorithms calls the
// same way: os.Exit(cli.Main(itsAlgorithms...)), and that imports
// cmd/cli/history and cmd/cli/figures, as this one does, for the history
// // command and measure's figures. Set the version at link time with
// -ldflags "-X github.com/tokenmc/tokenmc/cmd/cli.version=v1.2.3".
package main

import (
	"os"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/cmd/cli"
	// The commands that link large dependencies register themselves:
	// history (porcupine) and measure --out's figures (gonum/plot).
	_ "github.com/tokenmc/tokenmc/cmd/cli/figures"
	_ "github.com/tokenmc/tokenmc/cmd/cli/history"
)

func main() { os.Exit(cli.Main(algorithms.All()...)) }
