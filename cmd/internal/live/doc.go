// Package live runs a model as real concurrent processes: one goroutine
// per process, exchanging messages over Go channels or over TCP on the
// loopback interface (one listener on 127.0.0.1 per process, one
// connection per ordered pair of processes).
//
// Every step a process takes is computed by protosys.LocalWorker.Step, which
// runs the very handlers the checker explores: there is no second
// implementation of the algorithm. A process reacts to three things:
//
//   - a message arriving: it runs the delivery handler;
//   - its client: when Idle with requests left it requests after a random
//     think time; when in its CS it exits after a random CS duration;
//   - its timers: an enabled protocol timer fires after a random delay.
//
// Each message is delayed by a random time before it is handed to the
// transport, so messages overtake one another as the model's unordered
// network allows. A handler that leaves a choice open (a Nondeterministic
// protocol's protocol.Ctx.Choose, such as suzuki-kasami/any-order's order
// of appending) takes one of its alternatives uniformly at random; the log
// records only the step's effects, from which validation recovers the
// alternative. All randomness comes from Config.Seed (the interleaving of
// goroutines does not).
//
// A model with a whole-state guard (protocol.Protocol.Guard: a timer that
// fires only when no token exists anywhere, a client bound) needs a
// consistent global state, which real distributed processes do not have:
// the runtime simulates the oracle. It keeps every process's local state
// and every message in transit (sent, not yet delivered) under one lock,
// and a process takes each step of such a model under that lock: the
// guard is asked on that state, and a step it refuses is tried again
// later (a request or exit after a think time, a timer after a new delay,
// a delivery after a new delay, the message staying in transit). The
// steps of a guarded model are therefore serialised, and its log lists
// them in the order they were taken, which is the order the event-log
// checker replays them in. A model's Normalize hook (a renumbering that
// keeps the checker's state space finite) is never applied at run time:
// processes keep absolute counters.
//
// Every event (request, enter, exit, send, receive, timer) is logged with
// the process's vector and Lamport timestamps and the time since the start
// of the run (package eventlog). The run ends when every process has made
// its R requests and left its CS (with a guard that refuses some
// processes' requests for good, such as torus --requesters: once no
// request can ever be made again, see Run and Stats.Refused), or at
// Config.Duration; messages still in flight then stay in transit in the
// log. With Config.Log the log is
// streamed as it is made, so memory stays bounded however long the run.
//
// # Failures
//
// Over TCP every packet is a frame: a 4-byte big-endian length (at most
// 1 MiB, checked before anything is allocated) and a JSON packet, checked
// before it reaches a process: its sender is a process, its vector clock
// has one entry per process, it has a message id, and its message decodes
// (the model's decoder runs under recover) to a message addressed to the
// receiving process. A packet that fails is reported (Config.Warn) and
// dropped; a connection that never carried a valid packet is closed. A
// connection between two processes that breaks (reset, closed, a write
// that fails or hangs for 2 s) stops the run at once: Run returns the log
// so far and an error wrapping ErrPeerLost. A panic in a process's handler
// stops the run with a *PanicError, and a cancelled context stops it with
// Stats.Interrupted; in every case the log written so far is complete and
// valid. Listeners are on 127.0.0.1 only.
package live
