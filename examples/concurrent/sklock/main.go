// Command sklock is a distributed lock, Suzuki and Kasami's broadcast
// algorithm, written as concurrent Go is usually written: per node a
// receiver goroutine, the application's goroutine that polls until it
// holds the token, one mutex for the node's state, unbuffered channels.
// It logs what it does with tokenmc's record package, in its own words
// (nodes "node-0", ...; messages "REQ7", "TOKEN q=[2] ln=[3 0 1]"), and
// tokenmc checks its runs through a mapping file with regular
// expressions:
//
//	go run ./examples/concurrent/sklock --n 3 --rounds 20 --log sk.jsonl
//	tokenmc validate sk.jsonl --mapping examples/concurrent/sklock/mapping.json
//
// --cs-only logs only requests, entries and exits; --threads names the
// goroutine (app or receiver) of each event. --bug plants one of
// three realistic bugs (window, noappend, keep; see Bugs), which validate
// rejects at the first event no behaviour of the model explains.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tokenmc/tokenmc/traces/eventlog"
	"github.com/tokenmc/tokenmc/traces/record"
)

func main() {
	var opts Options
	flag.IntVar(&opts.Nodes, "n", 3, "number of nodes (2..64)")
	flag.IntVar(&opts.Rounds, "rounds", 20, "critical sections per node (1..100000)")
	flag.Uint64Var(&opts.Seed, "seed", 1, "seed of every delay, think time and CS time")
	flag.DurationVar(&opts.MaxDelay, "max-delay", 200*time.Microsecond, "largest message delay")
	flag.DurationVar(&opts.MaxCS, "max-cs", 200*time.Microsecond, "longest critical section")
	flag.DurationVar(&opts.MaxThink, "max-think", 200*time.Microsecond, "longest time between two critical sections")
	flag.DurationVar(&opts.Poll, "poll", 0, "how often a waiting node checks for the token (0: as often as it can)")
	logFile := flag.String("log", "sklock.jsonl", "write the event log to `FILE`")
	csOnly := flag.Bool("cs-only", false, "log only requests, entries and exits")
	flag.BoolVar(&opts.Threads, "threads", false, "mark each event with the goroutine that logged it (\"thread\": app or receiver)")
	bug := flag.String("bug", "", "plant a bug: window (hand the token over between its arrival and the entry), noappend (release appends to an empty queue only), keep (keep the token after passing it on)")
	flag.Parse()
	if flag.NArg() > 0 {
		fail("unexpected argument %q", flag.Arg(0))
	}
	if opts.Nodes < 2 || opts.Nodes > 64 {
		fail("--n must be in 2..64, got %d", opts.Nodes)
	}
	if opts.Rounds < 1 || opts.Rounds > 100000 {
		fail("--rounds must be in 1..100000, got %d", opts.Rounds)
	}
	if opts.MaxDelay < 0 || opts.MaxCS < 0 || opts.MaxThink < 0 || opts.Poll < 0 {
		fail("--max-delay, --max-cs, --max-think and --poll must be >= 0")
	}
	switch *bug {
	case "":
	case "window":
		opts.Bugs.Window = true
	case "noappend":
		opts.Bugs.NoAppend = true
	case "keep":
		opts.Bugs.Keep = true
	default:
		fail("--bug %q is unknown; valid: window, noappend, keep", *bug)
	}
	log, err := record.Create(*logFile, config(opts, *csOnly))
	if err != nil {
		fail("%v", err)
	}
	res := Run(opts, log)
	if err := log.Close(); err != nil {
		fail("writing the log: %v", err)
	}
	note := ""
	if res.Stalled {
		note = " (stalled: no node could enter any more)"
	}
	if *bug != "" {
		note += fmt.Sprintf("; the bug changed what the program did %d times", res.Fired)
	}
	fmt.Printf("sklock: %d nodes, %d critical sections%s; log written to %s\n", opts.Nodes, res.Entries, note, *logFile)
	fmt.Printf("check it with: tokenmc validate %s --mapping examples/concurrent/sklock/mapping.json\n", *logFile)
}

// config is the log's configuration: the model, its parameters, the
// nodes' names and, for a CS-only log, the kinds it records.
func config(opts Options, csOnly bool) record.Config {
	cfg := record.Config{Algorithm: "suzuki-kasami", Params: map[string]int{"n": opts.Nodes, "r": opts.Rounds}}
	for i := range opts.Nodes {
		cfg.Names = append(cfg.Names, fmt.Sprintf("node-%d", i))
	}
	if csOnly {
		cfg.Kinds = []string{eventlog.KindRequest, eventlog.KindEnter, eventlog.KindExit}
	}
	return cfg
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "sklock: "+strings.TrimSuffix(format, "\n")+"\n", args...)
	os.Exit(2)
}
