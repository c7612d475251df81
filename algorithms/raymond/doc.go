// Package raymond models Raymond's tree-based token algorithm for mutual
// exclusion (K. Raymond, "A tree-based algorithm for distributed mutual
// exclusion", ACM TOCS 7(1), 1989) as a protocol.Protocol. It is a classical
// baseline: Neamatollahi et al. (2017; seed 004) (§5, Table 1)
// compares the torus with Raymond's algorithm, the framework survey (seed 000)
// (§3.1) summarises it (nodes in a
// tree, each aware only of its neighbours), and its §3.3.3 describes FAPP
// as Raymond's algorithm with priorities (docs/notes/algorithms.md §4). The
// model follows Raymond's paper: its procedures ASSIGN_PRIVILEGE and
// MAKE_REQUEST and its four events, read directly.
//
// # The algorithm
//
// The processes are the nodes of a fixed spanning tree. Each node i keeps
//
//   - holder_i: the neighbour in the direction of the token, or Self (-1,
//     shown as holder -1 in traces) when i holds the token (Raymond's
//     HOLDER = self);
//   - request_q_i: a FIFO queue of neighbours (and possibly i itself) that
//     have asked i for the token;
//   - asked_i: whether i has sent a REQUEST to holder_i that is not yet
//     answered.
//
// Raymond's USING flag is the client phase InCS of the protocol layer.
//
// ASSIGN_PRIVILEGE at i: if holder_i == i, i is not InCS and request_q_i is
// not empty: holder_i = dequeue(request_q_i); asked_i = false; if holder_i
// == i, i enters its CS; otherwise i sends PRIVILEGE to holder_i.
//
// MAKE_REQUEST at i: if holder_i != i, request_q_i is not empty and not
// asked_i: i sends REQUEST to holder_i and sets asked_i.
//
//  1. Request(i): enqueue i; ASSIGN_PRIVILEGE; MAKE_REQUEST.
//  2. Deliver REQUEST(j->i): enqueue j; ASSIGN_PRIVILEGE; MAKE_REQUEST.
//  3. Deliver PRIVILEGE(j->i): holder_i = i; ASSIGN_PRIVILEGE; MAKE_REQUEST.
//  4. Exit(i): ASSIGN_PRIVILEGE; MAKE_REQUEST.
//
// # Modelling decisions
//
//   - No literal/repaired split: the seeds only cite this algorithm, and the
//     classic definition followed here is unambiguous for the properties
//     checked, so the default variant is the only reading (kind "default").
//   - Tree (parameter "tree"): 0 = a line P0 - P1 - ... - P(N-1) (default),
//     1 = a balanced binary tree (parent of i is (i-1)/2), 2 = a star with
//     centre P0. In every case the tree is rooted at P0, which holds the
//     token at the start; every other node's holder is its parent
//     (semantics.md §1: P0 is the initial holder).
//   - The network is the protocol layer's multiset (no FIFO channels):
//     Raymond assumes reliable delivery only. A PRIVILEGE message records its
//     sender for readability; it does not split states, since while the
//     token travels from j to i, holder_i == j.
//   - HoldsToken is holder_i == i; CarriesToken is true for PRIVILEGE.
//   - The queue is kept in arrival order (it is a FIFO, not a set). In the
//     correct model it never holds an id twice (asked_i stops repeated
//     requests), so with R requests per process the state is finite.
//
// # Variants
//
//   - raymond (default): the algorithm above.
//   - raymond/keep-holder (mutant): ASSIGN_PRIVILEGE sends PRIVILEGE but
//     leaves holder_i = i, so the sender still believes it holds the token.
//     Breaks single-token after 2 steps (N = 3, line): Request(P1),
//     Deliver REQUEST(P1->P0).
//   - raymond/no-reask (mutant): after passing the token on, a node does not
//     call MAKE_REQUEST, so the requests still in its queue are never
//     forwarded to the new holder (Raymond's paper insists on this call).
//     Breaks no-deadlock after 9 steps (N = 3, line, R = 1): P0 uses its
//     request; P2 then P1 request, so P1's queue is [P2, P1] and P1 asks P0;
//     the token reaches P1, which passes it to P2 without asking for it
//     back; P2 exits and keeps the token while P1 waits forever.
//
// The no-deadlock counterexample of raymond/no-reask is shipped as
// testdata/no-reask.no-deadlock.trace.json (tokenmc replay reads it; a test replays it).
//
// # Algorithm-specific invariant
//
// HolderPaths ("holder-paths", Raymond 1989 §4): from every node, the
// holder pointers lead to the token (a node whose holder is Self, or the
// receiver of the PRIVILEGE in transit) within N-1 steps, no request queue
// holds an id twice, and asked implies a non-empty queue.
//
// # Liveness
//
// starvation-freedom (weak fairness) holds for the default at N = 3,
// R = 1 on the line. keep-holder also breaks no-deadlock (9 steps).
//
// # How counts were cross-checked
//
// The state and transition counts pinned in the tests were computed twice:
// by the model through package explore, and by an independent enumerator in
// naive_test.go (plain structs, string keys, a map-based breadth-first
// search written from Raymond's procedures, sharing no code with this
// package or package model), for every tree shape.
// The tests also check that breadth-first search with one or two workers,
// exact (collision-free) mode and depth-first search find the same counts.
package raymond
