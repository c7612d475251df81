// Package cli is tokenmc's command line as a library: a program that
// describes its own algorithms gets every tokenmc command for them. Its
// main is one line,
//
//	func main() { os.Exit(cli.Main(myAlgorithms...)) }
//
// where each algorithm is an algorithms.Algorithm (name, variants with
// their kinds, breaks and parameters, numeric parameters with ranges and
// defaults, Build). cmd/tokenmc is exactly that call with the built-in
// algorithms, algorithms.All(). Main checks every description with
// spec.Prepare; a description it refuses, or two algorithms with the
// same name, is a one-line error with exit 2. Every name the command line
// resolves (--algo, the algorithm a trace or event log records, list,
// report, the did-you-mean hints) is looked up among the algorithms given
// to Main, never in the built-in registry, so a trace of a user's
// algorithm replays with the user's binary. The system a variant's Build
// returns must carry the variant's name (model.Info.Name), which traces
// record.
//
// The commands, with the same flags, --json fields and exit codes for
// every algorithm:
//
//	list [--json]                            algorithms, variants, parameters, properties
//	check --algo NAME [flags]                explore every reachable state, check safety
//	                                         and (--props) liveness properties
//	replay FILE [--json]                     re-execute a counterexample trace
//	simulate --algo NAME [flags]             random walks (uniform, PCT, swarm) checking safety
//	swarm plan|merge [flags]                 K diversified shards of check or simulate as a
//	                                         Kubernetes Indexed Job or Slurm array; one verdict
//	explore --algo NAME [flags]              walk the state space by hand in a web browser
//	report [--out FILE] [--json]             check every variant at its defaults; Markdown table
//	measure --algos A,B --n N --load L       message complexity and delays by simulation
//	run --algo NAME [flags]                  run the algorithm as concurrent processes, log events
//	validate FILE [--algo NAME] [--follow]   check that an event log is a behaviour of the model
//	history FILE [--html OUT] [--json]       check a lock history for linearizability
//	show FILE [--format text|svg|html]       render a trace or event log as a chart
//	help [COMMAND]                           the usage, or a command's flags
//	version                                  the version (also --version)
//
// Messages name the program as it was invoked: Main takes the name from
// os.Args[0] ("my-tool: unknown algorithm ...; 'my-tool list' shows ...",
// "replay it with: my-tool replay FILE"), Run always says "tokenmc".
//
// A variant's own parameters (algorithms.Variant.Params, e.g. cyclic=1 for
// a starvation mutant) are used by check, simulate, run and explore unless
// a flag overrides them; check and simulate name them in their header
// line ("parameters of the variant: cyclic=1") and in "variant_params" of
// their JSON, run in its summary line, and list shows them. measure uses
// them too, except n and r (which it sets), and names them in its rows'
// note and "variant_params". replay uses the parameters recorded in
// the trace.
//
// Exit codes: 0 every checked property holds (or the trace replays and
// reproduces its violation), 1 a property is violated (or the trace
// diverges), 2 bad input, 3 stopped early by a bound or an interrupt
// (Ctrl-C prints a partial summary), 4 internal error: a bug in tokenmc (a
// panic), reported as "tokenmc: internal error: ..." with the command line
// and the top stack frames, 5 the model under check failed: its code (a
// handler, a hook, a Successors) panicked at a reachable state; check and
// simulate report the handler and action, verdict "model-error", and write
// a trace to that state that replay re-executes to the same failure (exit
// 5 again); run reports it with the log up to the failure. Output that
// cannot be written (a full disk, a
// closed pipe) is an error too: exit 2 with a one-line message, never a
// silent 0.
//
// The version printed by 'version' is set at link time with
// -ldflags "-X github.com/tokenmc/tokenmc/cmd/cli.version=v1.2.3", or
// taken from the module version 'go install' recorded.
package cli
