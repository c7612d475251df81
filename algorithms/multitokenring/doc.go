// Package multitokenring models the several-tokens ring (Razzaque and
// Hong) as a protocol.Protocol: every request creates its own token, which
// must travel once around a logical ring; the owner enters its CS when the
// token comes back, so the returned token is the collected consent of all
// other nodes. One CS per resource.
//
// Source: The framework survey (seed 000) §3.3.4 ("Several tokens
// distributed mutual exclusion algorithm in a logical ring network", citing
// [10]); design notes docs/notes/algorithms.md §5 and
// docs/notes/several-tokens.md (ids A1..A9 below are that
// file's).
//
// # The algorithm
//
//  1. Request(i, r): i picks SeqNum = HSeqNumSeen + 1 and sends
//     TOKEN(owner i, sn, r) to next(i) = (i+1) mod n, keeping a copy
//     (MySN, Res).
//  2. TOKEN(o, sn, r) at j: H_j = max(H_j, sn); then
//     - o == j: its own token is back, j enters its CS on r;
//     - j is InCS for r: j holds the token back;
//     - j is Waiting for r: it passes the token on if (sn, o) < (MySN_j, j)
//     (the older request has priority), otherwise holds it back;
//     - otherwise (no interest in r): it passes the token on unchanged.
//  3. Exit(j): j sends the held-back tokens to next(j) in arrival order and
//     drops its copy.
//
// # Modelling decisions
//
//   - Ring direction: one global direction, clockwise (A1); the paper's
//     "clockwise and anticlockwise" is not offered as an option.
//   - Priority: smaller (SeqNum, PID) wins (A2).
//   - H is not set at request time (A7, the text's reading; algorithms.md §5
//     sets it, which gives the same SeqNums and other state counts).
//   - Resources 0..k-1 are the request argument: Request(Pi, g=r) asks for
//     resource r (Protocol.Groups = k; this is not GME).
//   - A node holds back only tokens for the resource it waits for or uses,
//     so one FIFO list Held replaces the paper's per-resource queues (the
//     reachable states are the same, several-tokens.md "State").
//   - A node InCS or Waiting for another resource passes a token on (A4,
//     A5): different resources never block each other.
//   - No message at exit for the consumed own token (A8). No faults (A9).
//   - Sequence numbers never exceed n*R; the model is for bounded R only.
//
// # Properties
//
// The generic mutex and single-token are replaced (invariants.With) by
// their multi-token readings:
//
//   - mutex (ResourceMutex): at most one process InCS per resource.
//   - single-token (TokenPerRequest): per request, each Waiting process's
//     token exists exactly once (in transit or held back) for the resource
//     it asked for, and no other token exists (a process InCS has consumed
//     its own). This is the "token-per-request" invariant of algorithms.md
//     §10.7: no token is lost or duplicated; with mutex, at most one
//     returned token per resource grants a CS.
//
// no-unrequested-entry and no-deadlock are the generic ones. The tests also
// check two "sometimes" properties: every process can enter, and with
// k = 2 two processes can be InCS together (never with k = 1).
//
// # Variants
//
//   - multi-token-ring (default, repaired): as above.
//   - multi-token-ring/literal: a forwarder with no interest "replaces the
//     sequence number by HSeqNumSeen" (A3). Finding, reproduced by the
//     checker: no-deadlock fails after 11 steps at n = 4, k = 1, R = 1 (the
//     enumerated trace of algorithms.md §5, step for step) and after 10 at
//     n = 3, k = 2, R = 1 (the trace of several-tokens.md A3): two Waiting
//     processes each hold back the other's token, network empty. No
//     deadlock at n = 3, k = 1, R = 1..3. Traces:
//     testdata/literal-n4-k1-r1.no-deadlock.trace.json and
//     testdata/literal-n3-k2-r1.no-deadlock.trace.json (replayed by the
//     tests, which also show that the default diverges from them).
//   - multi-token-ring/no-max: HSeqNumSeen is never updated. Breaks mutex
//     after 6 steps (n = 2, k = 1, R = 1).
//   - multi-token-ring/pass-in-cs: a process InCS for r passes tokens for r.
//     Breaks mutex after 6 steps (n = 2).
//   - multi-token-ring/no-release: Exit drops the held-back tokens. Breaks
//     single-token after 6 steps, and no-deadlock after 6 when checked alone
//     (n = 2).
//
// # How the counts were cross-checked
//
// naive_test.go is a second enumerator written from the handlers above
// (tokens as strings, a sorted string slice as the network, a map of string
// keys; no code shared with the model). It agrees with the model on
// states, transitions, depth and (via its own count of terminal states with
// a non-Idle process) deadlocks for the default and the literal reading;
// the tests pin those counts and compare BFS (1 and 2 workers) with DFS.
//
// # Sizes (2 cores)
//
// n = 3, k = 2, R = 1 (default): 4,935 states, 11,072 transitions, depth
// 15, 0.003 s. n = 3, k = 1, R = 2: 5,319 states; n = 3, k = 2, R = 2:
// 104,205 states (0.12 s); n = 4, k = 2, R = 1: 225,941 states (0.22 s);
// n = 3, k = 1, R = 3: 24,540 states. All pass.
package multitokenring
