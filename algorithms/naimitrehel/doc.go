// Package naimitrehel models the Naimi-Trehel token algorithm for mutual
// exclusion (M. Naimi, M. Trehel, "An improvement of the log(n)
// distributed algorithm for mutual exclusion", ICDCS 1987; M. Naimi,
// M. Trehel, A. Arnold, "A log(N) distributed mutual exclusion algorithm
// based on path reversal", JPDC 34, 1996) as a protocol.Protocol. It is a
// classical baseline: Neamatollahi et al. (2017; seed 004) (§5,
// Table 1) compares the torus with Naimi-Trehel's algorithm, and the framework survey (seed 000)
// (§3.1) summarises it (requests go
// to the probable root; a queue and a dynamic rooted tree). The model
// follows the pseudo-code of the 1996 paper (§3), read directly.
//
// # The algorithm
//
// Each process i keeps
//
//   - last_i: the probable owner of the token, or nil when i is the root of
//     the "last" tree (it holds the token or will be the next to get it);
//   - next_i: the process to which i must pass the token after its CS, or
//     nil;
//   - token_present_i: whether i holds the token;
//   - requesting_i: whether i wants or is in its CS (here: the client phase
//     is Waiting or InCS, kept by the protocol layer).
//
// Initially P0 holds the token with last_0 = nil, and last_i = P0 for every
// other process; every next is nil.
//
//  1. Request(i): if last_i != nil, i sends REQUEST(i) to last_i and sets
//     last_i = nil, then waits for the token. Otherwise (i is the root, so
//     it holds the token and is idle) it enters its CS at once.
//  2. Exit(i): if next_i != nil, i sends the token to next_i and sets
//     next_i = nil (and token_present_i = false); otherwise it keeps the
//     token.
//  3. Deliver REQUEST(j) at i: if last_i == nil (i is the root): if i is
//     requesting, next_i = j; otherwise i sends the token to j
//     (token_present_i = false). If last_i != nil, i forwards REQUEST(j) to
//     last_i. In both cases last_i = j (path reversal).
//  4. Deliver TOKEN at i: token_present_i = true and i enters its CS.
//
// # Modelling decisions
//
//   - No literal/repaired split: the seeds only cite this algorithm, and the
//     classic definition followed here is unambiguous for the properties
//     checked, so the default variant is the only reading (kind "default").
//   - nil is encoded as -1 (shown as -1 in traces).
//   - A REQUEST message carries the requester j and its receiver only: the
//     forwarder's identity is not used by the algorithm, so a forwarded
//     request is the same message as an original one with the same
//     requester and receiver. TOKEN carries no data and no sender.
//   - The network is the protocol layer's multiset (no FIFO channels); the
//     1996 paper assumes reliable asynchronous channels only.
//   - last_i and next_i are kept as they are even when i is Idle: they are
//     the algorithm's state (the forest of "last" pointers), not history.
//   - With R requests per process every variable ranges over 0..N-1, nil
//     or a boolean, and at most N*R REQUEST messages are ever sent per
//     request, so the state space is finite.
//
// # Variants
//
//   - naimi-trehel (default): the algorithm above.
//   - naimi-trehel/send-in-cs (mutant): the root sends the token on a
//     REQUEST without testing requesting_i, even while it is in its CS.
//     Breaks mutex after 4 steps (N = 3): Request(P0) (enters at once),
//     Request(P1), Deliver REQUEST(P1->P0), Deliver TOKEN(->P1).
//   - naimi-trehel/drop-next (mutant): a requesting root that receives a
//     REQUEST updates last_i but does not record next_i, so the requester is
//     forgotten. Breaks no-deadlock after 7 steps (N = 3, R = 1): P0 enters
//     at once, P1 and P2 send their requests to P0; P1's reaches P0 in its
//     CS and is not recorded; P0 exits keeping the token; P2's request is
//     forwarded by P0 to P1, which is requesting and drops it too. P1 and P2
//     wait forever while P0 holds the token.
//
// The no-deadlock counterexample of naimi-trehel/drop-next is shipped as
// testdata/drop-next.no-deadlock.trace.json (tokenmc replay reads it; a test replays it).
//
// # Algorithm-specific invariant
//
// NextQueue ("next-queue", 1996 §4): a process with a next pointer is
// Waiting or InCS, the process it points to is Waiting, and no two
// processes share a next.
//
// # Liveness
//
// starvation-freedom (weak fairness) holds for the default at N = 3,
// R = 1.
//
// # How counts were cross-checked
//
// The state and transition counts pinned in the tests were computed twice:
// by the model through package explore, and by an independent enumerator in
// naive_test.go (plain structs, string keys, a map-based breadth-first
// search written from the 1996 pseudo-code, sharing no code with this
// package or package model).
// The tests also check that breadth-first search with one or two workers,
// exact (collision-free) mode and depth-first search find the same counts.
package naimitrehel
