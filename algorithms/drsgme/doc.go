// Package drsgme models DRS_GME, the fault-tolerant token-based group
// mutual exclusion algorithm of Swaroop and Singh, as a protocol.Protocol.
//
// Source: Swaroop and Singh (seed 002): §III (data structures),
// §IV (description, example, Table I), §V (proofs), §VI (performance),
// §VII (extended GME) and Appendix A (pseudo-code, Events 1-10, printed in
// two interleaved columns). The reconstruction and the repairs follow
// docs/notes/algorithms.md §7 (items D1..D22, repairs R1..R10) and
// docs/notes/drs-gme.md (items E1..E15). Paper ids 1..n are
// 0..N-1 here; P0 holds the token initially.
//
// # The algorithm
//
// One token; its holder for a session is the captain. The captain opens a
// session of one group (token.type) and admits requesters of that group as
// followers with START messages; it passes the token only when it has left
// its CS and every follower has sent COMPLETE. Requests go to a dynamic
// request set RS_i (processes that may hold the token); pending requests
// wait in token.queue, one entry per group, FCFS. Process states (St): N,
// R, EC (captain in CS), EF (follower in CS), HS (captain out, followers
// in), HI (idle holder). Timer T1 of a waiting process broadcasts GEN
// (gen_token): a process that last passed the token, and has not seen it
// since, regenerates it from its copy old_token. Timer T2 of a captain
// sends ISC (is_complete) to followers that have not completed.
//
// # Variants
//
//   - drs-gme (default): the repaired reading R1-R10 of algorithms.md §7.2:
//     the session grows at every pass and a token is valid iff its session
//     exceeds max(acc_i, old_token_i.session) (R1, D1); Event 2's typos
//     read as j (R2, D2-D5); START/ISC carry (group, request number) and
//     are accepted only by that waiting request (R5, D6); followers are
//     (pid, sn) pairs (R6, D7); the token carries LN[] and holders ignore
//     served requests (R7, D8); a new captain serves the requests it
//     recorded while waiting (R8, D9); regeneration needs s <=
//     old_token.session and a non-empty old queue (R9, D11); Event 8's
//     holder cases are Event 2's holder-request (R4, D12-D14), except that
//     a gen_token from an already admitted follower re-sends its START, as
//     Event 8 prints "Send start(i) to P_j" (that follower's START was
//     lost; the R5 guard makes a duplicate harmless; an earlier timer mode
//     without this re-send let starvation-freedom find a follower starving
//     after a lost START); Event 5's HI branch resets type and old_token
//     like Event 4 (R10, D15); TGI is omitted (D17).
//   - drs-gme/literal: Appendix A as printed (D1-D4, D6-D9, D12, D13
//     literal; only the non-executable addressing of D5 fixed, a "send to
//     P_i" to oneself dropped). It fails at the first hand-over: the token
//     carries session 0 and its receiver rejects it (D1).
//   - drs-gme/literal-r1: the literal reading with only R1 repaired, so
//     that the other literal items become reachable (algorithms.md §7.7).
//   - drs-gme/ext: extended GME (§VII, algorithms.md §7.4). A request names
//     a non-empty set of groups: the request argument a (0..2^M-2) is the
//     set a+1 as a bit mask (argument 0 = {g0}, 1 = {g1}, 2 = {g0,g1}, ...).
//     A holder admits j if token.type is in the set and token.queue is
//     empty (§VII literally, also in EC), otherwise j joins the entry of
//     every group of its set; accepting an entry and admitting a follower
//     delete all other memberships of those processes; an HI holder's new
//     session takes the smallest group of the set. Entered processes call
//     Ctx.EnterGroup with the admitted group, so gme-safety compares
//     admitted groups. It is a variant of the same algorithm rather than a
//     separate drs-gme-ext entry, because it shares every parameter and
//     handler.
//   - drs-gme/regen-lt: the repaired reading with D11's other reading of
//     the regeneration test, the proof's session < old_token.session
//     instead of the pseudo-code's <=. The last passer then never
//     regenerates a token lost on its way: at N=2, M=1, R=1, F=1 the
//     requester starves in a livelock of gen_token requests (lasso of 3+2
//     steps, testdata/regen-lt-n2-f1.starvation-freedom.trace.json); the
//     default is starvation-free there (TestRegenLTStarves).
//   - drs-gme/regen-empty: D11's other side (drs-gme.md E12): the <= test
//     without R9's "old_token.queue non-empty", so every process that
//     never passed the token regenerates from its empty copy; the copy's
//     undefined head is read as the requester j of the gen_token, which
//     opens its own group. At N=2, M=2, F=1 the requester regenerates a
//     token for itself beside the original: single-token after 3 steps,
//     gme-safety after 4, no-unrequested-entry after 6.
//   - drs-gme/literal-d2, -d4, -d6, -d7, -d9: the repaired reading with one
//     literal item of algorithms.md §7.7 back, so that the item's own
//     counterexample shows (in literal-r1 D3's and D8's come first): D2
//     no-deadlock after 12 steps (N=3); D4 none (fault-free, and with
//     timers any at N=2, against the notes' unconfirmed guess); D6
//     no-unrequested-entry after 6 with timers any (N=2), gme-safety after
//     8 with R=2; D7 no-deadlock after 13 (N=2, R=2); D9 no-deadlock after
//     6 (N=2). TestLiteralItemVariants and TestLiteralD4Harmless.
//   - Mutants (algorithms.md §7.8, §9.2): pass-before-complete (Event 4
//     passes while followers are inside), admit-any-group (the captain
//     starts any group), keep-token (an HI holder passing the token keeps
//     a copy), no-rs-add (an HI holder passing the token does not put the
//     new captain into RS_i, the D3 typo alone), accept-any-token (Event 6
//     without the session test). accept-any-token needs timers: with
//     quiescent timers and no loss, T1 fires while the requester's entry
//     waits in a token held in a CS, the last passer regenerates a
//     duplicate, and after the original has moved on the duplicate is
//     accepted (no-unrequested-entry in 8 steps, single-token in 9,
//     gme-safety in 10). Where the duplicate reaches a process that
//     still holds the original, the model replaces the held token, so two
//     holders arise only after the original has been passed on.
//
// # Code layout
//
// Each variant is a handler set chosen once when the protocol is built
// (New): drsgme.go holds the handlers of the repaired reading, Events 1-10
// of Appendix A with repairs R1-R10 (the defaults of every variant), and
// readings.go the items a variant is made of: the literal items of
// algorithms.md §7.7 (D1-D4, D6-D9, D12/D13, D15), the extended problem
// (§VII), D11's readings of the regeneration test, drs-gme/fcfs's history
// and the mutants. An item replaces only the steps it changes (the proto
// struct lists them, each with the repair or item it stands for), so no
// handler asks which variant it runs in; a variant is the repaired set
// with its items applied in order (variantItems). types.go and scratch.go
// are the state and its encoding, guard.go the timer modes, fcfs.go the
// request-order history, props.go the algorithm's own properties.
//
// # Timers (algorithms.md §7.3)
//
// T1 and T2 are untimed protocol-layer timers. T1(i) runs while i is
// Waiting; T2(i) while i holds the token with followers that have not
// completed. Parameter "timers": 1 off; 2 quiescent; 3 any; 0 auto (the
// default) = off when faults = 0 and quiescent when faults > 0 (drs-gme.md:
// "without --timers (the default, fault-free) neither is enabled"; the
// fault-tolerance claims need timers). In every mode a timer fires only
// when no GEN (ISC) of the same process and no second copy of any message
// is in transit: the first clause is the notes' in-transit guard, the
// second bounds the state space (each GEN answered by a relayed request or
// a regenerated token adds one more identical copy; further copies are
// stale requests, invalid token copies or already counted completes, which
// change nothing). "quiescent" moreover lets T1 fire only when the network
// is empty: a real T_req = (n+1)t_m + (n-1)t_c expires when nothing else
// is going to happen, so premature token-loss suspicions are excluded.
// T2 is "session-quiescent" in that mode: it fires only when no START
// from the captain and no COMPLETE to it is in transit, i.e. when its
// session has gone silent (T_fol = 2t_m + t_c is much shorter than T_req,
// so unrelated traffic must not hold it back). It may still fire while a
// follower is in its CS; such a false T2 is harmless (EF ignores ISC).
// With T2 fully quiescent, starvation-freedom finds weak-fairness
// artefacts: another process's T1 keeps the network busy forever, so the
// captain's T2 is never continuously enabled and a lost START is never
// repaired. With T2 under the "any" rule the state space explodes (N=3,
// M=1, R=2: more than 15.8 million states). "any" also allows premature
// T1 expiries (regenerations while the token is only slow); the repaired
// reading stays safe under them. The mode filter is the protocol's
// whole-state Guard (guard.go) because TimerEnabled sees only the owner's
// local state. The gen_token that Event 7
// sends "to itself" is handled at once inside T1 (algorithms.md §7.2).
//
// Faults: parameter "faults" (F) lets the protocol layer lose any F
// messages (token, request, start, complete, gen_token, is_complete). Site
// crashes with stable storage behave like message loss (drs-gme.md).
//
// # Properties
//
//   - single-token is the algorithm's own (Properties), replacing the
//     generic count: live tokens = processes in EC/HS/HI plus distinct
//     receivers with a TOKEN in transit that they would accept now (session
//     above max(acc, old_token.session); the literal reading uses its own
//     test). It must be exactly 1 when F = 0 and at most 1 when F > 0.
//     The generic count fails as soon as a regenerated duplicate is in
//     transit (TestValidTokenReplacesGeneric).
//   - queue-bound: token.queue never has more than min(N, M) entries (§VI
//     forum switch complexity; M for drs-gme/ext).
//   - gme-safety, no-unrequested-entry, no-deadlock are the generic ones.
//     With timers on, no-deadlock is nearly vacuous (a waiting process can
//     always fire T1); use starvation-freedom.
//
// # Results (measured on the shared 2-core machine, tokenmc check)
//
// Repaired drs-gme, M=2, R=1 unless stated; every safety property above
// holds, and starvation-freedom (weak fairness, --props
// starvation-freedom) holds wherever it was run (marked *):
//
//	N=3 F=0 timers off (auto)   11,389 states     29,548 transitions  0.1 s *
//	N=3 F=0 quiescent           65,201 states    231,476 transitions  0.4 s *
//	N=3 F=1 quiescent (auto)   508,789 states  2,130,066 transitions  2.6 s *
//	N=2 R=2 F=1 quiescent       92,453 states    303,716 transitions  0.4 s *
//	N=2 F=1 any                 21,375 states    122,296 transitions  0.1 s *
//	N=3 M=1 R=2 quiescent    5,766,919 states 30,902,738 transitions  28 s, 1.7 GB
//	drs-gme/ext N=3 F=0         41,365 states    110,718 transitions  0.35 s *
//	drs-gme/ext N=3 F=1      1,957,369 states  8,356,956 transitions  9.3 s, 0.5 GB *
//
// "any" mode does not complete at N=3, M=2, R=1 (more than 2.5 million
// states at BFS depth 12); N=2 is the largest size it completes. N=3,
// M=2, R=2 does not complete either (more than 4 million states without
// timers).
//
// With timers off, N=3, M=1, R=2, the repaired reading deadlocks in the
// 22 steps that algorithms.md D10 predicts
// (testdata/repaired-d10-no-deadlock.trace.json): a request that reaches
// a former holder just after it passed the token is only recorded, and
// nobody forwards it. With quiescent timers the same configuration has no
// safety violation (table above) and the D10 state can finish
// (TestD10TimersRecover): the algorithm is live in fault-free runs only
// thanks to T1.
//
// Literal findings (traces under testdata/, replayed by
// TestTestdataTracesReplay):
//
//   - literal-d1-single-token: D1, no valid token after 2 steps
//     (Request(P1), Deliver REQ: P0 passes session 0, which P1 must reject).
//   - literal-d1-no-deadlock: D1, 4 steps, both processes waiting forever.
//   - literal-r1-d3-no-deadlock: D3, 5 steps: P0 adds itself, not P1, to
//     RS_0, so its later request goes nowhere.
//   - literal-r1-d8-unrequested-entry: D8, 9 steps: P1's stale request is
//     served again by P2 and P1 enters its CS from Idle.
//   - literal-r1-d12-single-token: D12 with F=1, 4 steps: a lost request,
//     T1, and Event 8 case HI sends the token and stays HI.
//   - literal-r1-d12-gme-safety: D12 with F=1 and R=1, 6 steps, the notes'
//     trace: P0 keeps the token, requests g1 and enters as captain; P1
//     accepts the sent token (session + 1, valid under R1) and enters g0.
//     Event 8 case HI gives the sent token session + 1 like every other
//     send under R1 (until issue 13 it kept the session, so the sent token
//     was invalid at P1 and this trace needed R=2).
//   - repaired-d10-no-deadlock: D10 above.
//
// Each literal item alone, on top of all other repairs
// (TestLiteralItemsOneAtATime), reproduces drs-gme.md's predictions: D1
// single-token in 2 steps (E1); D2 no-deadlock in 12 (E7, N=3); D3
// no-deadlock in 5; D4 harmless fault-free (E3, N=3 R=1 ok); D6
// no-unrequested-entry in 6 with timers any (E10); D7 no-deadlock in 13
// (E9, N=2 M=2 R=2); D8 no-unrequested-entry in 10 (E6's 9 steps plus
// the token delivery); D9 no-deadlock in 6 (E5); D12 single-token in 4
// with F=1. At the registry defaults (N=3, M=2, R=1) the variants' BFS
// lengths are pinned by TestRegistryVerdictsAtDefaults.
//
// # Counts and how they were cross-checked
//
// The exact counts of the repaired reading without timers (N=2 M=2 R=1,
// N=2 M=1 R=2, N=2 M=2 R=2, N=3 M=2 R=1) equal those of naiveDRS
// (naive_test.go), an independent enumerator written from algorithms.md
// §7.2 with plain structs, string keys and a map-based BFS, sharing no
// code with the model. algorithms.md quotes 12,157 states at n=3, M=2,
// R=1 (and drs-gme.md 2,957 at n=2, M=2, R=2) from a throw-away Python
// enumerator: that is drs-gme.md's reading without timers and faults, with
// SX_i, without TGI, with local self-pass and (pid, sn) followers, and
// with Event 5's HI branch as printed (token.type and old_token are not
// reset, D15 literal). With that one change both this model and naiveDRS
// give exactly 12,157 states (30,728 transitions, depth 17) and 2,957
// (4,490, depth 18); with D15 repaired, as here by default, 11,389 and
// 2,573. Counts with timers or faults are not cross-checked by a second
// enumerator and are not pinned.
//
// # Modelling decisions
//
//   - The client phase is the protocol layer's, kept separately from St:
//     an HS captain whose own request is queued is Waiting (Event 1 HS).
//   - Proc encodes the captain only in EF and the token only in EC/HS/HI;
//     follower_i, SN, SX, RS, acc and old_token always. Sets are bit masks
//     (JSON lists), followers sorted by (pid, sn).
//   - A TOKEN message does not record its sender. START carries the group
//     of the session and the admitted request number; COMPLETE the request
//     number; GEN (j, sn, X, old session); ISC (type, sn).
//   - The helper "add to queue" ignores a process already queued (the
//     grouping of Table I row (d); dedupe). A holder also ignores a request
//     of a queued process, a served one (sn <= LN[j]) and an admitted one.
//   - A captain that passes the token to its own entry (Event 5 with its
//     own Event-1 request at the front, E4) accepts it locally.
//   - In the literal reading a token whose queue is empty (only after D12)
//     makes its receiver open a session of its own requested group; START
//     and ISC enter with the process's own requested group (as the notes'
//     predictions assume), from any phase.
//   - The extended variant's admission requires an empty queue also in EC
//     (§VII as printed; D20), so smooth admission is weaker there.
//   - Concurrent occupancy is checked by the generic property of another
//     package, not here.
package drsgme
