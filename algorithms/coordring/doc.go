// Package coordring models the centralized coordinator token ring as a
// protocol.Protocol: one coordinator owns the token and lends it to one client
// at a time.
//
// Source: The framework survey (seed 000) §3.3.1 ("Token ring
// algorithm to achieve mutual exclusion in distributed system - a
// centralized approach", citing [7]); design notes
// docs/notes/algorithms.md §2.
//
// # The algorithm
//
// P0 is the coordinator and starts with the token.
//
//  1. Request(i), i a client: i stamps its request and sends
//     REQUEST(i->P0, ts).
//  2. REQUEST(i, ts) at P0: if P0 "retains the token" (and is not itself in
//     its CS) it sends TOKEN to i; otherwise it stores (i, ts) in its
//     REQUEST QUEUE and sends WAIT to i.
//  3. WAIT at i: informational (it only advances i's clock).
//  4. TOKEN at i: i enters its CS.
//  5. Exit(i): i sends the token back, RETURN(i->P0).
//  6. RETURN at P0: if the queue is empty P0 keeps the token; otherwise it
//     sends TOKEN to the queued request with the smallest stamp.
//
// # Modelling decisions
//
//   - Time stamps are Lamport clocks, ties broken by the smaller pid (the
//     option "--clock lamport" of algorithms.md §2). The notes recommend a
//     ghost global clock (a counter incremented at every Request, renumbered
//     after every step); that needs a variable outside every process, which
//     the protocol layer cannot express (a transition reads and writes only
//     the acting process, semantics.md §1 "Atomicity"). Each process keeps
//     Clock; Request increments it and uses it as the stamp; the coordinator
//     raises its clock to every stamp it receives and sends its clock in
//     every WAIT and TOKEN, which raise the receiver's clock. So a request
//     made after a process has heard (through the coordinator) of another
//     request gets a larger stamp; concurrent requests are ordered by pid.
//     Stamps never exceed n*r, so the state space is finite for finite R.
//   - The coordinator is also a client (the option "--coordinator-requests"
//     of algorithms.md §2): the protocol layer lets every process request,
//     and there is no per-process switch. Its request is stored in its own
//     queue without a message, with a stamp from its own clock, and it
//     enters when it holds the token and its entry is the smallest: at once
//     if it holds the token with an empty queue, otherwise when a RETURN
//     pops its entry. When it exits, it serves the queue as in step 6.
//   - "No other process is executing in its CS, and the coordinator retains
//     the token" (step 2) is read as "the coordinator holds the token and is
//     not itself in its CS". While the token travels back (RETURN in
//     transit) the coordinator does not retain it, so the request is queued:
//     algorithms.md §2 calls this "repaired = literal", so there is no
//     separate literal variant.
//   - The token goes directly between coordinator and client (one message
//     each way); the ring of §3.3.1 only relays messages and changes message
//     counts, not states, so it is not modelled ("--hop-by-hop" is not
//     offered). Membership changes are out of scope.
//   - Messages: REQUEST(from, ts), WAIT(to, clock), TOKEN(to, clock),
//     RETURN(from). TOKEN and RETURN carry the token (single-token counts
//     them); a client holds the token (Has) exactly while it is InCS.
//   - Starvation freedom (FCFS by stamp) is checked with cyclic clients,
//     below.
//
// # Cyclic clients
//
// Parameter cyclic=1 (NewCyclic; the same convention in coord-res and
// fapp) sets protocol.Protocol.Cyclic: every process requests again whenever
// it is Idle, no request count is kept (Info.Requests == 0) and r is
// ignored. Two changes keep the state space finite; the default (cyclic=0)
// is untouched, and so are its pinned counts.
//
//  1. WAIT is not sent. Its only effect is to raise the client's clock to
//     the coordinator's, and the TOKEN that answers the same request is
//     sent later by the same coordinator, whose clock never decreases, so
//     it raises the clock at least as far before the clock is used again
//     (at the next Request); a WAIT that arrives after its TOKEN changes
//     nothing. So no stamp, queue or phase depends on WAIT. Without this,
//     WAITs of earlier rounds pile up (a client may get its TOKEN before
//     its WAIT): at n = 2 the search was still growing after 2 minutes
//     (3.4 million states, depth 101). TestNoWaitSameBehaviourBoundedR
//     checks, at bounded R, that the model with and without WAIT reach
//     the same states once WAITs and the clocks of Waiting clients are
//     hidden.
//  2. After every step the Lamport values (every Clock, every queued stamp,
//     the values of REQUEST and TOKEN in transit) are renumbered
//     (Renumber; the worker is wrapped, since a handler sees only its own
//     process). Only their order and ties matter to the algorithm, plus
//     one distance: a stamp is a clock plus one, so whether a clock c and
//     the next value v above it differ by 1 (the new stamp ties with v, and
//     the pid decides) or by more (the new stamp is below v). The clocks a
//     stamp is later computed from ("base" values) are those of P0 and of
//     the clients that are not Waiting, and the clock in a TOKEN in
//     transit (which the Waiting receiver adopts: it is at least every WAIT
//     and the client's own stamp). Renumbering maps the smallest value to 0
//     and keeps the gap above a base value capped at 2 and every other gap
//     at 1. A non-base value is a stamp or the clock of a Waiting client;
//     it becomes a base value only by becoming the coordinator's clock C,
//     and nothing is ever more than C+1, so the gap above it is then 1
//     anyway. There are at most 3n distinct values (n clocks, at most n
//     queued stamps, n-1 REQUESTs and one TOKEN), each gap is at most 2,
//     so every value is below 6n and the state is finite. At
//     bounded R the raw model is finite, and TestRenumberingExactBoundedR
//     checks that the renumbered model reaches exactly the renumbered
//     images of the raw model's states (n = 2, R = 4; n = 3, R = 2; n = 4,
//     R = 1; lifo n = 3, R = 2 and n = 2, R = 4; with TOKENMC_HEAVY also
//     n = 3, R = 3 and lifo n = 4, R = 2, 40 s): a renumbering that merged
//     states with different futures would reach images the raw model does
//     not have.
//
// Safety properties are unaffected (they read phases, tokens and queues,
// which renumbering keeps). Weak fairness applies to each distinct message
// (model.AppendFamily keys deliveries by message bytes), and
// renumbering can change the bytes of a message in transit: a message that
// stayed in transit through a cycle could appear as several messages, each
// not continuously enabled. That can only add fair cycles, so a verdict of
// starvation-freedom is sound; each shipped lasso has a state with an empty
// network in its cycle (asserted), so no message is left undelivered and
// the lasso is fair in the raw model too. In the text rendering of a trace
// a message whose stamp is renumbered appears among the "sends" of that
// step, and a process's clock may go down ("clock 4 -> 3"): both are the
// renumbering.
//
// Verdicts (starvation-freedom under weak fairness, and every safety
// property, 1 worker): n = 2: 32 states; n = 3: 508; n = 4: 10,277
// (0.05 s); n = 5: 264,558 (1.4 s). All pass: no process waits forever.
// Why, informally (the checker's verdict is the evidence): the
// coordinator serves the smallest stamp, and a client's TOKEN raises its
// clock to at least every stamp the coordinator had received, so its later
// requests are stamped above every request queued before; each other
// process overtakes a queued request at most once.
//
// # Variants
//
//   - coord-ring (default): as above.
//   - coord-ring/grant-if-queue-empty: step 2 grants when the queue is empty
//     instead of when P0 holds the token. Breaks single-token after 4 steps
//     (n = 3: two REQUESTs granted, two TOKENs in transit) and mutex after 6.
//   - coord-ring/keep-copy: a client keeps Has after sending RETURN and on
//     its next request enters at once. Breaks single-token after 4 steps
//     (n = 3, R = 1) and, checking mutex alone, mutex after 7 (n = 2, R = 2).
//   - coord-ring/drop-after-wait: step 2 sends WAIT but does not queue.
//     Breaks no-deadlock after 5 steps (n = 2) and 8 (n = 3).
//   - coord-ring/lifo: step 6 serves the largest stamp (the newest) first.
//     Safe, but with cyclic=1 it breaks starvation-freedom. n = 2 (trace
//     testdata/lifo-n2-cyclic.starvation-freedom.trace.json, 36 states):
//     prefix 12, cycle 5. P0 queues its own request (stamp 2) while P1
//     holds the token; P1 requests again and its stamp, computed from the
//     clock its TOKEN carried, is larger, so every RETURN hands the token back to P1: the cycle is
//     RETURN, TOKEN, Exit(P1), Request(P1), REQUEST, and P0 waits forever.
//     n = 3 (testdata/lifo-n3-cyclic.P1.starvation-freedom.trace.json,
//     client P1 starves): prefix 8, cycle 12. P1's request is queued with
//     the smallest stamp; P0 and P2 alternate, each new request newer than
//     P1's, so P1 is never the last entry. algorithms.md §2 predicted
//     N = 4 with a coordinator that does not request; here P0 is a client,
//     so n = 2 and 3 suffice.
//
// # Algorithm-specific invariant
//
// QueueServesWaiting ("queue-serves-waiting"): every queued process and
// every TOKEN receiver is Waiting and appears once, and a coordinator that
// holds the token outside its CS has an empty queue.
//
// # How the counts were cross-checked
//
// naive_test.go is a second, map-based enumerator written from these rules
// (strings for messages, sorted slices for the multiset, no code shared
// with the model); the tests pin the counts only where both agree (n = 2,
// 3, 4 with R = 1 and n = 2, 3 with R = 2), and compare BFS with one and two
// workers and DFS. With cyclic clients the enumerator drops WAIT and
// renumbers with its own code (a map from value to "base" flag); it agrees
// on states, transitions and depth at n = 2, 3, 4 (32/56/12, 508/1,210/19,
// 10,277/30,983/26), which the tests pin.
//
// # Sizes
//
// Bounded R (cyclic=0): n = 3, R = 1: 263 states, 510 transitions, depth 12 (well under a
// second). n = 3, R = 2: 23,036 states (0.02 s); n = 3, R = 3: 993,948
// states (1.2 s); n = 4, R = 2: 3,373,970 states (5 s), all on 2 cores.
package coordring
