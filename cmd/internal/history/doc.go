// Package history reads, writes and derives client-visible lock
// histories, which package cmd/internal/linearize checks for
// linearizability with porcupine (github.com/anishathalye/porcupine).
//
// A history records what the clients of a lock service saw: when each
// acquire and release was called and when it returned. It is linearizable
// when every operation can be given one instant between its call and its
// return such that the sequence of instants is a legal run of a sequential
// lock. A mutual exclusion violation (two CS stays that overlap in real
// time) makes a history non-linearizable.
//
// # Format (JSON lines)
//
// An optional header, then one event per line:
//
//	{"format":"tokenmc-history","version":1,"model":"lock","processes":2}
//	{"p":0,"op":"acquire","ev":"call","t_ns":0}
//	{"p":0,"op":"acquire","ev":"return","t_ns":10}
//	{"p":0,"op":"release","ev":"call","t_ns":20}
//	{"p":0,"op":"release","ev":"return","t_ns":22}
//
//	model      lock (default): at most one holder; group-lock: holders
//	           share the lock only if they are in the same group (GME);
//	           locks: one independent lock per resource
//	processes  if given, p must be in 0..processes-1
//	p          the client process
//	op, ev     acquire | release, call | return
//	t_ns       a time on one monotonic clock shared by all clients
//	group      group-lock: the group (on the acquire call, or the group
//	           granted on its return, which wins when non-zero)
//	resource   locks: the resource (on the call; a release without one
//	           releases the process's last acquired resource)
//
// Each process alternates call and return, and a return matches its
// process's pending call; anything else is bad input naming the line. An
// acquire that never returned is dropped (it may not have taken effect);
// a release that never returned may take effect at any later time.
//
// FromLog derives the history of an event log (package eventlog): a
// request is an acquire call, the enter that ends its wait the return; an
// exit is a release call that returns when the exit's step has logged its
// effects. A log need not give a well-formed history (an enter with no
// request before it, a time that goes back): check FromLog's result with
// History.Validate, which names the log line, before linearize.Check.
//
// Times are in [0, 2^63-2]; a release that never returned may take effect
// at any time after its call, up to just past the last time recorded.
package history
