// Package lelann models Le Lann's token ring (1977), the oldest token-based
// mutual exclusion algorithm, as a protocol.Protocol. It is a classical
// baseline: Neamatollahi et al. (2017; seed 004) (§5, Table 1)
// lists it ("Le Lann [37]", perpetual moving of the token) among the
// algorithms the torus is compared with, and the framework survey (seed 000)
// (§3.2) notes that on a ring "the
// token transmits from a node to another continuously". Neither seed gives pseudo-code: the
// model follows the classic definition (G. Le Lann, "Distributed systems:
// towards a formal approach", IFIP Congress 1977; as presented in Raynal,
// "Algorithms for mutual exclusion", 1986, §3.2).
//
// # The algorithm
//
// The processes form a logical ring P0 -> P1 -> ... -> P(N-1) -> P0. A single
// token circulates around the ring forever, whether or not anybody wants it.
//
//  1. Request(i): i becomes Waiting and sends nothing.
//  2. Deliver TOKEN(->i): if i is Waiting it keeps the token and enters its
//     CS; otherwise it passes the token on to its successor (i+1) mod N.
//  3. Exit(i): i passes the token on to its successor.
//
// # Modelling decisions
//
//   - No literal/repaired split: the seeds only cite this algorithm, and the
//     classic definition followed here is unambiguous for the properties
//     checked, so the default variant is the only reading (kind "default").
//   - Initial state: every process Idle and the network holds exactly one
//     TOKEN(->P0), as if P(N-1) had just passed it (the same convention as
//     the torus, semantics.md §3): P0 is the first to see the token
//     (semantics.md §1).
//   - The token carries no data; a TOKEN message does not record its sender
//     (it is always the ring predecessor of the receiver).
//   - Proc has one field, Has, true only while the process holds the token;
//     in the correct model that is exactly while it is InCS. It is stored (not
//     derived from the phase) so that mutants that keep a copy of the token
//     are visible to single-token.
//   - Since the token moves forever, the state graph has no terminal states:
//     no-deadlock holds trivially and every state lies on a cycle. With R
//     requests per process the state space is finite. A ring with idle
//     processes keeps passing the token: that is the algorithm's known cost
//     (Neamatollahi et al. (2017; seed 004) Table 1: N-1 messages per CS entry in the worst case, and
//     messages even when nobody asks), not a modelling artefact.
//   - An idle process that requests never enters at once: it has no token
//     outside its CS.
//
// # Variants
//
//   - lelann (default): the algorithm above.
//   - lelann/pass-on-entry (mutant): a Waiting process that receives the
//     token enters its CS and also passes the token on at once (keeping its
//     copy until it exits), as an "optimisation" that lets the token keep
//     moving. Breaks single-token after 2 steps and mutex after 4 (N = 3,
//     R = 1): Request(P0), Deliver TOKEN(->P0), Request(P1),
//     Deliver TOKEN(->P1).
//   - lelann/drop-on-exit (mutant): Exit forgets to pass the token on, so
//     the token is lost. Breaks single-token after 3 steps (Request(P0),
//     Deliver TOKEN(->P0), Exit(P0): no token left) and no-deadlock after 5
//     (N = 3, R = 1: all three request, P0 gets the token and exits without
//     passing it; P1 and P2 wait forever).
//
// The no-deadlock counterexample of lelann/drop-on-exit is shipped as
// testdata/drop-on-exit.no-deadlock.trace.json (tokenmc replay reads it; a test replays it).
//
// # Algorithm-specific invariant
//
// TokenOnlyInCS ("token-only-in-cs"): a process holds the token exactly
// while it is InCS. The pass-on-entry mutant also breaks it after 5 steps:
// P0 enters and passes the token on, the token goes round the ring of
// idle processes and comes back to P0, still in its CS, which passes it on
// again and is left InCS without it.
//
// # Liveness
//
// starvation-freedom (tokenmc check --props starvation-freedom, weak
// fairness) holds for the default at N = 3, R = 1: the token visits every
// process in turn.
//
// # How counts were cross-checked
//
// The state and transition counts pinned in the tests were computed twice:
// by the model through package explore, and by an independent enumerator in
// naive_test.go (plain structs, string keys, a map-based breadth-first
// search written from the rules above, sharing no code with this package
// or package model).
// The tests also check that breadth-first search with one or two workers,
// exact (collision-free) mode and depth-first search find the same counts.
package lelann
