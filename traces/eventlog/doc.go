// Package eventlog reads, writes and validates event logs: the record of a
// run of a distributed mutual exclusion algorithm as real concurrent
// processes (tokenmc run), or of any other program that logs the same
// events.
//
// # Format (JSON lines)
//
// The first line is a header naming the model the run implements:
//
//	{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":3,"r":2}}
//
// algorithm is a registry name (tokenmc list), with a variant if any, and
// params its parameters; "n" (the number of processes) is required. The
// optional fields transport, seed and start are informative.
//
// Every further line is one event of one process:
//
//	{"p":1,"seq":2,"kind":"send","msg":"REQ(P1->P0, sn=1)","mid":"1.1","to":0,"vc":[0,2,0],"lamport":2,"t_ns":1232468}
//
//	p       the process, 0..n-1
//	seq     1, 2, 3, ... per process, in the process's order
//	kind    request | enter | exit | send | receive | timer
//	group   request: the group asked for (GME, or the resource of a
//	        multi-resource algorithm); enter: the group entered
//	timer   timer: which timer fired
//	msg     send, receive: the message as the model renders it (its
//	        FormatMsg, as in traces and 'tokenmc check' output), or a
//	        structured message {"kind":"TOKEN","q":[2]} matched field by field
//	mid     send, receive: an id of the message copy, unique in the log;
//	        a receive names the id of its send
//	to      send: the receiver (required); from: receive: the sender
//	token   send, receive: the message carries the token (for charts)
//	vc      vector timestamp: vc[q] is the number of q's events that
//	        happen before this event or are it, so vc[p] = seq
//	lamport Lamport timestamp (informative)
//	t_ns    monotonic time since the start of the run, in nanoseconds
//
// Unknown fields are errors. The vector timestamps must be on every event
// or on none; without them the happens-before order is process order plus
// send-before-receive, matched by mid. Read checks sizes before it
// allocates (n at most 1000, lines at most 4 MiB) and names
// the file and line of every error. A Mapping translates an
// implementation's own names (processes, event kinds, message kinds and
// fields) into the model's.
//
// A header with "observed" declares a partial log: only some event kinds,
// or some processes, are recorded, and messages may lack their payload.
// docs/eventlog.md in the repository is the format's full reference, for
// writers in any language; package record writes it from Go.
//
// # Steps
//
// request, exit, receive and timer are triggers: each is one transition of
// the model (Request, Exit, Deliver, Timer). Its effects are the send and
// enter events of the messages the handler sent and of the entry into the
// CS. A program that handles each step under one lock logs them right
// after the trigger:
//
//	{"p":1,"seq":5,"kind":"receive","msg":"TOKEN(->P1, LN=[0,0,0], Q=[2])","mid":"0.1","from":0,"token":true,...}
//	{"p":1,"seq":6,"kind":"enter",...}
//
// A concurrent program logs them later, after events of the process's
// other steps (a receiver goroutine, a CS loop that polls): an effect is
// valid anywhere after its trigger, an enter before the process's next
// exit (docs/eventlog.md states the rules and why they are sound). The
// optional fields cause (the trigger's seq) and thread say which step an
// effect belongs to; without them the checker infers it. A log may end in
// the middle of a step: it is a prefix of a behaviour.
//
// # Validation
//
// Validate checks a full log step by step (Checker, which streams and
// can follow a log as it is written): it searches for an interleaving of
// the steps that respects the recorded happens-before order, in which
// every trigger is an enabled transition and produces exactly the logged
// effects (Options.Atomic: right after it), and each receive delivers the
// copy its message id names. Options.All reports every divergence,
// Options.Complete also the effects never logged and the requests never
// served. It
// names the first event no interleaving explains, with the state
// reached. See Validate for why the search is complete. A step of a
// handler that leaves a choice open (protocol.Ctx.Choose: a
// Nondeterministic protocol) is tried with every alternative and explained
// by the one whose effects are the logged ones; when several alternatives
// produce the logged effects but lead to different states (messages
// logged with too few fields), the log does not determine the behaviour:
// the result is Undecided, with the step and what would make the log
// checkable.
//
// A partial log is checked by a search of the model for a behaviour whose
// observable events are the log's (the events it leaves out are filled
// in): the verdict is consistent (with the behaviour, Result.Path),
// inconsistent at an event (Result.Failed), or undecided within the
// budget (Result.Undecided), never a guess.
package eventlog
