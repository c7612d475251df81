// Package coordres models the seed's own proposal: a coordinator that
// keeps one token and one request queue per resource, with dynamic
// priorities (aging), as a protocol.Protocol.
//
// Source: The framework survey (seed 000) §V (Conclusion, one
// paragraph, "a new approach, which we are going to implement"), completed
// from §3.3.1 where §V is silent; design notes docs/notes/algorithms.md
// §3 and docs/notes/coordinator-variants.md part B (ids
// B1..B6 below are that file's).
//
// # The algorithm
//
// P0 is the coordinator and holds the K tokens at the start. Process i has
// base priority i ("priority which is equal to process id"); larger is
// served first.
//
//  1. Request(i, r): i sends REQUEST(i->P0, r, prio = i).
//  2. REQUEST(i, r, p) at P0: if the token of r is at P0 (and P0 is not in
//     its own CS on r), P0 sends TOKEN(r) to i. Otherwise the earliest
//     queued request of r ages by one if its priority is below p, and
//     (i, p) is appended to the queue of r.
//  3. TOKEN(r) at i: i enters its CS on r.
//  4. Exit(i): i sends RETURN(r) (from §3.3.1: the token goes back, B1).
//  5. RETURN(r) at P0: if the queue of r is empty the token stays at P0;
//     otherwise the first entry of the largest priority (a stable sort of
//     the arrival-ordered queue) is removed and sent TOKEN(r).
//
// # Modelling decisions
//
//   - Aging (B3): the default is the text's two-request sentence, "if the
//     priority of earliest request message is low than the next message,
//     then increment the priority by one": only the earliest queued entry
//     is compared with the newcomer (algorithms.md §3 reading (a)). The
//     variant coord-res/age-all ages every lower entry (FAPP's rule 1,
//     coordinator-variants.md's repaired reading). Both are safe; they
//     differ only in fairness, which needs liveness checking.
//   - Ties (B4): equal priorities are served in arrival order.
//   - B2: "not executing that CS and coordinator has token" is read as
//     "the token of r is at P0 and P0 is not in its CS on r".
//   - B5: the aged value lives in the queue entry; the next request starts
//     from the base priority again.
//   - No WAIT message (§V does not mention it; algorithms.md §3's "--wait"
//     option is not offered). Direct messages, no ring relaying (B6).
//   - P0 is also a client (the protocol layer lets every process request):
//     its requests arrive locally with priority 0 and it enters when it
//     is granted its own resource's token, which stays "at P0" meanwhile.
//   - Resources 0..k-1 are the request argument: Request(Pi, g=r).
//   - Starvation freedom is checked with cyclic clients, below.
//
// # Cyclic clients
//
// Parameter cyclic=1 (NewCyclic; the same convention in coord-ring and
// fapp) sets protocol.Protocol.Cyclic: every process requests again whenever
// it is Idle, no request count is kept (Info.Requests == 0) and r is
// ignored. The default (cyclic=0) and its pinned counts are unchanged.
//
// Nothing is renumbered because nothing grows: a priority starts at the
// requester's id and is raised only while it is below the priority of a
// newer request, so it stays in 0..n-1; a queue holds each process at most
// once and stores arrival order, not arrival times; each client has at
// most one REQUEST or RETURN in transit and each resource one token. So the
// cyclic model is finite as it stands, and it is the model itself, not an
// abstraction: every verdict below holds for unbounded requests. The state
// counts of the default and age-all are cross-checked with the naive
// enumerator (naive_test.go, run with cyclic clients).
//
// Verdicts, starvation-freedom under weak fairness (and every safety
// property), 2 cores: coord-res n = 3, k = 1: 119 states; n = 3, k = 2:
// 2,304; n = 4, k = 1: 904; n = 4, k = 2: 38,710 (0.05 s); n = 5, k = 1:
// 7,227; n = 3, k = 3: 21,681; n = 5, k = 2: 623,696 (1.1 s). age-all: n = 3,
// k = 1: 109; n = 4, k = 1: 818. All pass: no process waits forever. Aging
// the earliest entry is enough: while a request waits, every arrival of a
// more urgent one raises the earliest entry, and once that entry has the
// top priority n-1 it wins every tie by arrival.
//
// # Properties
//
// The generic mutex and single-token are replaced (invariants.With) by
// per-resource versions: mutex (ResourceMutex), at most one process InCS
// per resource; single-token (TokenPerResource), exactly one token of each
// resource, at P0, at a client in its CS, or in a TOKEN/RETURN message.
// The tests also check "sometimes" properties: every process can enter;
// with k = 2 two clients can be InCS together (never with k = 1).
//
// # Variants
//
//   - coord-res (default): as above.
//   - coord-res/age-all: every queued entry below the newcomer ages.
//   - coord-res/age-head: reading (b) of the aging sentence
//     (algorithms.md §3, "--aging head"): only the entry the coordinator
//     would serve next (largest priority, earliest among equals) ages when
//     a more urgent request arrives. Safe, but a low-priority request that
//     is never the head never ages: with cyclic=1 at n = 4, k = 1 (942
//     states) P1 starves (prefix 8, cycle 10,
//     testdata/age-head-n4-k1-cyclic.P1.starvation-freedom.trace.json) and
//     so does P0 (5+10), as the notes predicted; the default and age-all
//     are starvation-free there (TestAgeHeadStarves).
//   - coord-res/grant-any-free: step 2 grants when the queue of r is empty
//     instead of when the token is home. Breaks single-token after 3 steps
//     and mutex after 4 (n = 3, k = 1).
//   - coord-res/return-wrong-queue: RETURN(r) releases resource (r+1) mod k.
//     Breaks single-token after 5 steps and mutex after 9 (n = 3, k = 2);
//     harmless with k = 1.
//   - coord-res/no-aging: the aging of step 2 removed. Safe (n = 3, k = 2,
//     R = 2: every property holds), but with cyclic=1 it breaks
//     starvation-freedom. Lasso at n = 3, k = 1
//     (testdata/no-aging-n3-k1-cyclic.P1.starvation-freedom.trace.json,
//     prefix 4, cycle 5, 98 states): P1 and P2 request; P2's REQUEST
//     arrives first and gets the token, P1's is queued with priority 1.
//     In the cycle P2 enters, exits (RETURN), requests again with priority
//     2, its REQUEST arrives before the RETURN, and the RETURN hands the
//     token to the larger priority, P2. P1 waits forever. With aging, P2's
//     REQUEST raises P1's (earliest) entry to 2 and P1 wins the tie by
//     arrival: replayed on coord-res the trace diverges at that step (8).
//     The coordinator P0 (priority 0) starves the same way (prefix 3).
//   - coord-res/tie-by-pid: equal priorities served by the larger pid.
//     Safe at bounded R, starves with cyclic=1. Lasso at n = 3, k = 1
//     (testdata/tie-by-pid-n3-k1-cyclic.starvation-freedom.trace.json,
//     prefix 6, cycle 5, 147 states): P0 is in its CS on the resource; P1's
//     request is queued, then P2's ages it to 2. From then on P1's entry has
//     the top priority, but so does every request of P2, and the tie goes to
//     P2: the same cycle as above. Replayed on coord-res the trace diverges
//     at step 6, where P0's exit serves P1 (earlier arrival) instead of P2.
//
// There is no literal variant: §V has no pseudo-code, and every reading
// above is a completion, not a correction.
//
// # How the counts were cross-checked
//
// naive_test.go is a second enumerator written from the steps above
// (messages as strings, queues as [2]int slices, a string-keyed map; no
// code shared with the model). It agrees on states, transitions and depth
// for both aging readings; the tests pin them and compare BFS (1, 2
// workers) with DFS.
//
// # Sizes (2 cores)
//
// Bounded R (cyclic=0): n = 3, k = 2, R = 1 (default): 629 states, 1,414 transitions, depth 12,
// instant. n = 3, k = 2, R = 2: 10,217 states (0.01 s); n = 4, k = 1,
// R = 2: 14,678 states (0.02 s). All pass.
package coordres
