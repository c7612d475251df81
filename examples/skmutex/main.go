// Command skmutex is an independent implementation of Suzuki and Kasami's
// token-based mutual exclusion algorithm, written as ordinary concurrent
// Go (a goroutine per node, channels between them, its own types and
// names, no tokenmc model code), and instrumented with the record package
// so that tokenmc can check its runs:
//
//	go run ./examples/skmutex --n 3 --rounds 50 --log sk.jsonl
//	tokenmc validate sk.jsonl --mapping examples/skmutex/mapping.json
//
// --cs-only records only requests, entries and exits (a partial log, as
// a lock service would log them); --bug injects a realistic bug (the node
// holding the privilege hands it over from inside its critical section),
// which validate rejects at the first event the model cannot explain.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/tokenmc/tokenmc/traces/eventlog"
	"github.com/tokenmc/tokenmc/traces/record"
)

func main() {
	n := flag.Int("n", 3, "number of nodes (2..64)")
	rounds := flag.Int("rounds", 20, "critical sections per node (1..100000)")
	logFile := flag.String("log", "skmutex.jsonl", "write the event log to `FILE`")
	csOnly := flag.Bool("cs-only", false, "record only requests, entries and exits")
	bug := flag.Bool("bug", false, "inject the bug: hand the privilege over from inside the critical section")
	seed := flag.Uint64("seed", 1, "seed of the random delays")
	maxDelay := flag.Duration("max-delay", time.Millisecond, "largest message delay")
	maxCS := flag.Duration("max-cs", time.Millisecond, "longest critical section")
	flag.Parse()
	if flag.NArg() > 0 {
		fail("unexpected argument %q", flag.Arg(0))
	}
	if *n < 2 || *n > 64 {
		fail("--n must be in 2..64, got %d", *n)
	}
	if *rounds < 1 || *rounds > 100000 {
		fail("--rounds must be in 1..100000, got %d", *rounds)
	}
	if *maxDelay < 0 || *maxCS < 0 {
		fail("--max-delay and --max-cs must be >= 0")
	}
	cfg := record.Config{Algorithm: "suzuki-kasami", Params: map[string]int{"n": *n, "r": *rounds}}
	if *csOnly {
		cfg.Kinds = []string{eventlog.KindRequest, eventlog.KindEnter, eventlog.KindExit}
	}
	log, err := record.Create(*logFile, cfg)
	if err != nil {
		fail("%v", err)
	}
	res := Run(Options{Nodes: *n, Rounds: *rounds, MaxDelay: *maxDelay, MaxCS: *maxCS, Seed: *seed, Bug: *bug}, log)
	if err := log.Close(); err != nil {
		fail("writing the log: %v", err)
	}
	stalled := ""
	if res.Stalled {
		stalled = " (stalled: no node could enter any more)"
	}
	fmt.Printf("skmutex: %d nodes, %d critical sections%s, bug fired %d times; log written to %s\n", *n, res.Entries, stalled, res.BugFired, *logFile)
	fmt.Printf("check it with: tokenmc validate %s --mapping examples/skmutex/mapping.json\n", *logFile)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "skmutex: "+format+"\n", args...)
	os.Exit(2)
}
