// Package coordring models the centralized coordinator token ring as a
// model.Protocol: one coordinator owns the token and lends it to one client
// at a time.
//
// Source: shared/seeds/000_eed309a51f5751a1.txt §3.3.1 ("Token ring
// algorithm to achieve mutual exclusion in distributed system - a
// centralized approach", citing [7]); design notes
// shared/design/algorithms.md §2.
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
//   - Starvation freedom (FCFS by stamp) and the lifo mutant of
//     algorithms.md §2 need liveness checking with cyclic clients; the
//     model is for bounded R only (Lamport clocks grow) and the lifo mutant
//     is not shipped.
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
// workers and DFS.
//
// # Sizes
//
// n = 3, R = 1: 263 states, 510 transitions, depth 12 (well under a
// second). n = 3, R = 2: 23,036 states (0.02 s); n = 3, R = 3: 993,948
// states (1.2 s); n = 4, R = 2: 3,373,970 states (5 s), all on 2 cores.
package coordring
