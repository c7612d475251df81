// Package fapp models FAPP, the fairness algorithm for priority processes
// (Kanrar and Chaki), as a protocol.Protocol: Raymond's tree algorithm with a
// priority list at every node, aging (Rule 1) and reset (Rule 2).
//
// Source: The framework survey (seed 000) §3.3.3 ("FAPP: A new
// fairness algorithm for priority process mutual exclusion in distributed
// systems", citing [9]; poor OCR: "Py ¢", "Proq", "Pp,q" are P_hold); design
// notes docs/notes/algorithms.md §4 and
// docs/notes/coordinator-variants.md part A (ids F1..F7 below
// are that file's).
//
// # The algorithm
//
// The processes sit on a fixed tree. Holder_i points to the neighbour in
// the direction of the token (itself at the root, P_hold, which holds the
// token). PL_i lists pending requests <who, prio>, who being i or a
// neighbour asking on behalf of its subtree. P0 is the initial root.
//
//  1. Request(i): insert <i, base_i> into PL_i; the root grants at once,
//     others ask.
//  2. REQ <K, r> at S: Rule 1, every other entry with priority t < r becomes
//     t+1; then K's entry becomes max(old, r) (or is added). A root outside
//     its CS grants; a non-root asks.
//  3. TOKEN at M: M becomes the root (Holder_M = M) and grants.
//  4. Exit(i): Rule 2 (i's own entry left PL_i when it entered, so its next
//     request uses base_i again); it grants.
//
// grant (a root outside its CS, PL non-empty): remove the head, the
// earliest arrival among the entries of the largest priority (FCFS among
// equals). If it is the root itself it enters its CS; otherwise Holder =
// head (path reversal), TOKEN to it, and ask (the "dummy token request" for
// the remaining entries). ask (a non-root): send REQ with the largest
// priority in PL to Holder unless an at least as urgent request is
// outstanding (Asked): "the process may stop at any intermediate node".
//
// # Modelling decisions
//
//   - Base priority of Pi is i, larger = more urgent (coordinator-variants.md
//     "Priority convention"; algorithms.md §4 uses 1 + i mod Pmax instead:
//     not offered). Priorities never exceed n-1: aging stops at the priority
//     of an existing request.
//   - Trees (parameter "tree"): 0 line (edges i -- i+1, default), 1 star
//     (all attached to P0). Only the initial holder pointers depend on it.
//   - PL is kept in arrival order and the head is computed (first entry of
//     maximal priority); an entry raised by a later REQ keeps its arrival.
//   - F1: every node ages every entry except the sender's own. F2: a
//     neighbour's entry is replaced by max(old, r), never lowered. F5: ask
//     uses the largest current priority. F6: priorities live only in PL
//     entries. F7: Raymond's holder flip.
//   - F3 (idle root): repaired, the root grants on a request (Raymond's
//     ASSIGN_PRIVILEGE); literal variant below. F4 (intermediate root
//     forwards the token): repaired by grant; not shipped as a variant.
//   - ask never counts an entry of the holder itself: asking the holder for
//     the token on the holder's own behalf is pointless (its REQ overtook
//     the TOKEN it sent, which the unordered network of semantics.md §1
//     allows, or it is a stale priority upgrade whose token was already
//     sent towards it). Without this rule the search at n = 3, line, R = 1
//     does not end (we ran it: over 3 minutes and 2.6 GB): after every
//     process has finished its CS the token keeps moving between Idle
//     processes, driven by such REQs, and the messages in transit pile up
//     (breadth-first search reaches states with more than 3, 4, 5 and 6
//     messages in transit at depths 19, 32, 40 and 50; with the rule the
//     maximum is 3 at R = 1 and 8 at R = 2). Raymond's algorithm, which
//     FAPP extends, relies on FIFO channels, under which a REQ cannot
//     overtake the TOKEN sent before it on the same edge.
//   - Stale entries (from upgrade REQs that arrive after the token left
//     towards their sender) are kept and served like others: they cost a
//     token trip, not safety.
//   - P0 is also a client (every process can request in the protocol layer).
//   - Starvation freedom (the point of aging) is checked with cyclic
//     clients, below.
//
// # Cyclic clients
//
// Parameter cyclic=1 (NewCyclic; the same convention in coord-ring and
// coord-res) sets protocol.Protocol.Cyclic: every process requests again
// whenever it is Idle, no request count is kept (Info.Requests == 0) and r
// is ignored. The default (cyclic=0) is unchanged, and so are its counts.
//
// Nothing needs renumbering: FAPP keeps no counter. Priorities stay in
// 0..n-1 (a base priority is the id, and rule 1 raises an entry only while
// it is below the priority of a request that exists), a PL has at most one
// entry per neighbour plus one of its own, Asked is a priority or -1, and
// Holder is a neighbour or the process itself. So every local state is
// bounded, and cyclic=1 is the model itself, not an abstraction of it.
//
// The network is not bounded (algorithms.md §4 predicted it): in the
// unordered network REQs pile up. A root that passes the token on asks
// for it back (the dummy request) with its own entry's priority; a later
// REQ from the new holder ages that entry (rule 1), so it asks again with
// the higher priority, and both REQs may stay in transit while the token
// comes back, is used and leaves again. At n = 2 the shortest path to a
// state with more than 4, 8 and 12 messages in transit has 25, 53 and 81
// steps (TestCyclicDefaultBounded); the search keeps going (3,000,000
// states at depth 2,123, 3 s). The starvation verdict of the default is
// therefore bounded: no fair starving cycle among the first 3,000,000
// states at n = 2 (line; 3 s), n = 3 star (8 s) and n = 3 line (9 s), 2
// cores. It is not a proof. (Raymond's algorithm assumes FIFO channels,
// under which a REQ cannot overtake a REQ sent before it; the protocol
// layer has neither FIFO channels nor a channel capacity, design notes
// §10.2.) A lasso found in a bounded graph is real, so the mutant below is
// caught.
//
// # Variants
//
//   - fapp (default, repaired).
//   - fapp/literal: a root receiving a request only ages and inserts (F3).
//     Finding: no-deadlock fails after 4 steps at n = 2 (P0 requests and
//     exits, P1's request reaches the idle root and stays there) and after
//     6 at n = 3 (line). The notes' 2-step trace assumes P0 is not a client.
//     With every property, idle-root-empty fails first (2 steps). Traces:
//     testdata/literal-n2-r1.no-deadlock.trace.json and
//     testdata/literal-n3-line-r1.no-deadlock.trace.json.
//   - fapp/keep-root: the sender of the token keeps Holder = itself. Breaks
//     single-token after 2 steps and mutex after 4 (n = 3, line).
//   - fapp/no-dummy: a root that passes the token does not ask for it back.
//     Breaks no-deadlock after 9 steps (n = 3 line) and 8 (n = 3 star).
//   - fapp/no-aging: rule 1 removed (algorithms.md §4). Safe (n = 3, R = 2:
//     6,989 states, every property holds), but with cyclic=1 it breaks
//     starvation-freedom. Without aging the cyclic model at n = 2 is finite
//     (16 states): an entry never rises, so no upgrade REQ is sent. Lasso
//     (testdata/no-aging-n2-cyclic.starvation-freedom.trace.json, prefix 3,
//     cycle 6): P1 requests and P0 sends it the token; P0 requests and asks
//     P1 with priority 0. In the cycle P1 lists P0's entry behind its own
//     (priority 1 beats 0), enters, exits and sends the token to P0 (the
//     head of its list, now holder P0), requests again, and its REQ with
//     priority 1 reaches P0 before the token: P0's list is [<P0, 0>,
//     <P1, 1>], so the token goes straight back to P1 and P0 asks again.
//     P0 waits forever. With rule 1 that REQ raises P0's own entry to 1,
//     which then wins the tie by arrival: replayed on fapp, the trace
//     diverges at that step (8). On the star with n = 3
//     (testdata/no-aging-n3-star-cyclic.P1.starvation-freedom.trace.json,
//     prefix 1, cycle 12, the notes' scenario): P1 (priority 1) keeps
//     losing to P2 (priority 2), whose request P0 forwards to P1 with
//     priority 2; P1 even receives the token and passes it on, because
//     P0's entry (priority 2) beats its own (1). Replayed on fapp it
//     diverges at step 6, where rule 1 raises P1's own entry to 2.
//
// # Algorithm-specific invariant
//
// RootOwesNothing ("idle-root-empty"): a process holding the token outside
// its CS has an empty PL. It is the local form of "the token goes to the
// most urgent pending request"; a global form is not an invariant
// (requests in transit are pending but unknown, algorithms.md §4).
//
// # How the counts were cross-checked
//
// naive_test.go is a second enumerator written from the rules above
// (strings for messages, [2]int pairs for PL entries, a string-keyed map; no
// code shared with the model). It agrees on states, transitions, depth and
// deadlocks for the default (n = 2, 3, line and star, R = 1 and 2) and the
// literal reading; the tests pin them and compare BFS (1, 2 workers) and DFS.
// Run with cyclic clients and without rule 1 it agrees with the no-aging
// model at n = 2 (16 states, 28 transitions).
//
// # Sizes (2 cores)
//
// n = 3, R = 1: 498 states (line), 453 (star), instant. n = 3, R = 2:
// 253,581 states, depth 53, 0.44 s (line); 161,673 (star). n = 4, R = 1:
// 28,059 (line), 78,324 (star). n = 3, R = 3 and n = 4, R = 2 (line) do not
// complete within 5,000,000 states (13-16 s); whether they are finite is
// not established.
package fapp
