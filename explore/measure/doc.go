// Package measure is a discrete-event simulator over the registered models:
// it measures what the papers sell their algorithms by (messages per
// critical section, synchronisation delay, response time, the fraction of
// forwarded requests) from the very step functions the checker verifies.
// The package knows no algorithm by name: the caller gives the system to
// build (Config.Build) and what is known of the algorithm beyond its model
// (Config.Facts, package facts: timer defaults, idle-message rules,
// published formulas), which the CLI takes from the algorithm's
// algorithms.Algorithm value. A user's own algorithm carries no facts
// unless its description gives some.
//
// # Timing model
//
// The simulator drives a model.System through its Sampler capability (or,
// for a protocol whose handlers make choices or that has a whole-state
// hook, through its protosys.LocalWorker, below): it never re-implements
// an algorithm. Time is continuous and every action of the
// model gets a time:
//
//   - a message takes T_msg (constant, or exponential with mean T_msg) from
//     the step that sends it to its delivery; identical copies in the
//     network's multiset are delivered one at a time, each at its own time;
//   - a critical section lasts T_exec (constant): the Exit action fires
//     T_exec after the step that entered;
//   - timer or phase-end k of a process (Banerjee-Chrysanthis' collection
//     and forwarding phases) fires Timers[k] after the step that enabled it,
//     if it is still enabled then; a timer that becomes disabled is
//     cancelled;
//   - requests: at heavy load every process requests again the moment it
//     leaves its CS (and at time 0); at a rate lambda every Idle process
//     requests after an exponential delay of mean 1/lambda; at light load
//     requests come one at a time: after each exit the next request, by a
//     process drawn uniformly, follows after an exponential gap long enough
//     for every phase and message of the previous one to settle (and, for
//     a perpetually moving token, for the token to be anywhere on its
//     cycle).
//
// Events at equal times fire in the order they were scheduled, so a run is
// a function of the configuration and its seed alone.
//
// # Whole-state hooks
//
// A protocol with a Normalize or Guard hook (protocol.Protocol) is stepped
// through its LocalWorker, one process at a time, as tokenmc run steps it.
// Normalize is never applied: it is a bisimulation-preserving renaming
// that keeps the checker's state space finite (FIFO channel numbers,
// round numbers renumbered by rank), so the simulation runs on absolute
// values, the messages it scheduled stay in the network byte for byte, and
// what it counts does not depend on the hook. (drs-gme/fcfs maintains its
// informational fcfs history in its Normalize hook; as under tokenmc run,
// that history stays 0 and fcfs is never flagged while measuring.)
//
// Every event of a system with a Guard must pass the Guard
// (LocalWorker.Allowed) in the global state at the moment it is due: a
// delivery whose delay has elapsed, a request whose think time has
// elapsed, an exit, a timer. An event the Guard refuses is postponed, not
// dropped: it is held, and after every later step the held events are
// tried again in the order they were due (time, then scheduling order);
// the first one the Guard now allows fires at once, at the current time,
// and the scan starts over after its step. Held events come before every
// event still scheduled, which are all due later, or at the same time but
// scheduled later. A held timer that its process no longer enables was
// cancelled and is forgotten, and so is a held request of a process that
// is no longer Idle. Delays include the wait: with FIFO channels a message
// that arrives before an older one on its channel waits for it, as a FIFO
// transport delivers it, and its receiver's response time includes that
// wait. At light load the next request is drawn among the Idle processes
// whose request the Guard allows (torus --requesters: the requesters); if
// there is none it is held like any event. When nothing is scheduled and
// every held event is still refused, the replication is stuck: it ends as
// stalled (Result.Stalled) and is counted in Result.Blocked;
// Result.Postponed counts the events held.
//
// # What is counted
//
// Every message sent counts once, by kind (the name before the parenthesis
// in the model's label, e.g. REQUEST, PRIVILEGE, NEW-ARBITER). For the
// algorithms whose token moves forever (the torus, Le Lann's ring), the
// papers count only the messages a request causes, not the idle
// circulation: a token message sent in a step before and after which no
// process is Waiting or InCS (and, for the torus, that is not part of a row
// tour) is counted as idle, reported apart and left out of messages per
// CS. A message sent in a step that delivers a message of the same kind is
// a forwarded one (Banerjee-Chrysanthis' forwarding phase); the forwarded
// fraction is forwarded REQUESTs per CS entry.
//
// Delays: the response time runs from a request to the exit of its CS;
// the waiting time from a request to the entry; the synchronisation delay
// from an exit to the next entry, sampled only when some process was
// Waiting at that exit.
//
// At light load each request's messages (those sent from it until the next
// request) are also split by whether the request entered its CS at once (a
// token holder's request, 0 messages in Suzuki-Kasami) or not.
//
// A replication discards the first Warmup entries and measures the next
// Entries; Run makes Replications independent replications (seeds derived
// from Seed) and reports each figure's mean with a 95% confidence interval
// (Student's t). Every safety invariant and transition invariant the
// registry gives for the model is checked after every step; a violation
// stops the run and is reported.
package measure
