// Package runtime runs a model as real concurrent processes: one goroutine
// per process, exchanging messages over Go channels or over TCP on the
// loopback interface (one listener on 127.0.0.1 per process, one
// connection per ordered pair of processes).
//
// Every step a process takes is computed by model.LocalWorker.Step, which
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
// network allows. All randomness comes from Config.Seed (the interleaving
// of goroutines does not).
//
// Every event (request, enter, exit, send, receive, timer) is logged with
// the process's vector and Lamport timestamps and the time since the start
// of the run (package eventlog). The run ends when every process has made
// its R requests and left its CS, or at Config.Duration; messages still in
// flight then stay in transit in the log.
package runtime
