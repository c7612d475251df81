// Package ricartagrawala models the Ricart-Agrawala permission-based
// algorithm for mutual exclusion (G. Ricart, A. K. Agrawala, "An optimal
// algorithm for mutual exclusion in computer networks", CACM 24(1), 1981)
// as a protocol.Protocol. It is a classical baseline: Neamatollahi et al. (2017; seed 004)
// (§5, Table 1) lists it with
// 2(N-1) messages per CS entry, and docs/notes/algorithms.md §5 compares
// the several-tokens ring's priority rule with it. The model follows the
// 1981 paper's pseudo-code read directly. There is no token: single-token
// does not apply (the CLI says so when asked for it).
//
// # The algorithm
//
// Each process i keeps Our_Sequence_Number (the sequence number of its
// current request), Highest_Sequence_Number (the largest sequence number it
// has seen), Outstanding_Reply_Count, Requesting_Critical_Section (here:
// the client phase is Waiting or InCS) and Reply_Deferred[j] for every j.
//
//  1. Request(i): Our_Sequence_Number = Highest_Sequence_Number + 1;
//     Outstanding_Reply_Count = N-1; i sends REQUEST(Our_Sequence_Number)
//     to every other process and waits.
//  2. Deliver REQUEST(k) from j at i: Highest_Sequence_Number =
//     max(Highest_Sequence_Number, k). i defers its reply iff it is
//     requesting and (k, j) is larger than (Our_Sequence_Number, i) in the
//     lexicographic order (k > ours, or k == ours and j > i): then
//     Reply_Deferred[j] = true; otherwise it sends REPLY to j at once.
//  3. Deliver REPLY at i: Outstanding_Reply_Count -= 1; when it reaches 0,
//     i enters its CS.
//  4. Exit(i): i sends REPLY to every j with Reply_Deferred[j] and clears
//     them.
//
// # Modelling decisions
//
//   - No literal/repaired split: the seeds only cite this algorithm, and the
//     classic definition followed here is unambiguous for the properties
//     checked, so the default variant is the only reading (kind "default").
//   - Bounded clocks. Sequence numbers are Lamport clocks and grow without
//     bound in an infinite run; here every process makes at most R requests
//     (semantics.md §1), and a request's number is one more than the largest
//     number seen so far, so by induction the k-th request created (in any
//     order) has a number <= k: every sequence number is at most N*R and
//     the state space is finite, with no renumbering needed.
//   - Our_Sequence_Number is reset to 0 at Exit (it is read only while the
//     process is requesting), so that states that differ only in a stale
//     number are one state (semantics.md §1, state identity).
//     Highest_Sequence_Number is kept as is.
//   - Reply_Deferred is stored as the sorted list of deferred ids.
//   - REQUEST(from, to, sn) and REPLY(from, to) record their sender: the
//     receiver uses it. The network is the protocol layer's multiset: the
//     1981 algorithm does not need FIFO channels.
//   - HoldsToken and CarriesToken are nil: single-token does not apply.
//
// # Variants
//
//   - ricart-agrawala (default): the algorithm above.
//   - ricart-agrawala/no-max (mutant): a received REQUEST does not raise
//     Highest_Sequence_Number, so a later request may carry a smaller
//     number than a request already granted, and a process in its CS
//     replies to it. Breaks mutex.
//   - ricart-agrawala/reply-on-tie (mutant): the tie between equal sequence
//     numbers is not broken by id (defer only if k > ours), so two
//     concurrent requests with the same number both get replies. Breaks
//     mutex.
//   - ricart-agrawala/forget-deferred (mutant): Exit clears Reply_Deferred
//     without sending the deferred replies. Breaks no-deadlock.
//
// Shortest (BFS) counterexamples at N = 3, R = 1, pinned in the tests:
// no-max breaks mutex in 10 steps (P1 requests with sn 1; P0, still Idle,
// replies but does not raise its highest number, then requests with sn 1
// too, and (1, P0) beats (1, P1), so P1 replies as well); reply-on-tie
// breaks mutex in 10 steps (P0 and P1 request with sn 1 and reply to each
// other); forget-deferred breaks no-deadlock in 13 steps (all three request
// with sn 1, P0 wins, defers P1 and P2, and exits without replying).
//
// The mutex counterexample of ricart-agrawala/no-max is shipped as
// testdata/no-max.mutex.trace.json (tokenmc replay reads it; a test replays it).
//
// # Algorithm-specific invariant
//
// RepliesAccounted ("replies-accounted"): a Waiting process's
// Outstanding_Reply_Count equals its REQUESTs in transit, plus the
// processes that deferred it, plus the REPLYs on their way to it; every
// other process awaits no reply. forget-deferred breaks it after 8 steps
// (a deferred reply vanishes at Exit).
//
// # Liveness
//
// starvation-freedom (weak fairness) holds for the default at N = 3,
// R = 1.
//
// # Size
//
// N = 3, R = 1 (the default): 2,858 states, checked in about 0.01 s. N = 4,
// R = 1: 2,074,509 states and 13,398,410 transitions, every safety property
// holds, 17 s on this machine's 2 shared cores (measured once; the broadcast
// of N-1 requests and N-1 replies per entry makes the interleavings grow
// fast).
//
// # How counts were cross-checked
//
// The state and transition counts pinned in the tests were computed twice:
// by the model through package explore, and by an independent enumerator in
// naive_test.go (plain structs, string keys, a map-based breadth-first
// search written from the 1981 pseudo-code, sharing no code with this
// package or package model).
// The tests also check that breadth-first search with one or two workers,
// exact (collision-free) mode and depth-first search find the same counts.
package ricartagrawala
