// Package modeltest tests models: scenario scripts kept as data, and a
// conformance kit that every model.System should pass.
//
// # Scenario files
//
// A scenario file is a script of commands, each followed by a line "----"
// and the output it is expected to give, in the spirit of the datadriven
// tests of etcd-io/raft:
//
//	# P1 asks; P0, the idle holder, sends the token.
//	build n=2 r=1
//	----
//	P0  Idle     made 0  token  has=true
//	P1  Idle     made 0         has=false
//	in transit: nothing
//
//	step
//	Request(P1)
//	Deliver REQ(P1->P0)
//	----
//	Request(P1)
//	  P1: phase Idle -> Waiting
//	  ...
//
// A command is a line: its name, then arguments. The lines after it, up
// to "----", are its input. The expected output follows "----" and ends at
// the first blank line (outputs never contain one). Lines starting with
// "#" between commands are comments. The commands are:
//
//	build k=v ...     build the system (the arguments go to RunDir's build
//	                  function) and go to its first initial state; prints it
//	step [LABEL]      take the enabled transition with this label (the
//	                  argument, or each input line in turn); prints what
//	                  changed. A label that is not enabled fails the test.
//	show              print the current state
//	enabled           list the labels of the enabled transitions
//	disabled [LABEL]  say, for each label, whether it is disabled
//	check [NAME ...]  evaluate properties (all that apply by default):
//	                  invariants on the current state, transition
//	                  invariants on the last step, terminal properties if
//	                  the state has no successor
//	tokens            print the number of valid tokens (model.Snapshot)
//	save NAME         remember the current state
//	compare NAME      say whether the current state has the same bytes as
//	                  the one saved as NAME
//	restore NAME      go back to a saved state; prints it
//
// Labels are those of model.Worker.Label, as traces record them, e.g.
// "Request(P2)", "Deliver REQ(P1->P0, sn=1)", "Timer(P0, t=1)". States are
// rendered as traces render an initial state: one line per process (phase,
// requests made, group for GME systems, the token, the process's
// variables), then the messages in transit.
//
// RunDir runs every file of a directory as a subtest. With the test flag
// -modeltest.update (go test -run TestScenarios -modeltest.update), the
// expected outputs are rewritten with what the commands print: review the
// diff before committing it. The flag carries the package's prefix, as
// rapid's -rapid.* flags do, so that it cannot clash with a test package's
// own flags.
//
// # Conformance
//
// Check (or Verify, outside a test) explores a small configuration of a
// system in full and checks what every model must satisfy: deterministic
// initial states and successors, successors that leave their input
// unchanged, labels unique within a state, a canonical encoding (two
// states have equal bytes exactly when Describe renders them alike),
// snapshots that agree with Describe, the explorer's search modes (one and
// two workers, exact states, depth first, bitstate) agreeing with a naive
// enumeration, and every process able to enter its critical section.
package modeltest
