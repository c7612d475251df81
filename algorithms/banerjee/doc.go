// Package banerjee models the Banerjee-Chrysanthis arbiter / Q-list
// token algorithm for distributed mutual exclusion as a protocol.Protocol, with
// its published extensions: sequence numbers, the starvation-free monitor
// variant and failure recovery.
//
// Source: Banerjee and Chrysanthis (1996; seed 003),
// "A New Token Passing Distributed Mutual Exclusion
// Algorithm": §2.1 and Figure 1 (basic algorithm), §2.2 (example), §2.3
// (correctness), §2.4 and §5.1 (sequence numbers), §3.1 (message counts),
// §4 and §4.1 (starvation, monitor), §6 (recovery). Design notes:
// docs/notes/algorithms.md §6.1-6.9 (ambiguities A1..A12 cited below are
// that file's) and docs/notes/banerjee-chrysanthis.md (the
// companion; its ids are cited as "companion A..").
//
// # The algorithm
//
// One process at a time is the arbiter. Requests go to the process each
// client believes is the arbiter, which appends them to a list. When the
// arbiter holds the token and its collection phase ends, the list becomes
// the token's Q-list, the token goes to the head, every process runs its CS,
// removes itself and sends the token to the new head, and the last process
// of the list becomes the next arbiter. The old arbiter broadcasts
// NEW-ARBITER(tail) and then forwards late requests for a while; requests
// arriving after its forwarding phase are dropped. The paper's "node 1" is
// P0, which starts as arbiter holding the idle token.
//
// Handlers (algorithms.md §6.1, repaired, the default banerjee):
//
//  1. Request(i): the arbiter appends i to its own list (no message, the
//     §3.1 zero-message case); anybody else sends REQUEST(j=i) to the
//     process it believes is the arbiter.
//  2. Deliver REQUEST(j): a Collecting arbiter appends j if absent; a
//     Forwarding process sends it on to its new arbiter; anyone else drops it.
//  3. Deliver PRIVILEGE(Q, round): the receiver holds the token; if it is
//     the tail of Q it becomes the arbiter at once (the token is proof, §3.1;
//     A3); it enters its CS.
//  4. Exit(i): i removes itself from the head of Q and sends the token to
//     the new head; the tail (the arbiter) keeps it.
//  5. Deliver NEW-ARBITER(a, Q, round): ignored unless its round is newer
//     than any seen (A4); then the receiver believes a is the arbiter and,
//     if it is a, starts collecting with an empty list.
//  6. EndCollection(i) (Timer t=0): enabled when i is the Collecting
//     arbiter, holds the token, its own turn in the last list is over, it is
//     not InCS and its list is non-empty (A1). The list becomes Q; round+1;
//     Q = [i] is served locally without a message; otherwise NEW-ARBITER(tail)
//     goes to every other process, i becomes Forwarding (or stays Collecting
//     when it is the tail itself), and the token goes to the head (or i
//     enters its CS when it is the head).
//  7. EndForwarding(i) (Timer t=1): a Forwarding process becomes None.
//
// # Code layout
//
// The files follow the paper's sections. Each variant is a handler set
// chosen once when the protocol is built (New): basic.go holds the handlers
// above (§2.1, the defaults of every variant), literal.go Figure 1 as
// printed, seq.go §2.4/§5.1, sf.go §4.1, rec.go and rec_guard.go §6, and
// mutants.go the mutants that replace one handler; a variant's constructor
// replaces only the handlers it changes (alg.go lists them), so no handler
// asks which variant it runs in. types.go and codec.go are the shared state
// and its canonical encoding, timers.go the typed Timer constants (each
// algorithm numbers its own timers: t=2 is TimerMonitor in banerjee-sf and
// TimerRetrans in banerjee-rec). Global conditions (banerjee-rec's timer
// modes, crash budget and takeover oracle; the cyclic clients' backlog
// bound) are protocol.Protocol.Guard hooks and the cyclic renumbering is a
// protocol.Protocol.Normalize hook, so every variant is a plain protocol
// system that tokenmc run can execute (without the renumbering, on
// absolute rounds).
//
// # Modelling decisions
//
//   - Real time (algorithms.md §6.2): the collection and forwarding phases
//     are the nondeterministic timers t=0 and t=1 of their owner, enabled
//     whenever the paper's preconditions hold, so every choice of the two
//     durations and every message delay is covered. Both are weakly fair
//     (the liveness checker treats timers so).
//   - State of process i (Proc): Arb, Role (None/Collecting/Forwarding),
//     the collected list Q (encoded only while Collecting), Has and the
//     token's list TQ (encoded only while Has), Round. The phase and made_i
//     are kept by the protocol layer. Messages do not record their sender
//     (a forwarded REQUEST is the same message whoever forwards it), except
//     in banerjee-rec, whose replies need it.
//   - NEW-ARBITER carries the Q-list (§2.1 "The Q-list is sent as part of
//     the NEW-ARBITER message") and is sent to every other process, the new
//     arbiter included (eq. 1 counts N-1 of them; A5, companion A6).
//   - A repair beyond the notes: when the arbiter's own request is the last
//     of its list, it stays Collecting (algorithms.md §6.1 step 6.4 would make
//     it Forwarding to itself).
//   - Bounded counters (algorithms.md §6.6): round numbers grow by one per
//     scheduled list. Every list schedules at least one request that no other
//     list schedules (no duplicates without resubmission), so a round never
//     exceeds N*R and the state space is finite without renumbering; the
//     literal reading has no rounds at all. banerjee-sf and banerjee-rec can
//     schedule a request twice (resubmission, retransmission), but only
//     while its owner waits, and each extra copy is bounded by the
//     resubmission flag (sf) or by quiescent timers (rec), so their rounds are
//     bounded too, and with finite R no renumbering is used (cyclic clients,
//     which do need it, are described below). The rec epoch (below)
//     grows only by regenerations, each of which needs a loss or a silent
//     enquiry, so it is bounded by the fault budget.
//   - A PRIVILEGE reaching a process that is not Waiting: in banerjee,
//     banerjee-seq and the mutants the receiver enters anyway, so that the
//     generic no-unrequested-entry catches it (it never happens in the
//     correct readings); in banerjee-sf and banerjee-rec, where duplicate
//     scheduling is possible, an Idle receiver passes the token on without a
//     CS (algorithms.md §6.1 3.3, A12).
//
// # Variants
//
// banerjee (default, repaired): as above. Late requests are still dropped, as
// the paper says, so no-deadlock fails. This is the paper's own admission
// (§4), algorithms.md A6, and the checker reproduces the predicted trace
// exactly: N = 3, R = 1, 12 steps (testdata/banerjee-n3.no-deadlock.trace.json):
// P0 requests (kept locally), P1 and P2 request, P1's REQUEST is collected,
// EndCollection(P0) with Q = [0,1], P0's CS and exit, EndForwarding(P0), the
// token and both NEW-ARBITERs delivered, P1's CS, and P2's REQUEST reaches P0
// in role None: dropped, P2 waits forever. At N = 2 the shortest is 9 steps
// (a request reaching the designated arbiter before it knows, companion A4;
// testdata/banerjee-n2.no-deadlock.trace.json). mutex, single-token,
// no-unrequested-entry, token-at-head and arbiter-self hold on all 11,304
// states of N = 3, R = 1.
//
// banerjee/literal (Figure 1 as printed, algorithms.md §6.1 "Literal
// variant"): no round numbers (every NEW-ARBITER is accepted and resets the
// list when it names the receiver), no token proof (a process becomes
// arbiter only by NEW-ARBITER), and the collection phase may end with an
// empty list, which starts Figure 1's second collection phase (role
// Collecting2, timer t=0 again); its end makes the process None while it
// keeps the token, dropping whatever it collected. A request a None process
// addresses to itself (it still names itself arbiter) is dropped. Finding
// (A1, predicted by algorithms.md, reproduced): no-deadlock after 5 steps at
// N = 2 (testdata/literal-n2.no-deadlock.trace.json): EndCollection(P0) on an
// empty list, Request(P0), the end of the second phase drops P0's own
// request, P1's REQUEST reaches P0 in role None: both wait forever; 7 steps at
// N = 3 (testdata/literal-n3.no-deadlock.trace.json). TestTokenIsProofOfArbiter
// pins the A3 difference between the two readings.
//
// banerjee-seq (§2.4, algorithms.md §6.3): REQUEST(j, n) with n = 1, 2, ...;
// the token carries L (last granted number of each process); the arbiter
// keeps one entry per process (the larger n), drops entries with n <= L[j]
// at the end of collection, and orders the rest by n (stable: ties keep
// arrival order); L[i] = n on entry. Without retransmission sequence numbers
// change no verdict: the same 12-step deadlock at N = 3
// (testdata/seq-n3.no-deadlock.trace.json).
//
// banerjee-sf (§4.1, algorithms.md §6.4 with the companion's token counter):
// monitor P(N-1); a Forwarding process forwards a request at most tau times
// (REQUEST carries f, A7), the monitor stores every request that reaches it
// while it is not the arbiter; a Waiting process that sees tau accepted
// NEW-ARBITERs without itself resubmits to the monitor (at most one
// resubmission outstanding per request, a bound); the token carries cnt,
// the number of NEW-ARBITER broadcasts since the monitor's last visit. The
// adaptive period (ceil of a moving average of Q sizes) is replaced by a
// fixed period (parameter period: route via the monitor when cnt+1 >=
// period), or, with period=0, by the over-approximation "--period any" of
// algorithms.md §6.4 (at any collection end, even an empty one; must when
// cnt+1 >= N). Routing is Timer t=2: the token goes to the monitor without a
// broadcast, the router forwards late requests to the monitor (A9), and the
// monitor appends its store, broadcasts NEW-ARBITER (even when the list is
// its own, since nobody else knows of the change) and sends the token on.
// When the monitor itself is the arbiter, its collection end is a visit.
// Finding (A10, predicted): the claim "the problem of starvation is
// eliminated" fails: no-deadlock after 17 steps at N = 3, period 2
// (testdata/sf-n3.no-deadlock.trace.json): the monitor's own REQUEST is
// dropped by a previous arbiter, the monitor later receives the token with an
// empty list, becomes the arbiter holding the idle token, and nothing ever
// makes it resubmit. At N = 2 period 2 and 3 pass; period 0 and 1 deadlock
// (9 and 12 steps). N = 3, R = 1: 159,272 states with period 2 (1 s);
// period 0 exceeds 14 million states (not completed in 150 s).
//
// banerjee-sf/adaptive-eq (A8): §4.1's adaptive period read literally. The
// window of Q sizes is one size, carried by the token (Win: the size of the
// last scheduled Q-list), and the arbiter routes via the monitor iff
// cnt+1 == max(Win, 1), the "counter equals the ceiling of the average".
// The counter is capped at N, beyond which the equality can never hold (the
// period is at most N). Findings: at N = 3 the counter reaches N and the
// monitor is never visited again (invariant monitor-reachable; found by
// random simulation with R = 6 since N = 3 exceeds 3 million states even at
// R = 1; testdata/adaptive-eq-n3.monitor-reachable.trace.json, 29 steps);
// at N = 2, R = 1 a Q-list of one makes the period 1, the arbiter routes an
// empty token to the monitor while a request of the monitor is dropped, and
// nothing serves it: no-deadlock after 12 steps
// (testdata/adaptive-eq-n2.no-deadlock.trace.json), where the fixed period
// 2 passes (137 states).
//
// banerjee-sf/adaptive-ge (A8 repaired, algorithms.md §9.1): the same
// window, routing once cnt+1 >= max(Win, 1), "the counter reaches the
// ceiling". The counter then stays below the period (at most N), so
// monitor-reachable holds: on the whole graph at N = 2, R = 1 (1,003
// states, with every safety property), and at N = 3, R = 1 on the first
// 20,000,000 states of a breadth-first search (depth 29; the graph is
// larger, the search was bounded: a bounded verdict, measured once on the
// shared 2-core machine in 3.5 min); the literal reading's 29-step trace
// does not replay on it (its last step, a collection end past the period,
// is not enabled: the token must go to the monitor). Late requests are
// still dropped and a quiet system does not resubmit them (A10):
// no-deadlock after 14 steps at N = 3, R = 1 (78,453 states;
// testdata/adaptive-ge-n3.no-deadlock.trace.json): P0 routes the token to
// the monitor P2, P1's later REQUEST reaches P0 after its forwarding phase
// and is dropped, and no NEW-ARBITER is ever broadcast again that would
// make P1 resubmit.
//
// banerjee-rec (§6, algorithms.md §6.5, with sequence numbers): faults =
// message losses (parameter faults; lose selects any message, PRIVILEGE
// only, or REQUEST and PRIVILEGE). Added per process: Epoch (token epoch,
// number*N + creator, so concurrent regenerations differ), Sched and Prev
// (the Q-list and sender of the last accepted NEW-ARBITER naming or
// containing the process; cleared by a new request), Susp, Warn, and at an
// enquiring arbiter Rep (the reply of each process). Transitions:
//   - Lost request: a NEW-ARBITER without a Waiting process makes it resend
//     REQUEST to the new arbiter (§6 implicit acknowledgment); the
//     retransmission timer (t=2) resends to the believed arbiter while the
//     process waits unscheduled.
//   - Token timeout (t=3): a scheduled Waiting process sends WARNING to its
//     arbiter (once per schedule); the arbiter, on a WARNING or its own
//     timeout (it waits for the token of the schedule that named it), sends
//     ENQUIRY to that schedule's processes and to the previous arbiter.
//     Replies, in this order (seed 003 §6; algorithms.md §6.5 step 4): HAVE
//     if it holds the token (and suspend: the CS cannot be pre-empted, the
//     token is not passed on until RESUME or INVALIDATE, A16); HAD if it
//     has executed its CS with the token of its schedule ("I had the token,
//     and have executed my CS": Had, set at its Exit and, for an arbiter
//     that sends the token of the list it launches to another head, at that
//     collection end; cleared when a newer schedule names it), even if it
//     has requested again since; else WAITING if it waits; else HAD.
//     Variant banerjee-rec/waiting-first answers WAITING before HAD (the
//     model's reading before issue 23; it keeps no Had flag). When all
//     replied, or at the enquiry timeout (t=4, non-responders presumed
//     failed): one HAVE gets RESUME; none: new epoch, INVALIDATE to the WAITING
//     repliers, and a new token with Q = the WAITING repliers in schedule order
//     followed by the arbiter, L all 0. A PRIVILEGE of an older epoch than the
//     receiver's is discarded; INVALIDATE drops an old held token. A HAVE reply
//     to an enquiry that is no longer running is answered by RESUME (else the
//     holder would stay suspended forever; found by the checker).
//   - Timers (algorithms.md §10.5 "quiescent", enforced by the protocol's
//     whole-state guard, protocol.Protocol.Guard, which sees the network): the retransmission timer fires only when no
//     message is in transit, the token and enquiry timeouts only when nothing
//     but REQUESTs is in transit, modelling timeouts longer than every
//     message delay (but not longer than a CS). Variant
//     banerjee-rec/timers-any uses mode "any" of algorithms.md §10.5
//     instead (A11): the retransmission, token and enquiry timeouts fire
//     whenever their handlers allow, also while messages are in transit,
//     except that a timer is disabled while a message sent by its previous
//     expiry is still in transit (which keeps the state space finite).
//     Premature timeouts break mutex with no message lost: N = 3, R = 1,
//     F = 0, 7 steps (testdata/rec-any-n3-f0.mutex.trace.json): P0
//     schedules Q = [0,1] and enters, P1 learns it is scheduled, its token
//     timeout fires at once (ENQUIRY to P0), its enquiry times out before
//     any reply, and it regenerates the token and enters beside P0. The
//     quiescent default is safe there (1,405,984 states; 1,408,512 under
//     waiting-first), but not at R = 2: with F = 0 mutex fails after 22
//     steps (13,500,913 states, 4 minutes under load;
//     testdata/rec-n3-r2-f0-had-first.mutex.trace.json): a WARNING sent in
//     round 1, while P0 was in its CS, reaches the arbiter P2 only after
//     P2 executed its own CS, requested again and launched round 2
//     (Q = [0,2]), sending the token to P0; P2 enquires, P0 (which executed its CS in round 1 and requested again)
//     answers HAD while the round-2 token is in transit to it, nobody
//     answers HAVE, and P2 regenerates the token for itself while P0
//     enters with the real one: a token in transit is reported by nobody.
//     Under waiting-first the same configuration fails sooner, after 17
//     steps (750,175 states; testdata/rec-n3-r2-f0.mutex.trace.json): the
//     arbiter's token timeout fires while the network is quiet and P0 is
//     in its CS, P0 exits, passes the token to P1 and requests again, both
//     answer the ENQUIRY with WAITING before P1 receives the token, and the
//     arbiter regenerates it for P0 while P1 enters with the real one. Variant
//     banerjee-rec/timers-oracle uses mode "oracle" (§6.5, §10.5): the
//     token timeout (WARNING, or the arbiter's own enquiry) fires only when
//     no valid token exists, held or in transit, and the enquiry timeout
//     only when every missing reply is really lost (replier crashed, or
//     neither its ENQUIRY nor its REPLY in transit); the retransmission
//     timer keeps the quiescent rule (with the "any" rule the state space
//     at N = 2, F = 0 did not end). The timers-any trace does not replay
//     on it (step 6, P1's token timeout, is not enabled), and with F = 0
//     every property holds, starvation-freedom included: N = 2, 782
//     states; N = 3, 1,144,646 states (TestTimersOracleN3, TOKENMC_HEAVY=1).
//     With one lost message it still breaks mutex at N = 3, in 29 steps
//     (testdata/rec-oracle-n3-f1.mutex.trace.json): after the lost
//     PRIVILEGE the arbiter regenerates, then a WARNING sent before the
//     regeneration arrives and starts a second enquiry (no timer is
//     involved, so the oracle cannot stop it), and the second regeneration
//     overtakes the holder of the first, who is still in its CS.
//   - Failed arbiter (parameter crash, 0 or 1): Timer t=6 is a crash-stop
//     fault of its owner (budget one crash, enforced by the guard; not a
//     fair action). A crashed process keeps its client phase in the protocol
//     layer but takes no step (the guard disables its Request and Exit),
//     loses a held token, and messages to it are discarded. A process that
//     launched a list watches the tail it named (Mon) until it accepts a newer
//     round; the takeover timer (t=5) fires, as algorithms.md §6.5 step 10
//     says, only when the watched arbiter has really crashed (an oracle for
//     the unanswered PROBE, which is not sent as a message) and nothing but
//     REQUESTs is in transit. The taker broadcasts NEW-ARBITER naming itself
//     with a newer round, collects its own pending request, and waits for the
//     token of the old route, which its token timeout enquires and, if gone,
//     regenerates. mutex and no-deadlock are replaced by versions that ignore
//     crashed processes (LiveMutex, LiveNoDeadlock; equal to the generic ones
//     without crashes).
//   - single-token is replaced (invariants.With) by ValidSingleToken: at most
//     one valid token, a token being valid when its epoch is the largest epoch
//     known anywhere.
//
// Findings: with one lost message mutex fails: N = 3, F = 1, 9 steps
// (testdata/rec-n3-f1.mutex.trace.json): the arbiter's timeout fires while
// the holder is in its CS, the ENQUIRY (or the HAVE reply) is lost, the
// silent holder is presumed failed and a new token lets a waiting process in
// beside it; 8 steps at N = 2. With only PRIVILEGE losses (lose=1): mutex
// after 22 steps at N = 3 (testdata/rec-n3-f1-losetoken.mutex.trace.json):
// the arbiter's timeout fires while P0 is in its CS; P0 exits and hands the
// token to P1 before the ENQUIRY reaches it (HAD), P1 replies WAITING before
// the token reaches it, so the arbiter regenerates although the old token is
// in transit (phase 1 is no consistent snapshot); P1 enters with the old
// token, the INVALIDATE takes the old token away from it (modelling
// decision: an INVALIDATE drops a held token of an older epoch; the CS cannot
// be pre-empted), the regenerated token is lost, and a second regeneration
// lets the arbiter in while P1 is still in its CS. N = 2 with lose=1 passes every property and
// starvation-freedom. The valid-token single-token, no-deadlock,
// no-unrequested-entry, token-at-head and arbiter-self hold at N = 3, R = 1,
// F = 1 on all 5,582,608 states (5,570,890 under waiting-first); with F = 0
// every property holds on 1,405,984 states (1,408,512). The lose=1 trace is
// found after 1,024,122 states (1,030,172), the any-loss trace after 9,644
// (9,646). The heavy runs are in TestRecoveryFindings under
// TOKENMC_HEAVY=1.
//
// Starvation with one lost message (any kind): N = 3, F = 1, weak fairness,
// a lasso of 9 + 2 steps (testdata/rec-n3-f1-lost-new-arbiter.starvation-freedom.trace.json,
// replayed by TestRecoveryStarvesAfterLostNewArbiter): the NEW-ARBITER
// announcing P2 is lost on its way to P1, so P1 keeps sending its REQUEST to
// the old arbiter P0, which is no longer collecting and drops it, and P1's
// retransmission timeout fires again: §6's recovery watches for a lost
// token, not for a lost announcement. The whole graph (5,582,608 states) is
// built in 18 s (81 s under load).
//
// With one crash and no loss: N = 2 passes every property (3,885 states) and
// a takeover is reachable; at N = 3 mutex, single-token and
// no-unrequested-entry hold on all 7,434,831 states (101 s, measured once
// with the CLI), but no-deadlock fails after 17 steps
// (testdata/rec-n3-crash.no-deadlock.trace.json): the arbiter P0 scheduled
// its own request last (so it named itself and nobody watches it), starts an
// enquiry on a WARNING, and crashes; the holder P1 it suspended waits for a
// RESUME that never comes, and P2 waits for the token. §6 covers neither a
// self-named arbiter's failure nor a suspended holder whose arbiter fails.
//
// banerjee/literal-a4 is the default with only A4 literal (handler 5 without
// the round test): every NEW-ARBITER is adopted, the last delivered
// winning. Its own invariant single-arbiter (at most one collecting
// process) fails after 10 steps at N = 2 and 3: a stale NEW-ARBITER makes
// a process collect again after its term, and what it collects is never
// served; the default keeps one arbiter (TestLiteralA4).
//
// # Mutants (algorithms.md §6.9, §9.2)
//
// Pinned by TestMutants (property checked alone, shortest BFS length):
//   - banerjee/send-before-cs: the holder hands the token on at arrival,
//     then enters: mutex, 5 steps (N = 2).
//   - banerjee/arbiter-no-token: EndCollection enabled without the token,
//     which is made up: single-token 7, mutex 9 (N = 2).
//   - banerjee/keep-head: the holder does not remove itself from Q and hands
//     the token to the next other process: the arbiter never gets an empty
//     list (no-deadlock, 5 steps, N = 2) and the token bounces back to an Idle
//     process (no-unrequested-entry, 8 steps, N = 2 and 3).
//   - banerjee-seq/count-from-zero: §2.4 says REQUEST(j, n) is sent "when
//     node j is requesting its (n+1)th critical section"; read with L
//     starting at 0, every first request looks granted already and is
//     filtered out at the end of collection: no-deadlock, 3 steps (N = 2;
//     banerjee-seq: 9).
//   - banerjee-sf/enter-duplicate: a process granted the token a second time
//     (its request was also resubmitted via the monitor) enters again instead
//     of passing it on (A12): no-unrequested-entry, 14 steps (N = 3, period
//     2), which banerjee-sf satisfies.
//   - banerjee-sf/store-unused: the monitor clears its store without
//     scheduling it: no-deadlock, 16 steps (N = 3, period 2; banerjee-sf: 17).
//   - banerjee-rec/forget-waiting: a regenerated token's list holds only the
//     arbiter; the waiting processes, scheduled and already warned, are never
//     served: no-deadlock, 12 steps (N = 2, F = 1, lose=1, where banerjee-rec
//     passes everything).
//
// # Algorithm-specific properties
//
// token-at-head (every variant): a PRIVILEGE goes to the head of its list
// (except a token routed to the monitor) and a holder with a non-empty list
// is its head. arbiter-self (the repaired readings): a process that names
// itself arbiter is Collecting, so no request is ever sent to oneself; it
// fails in the literal reading, which is why the literal does not check it.
//
// # Counts and how they were cross-checked
//
// naive_test.go is an independent enumerator of banerjee and
// banerjee/literal (plain structs, messages as strings, map-based BFS,
// written from algorithms.md §6.1 and these decisions, sharing no code with
// the model). TestCountsCrossChecked pins states/transitions/depth where
// both agree (and agree under 1 and 2 workers, exact mode and DFS): banerjee
// N=2 R=1 125/252/13, N=3 R=1 11304/44909/23, N=2 R=2 2228/6448/24; literal
// 145/281/14, 8469/28265/27, 1411/3571/24. The notes' [enum] numbers (106
// states at N=2 R=1, 9798 at N=3 R=1) are of the companion's different
// reading (immediate entry of an idle arbiter, no Q in NEW-ARBITER) and are
// not expected to match. The other variants' counts are pinned only where a
// test needs them (sf, rec) and were not cross-checked independently.
//
// # Liveness
//
// With finite R every run ends, so starvation can only show as the
// no-deadlock counterexamples above, and starvation-freedom (tokenmc check
// --props starvation-freedom) finds no lasso in banerjee, banerjee-seq or
// banerjee-sf at N = 3, R = 1. banerjee-rec is starvation-free at N = 2 (R =
// 1 with F = 0 and F = 1, R = 2 with F = 0 and with F = 1 lose=1) and at N =
// 3, R = 1 with F = 0 (1,405,984 states; 1,408,512 under waiting-first)
// and with F = 1 lose=1 (3,210,600 states; 3,205,600). Two repairs came from the checker's lassos and
// deadlocks there: the token and enquiry timeouts ignore REQUESTs in
// transit (else a waiting process's endless retransmissions keep the
// arbiter's timeout from ever being continuously enabled: a weakly fair
// starvation lasso), and a HAVE reply to an abandoned enquiry is answered
// by RESUME.
//
// # Cyclic clients
//
// The paper's "indefinite forwarding" (§4: "starvation may occur if request
// messages continuously get forwarded") needs perpetual activity. Parameter
// cyclic=1 (banerjee and its mutants, banerjee-seq, banerjee-sf) gives every process a
// cyclic client (protocol.Protocol.Cyclic: Request is enabled whenever the
// process is Idle, r is ignored, Info.Requests is 0; the default cyclic=0
// leaves every default configuration and every count above unchanged, and
// tokenmc run is never offered a cyclic system by default). Two things keep
// the state space finite (cyclic.go; the renumbering is the protocol's
// Normalize hook, the backlog bound its Guard):
//
//   - Renumbering. After every step every round number is replaced by its
//     rank among the distinct live rounds: each process's Round, each
//     PRIVILEGE's round, and each NEW-ARBITER's round unless it is stale.
//     A stale NEW-ARBITER (round <= its receiver's Round) is ignored on
//     delivery whatever it carries, and stays stale since a Round never
//     decreases, so it becomes the content-free NEW-ARBITER(->k, a=P0, Q=[],
//     round=0). banerjee and banerjee-sf keep no other growing counter
//     (cnt < period, miss < tau, the forward count f <= tau); banerjee-seq's
//     request numbers are renumbered too (below).
//   - Backlog (parameter backlog, default 1). Request(i) is enabled only
//     while at most backlog NEW-ARBITER messages are in transit and no
//     REQUEST of i is (the latter matters only in banerjee-sf, where a
//     resubmission can outlive its request). Without it the broadcasts of
//     fast rounds pile up at a slow receiver without bound, which no
//     renumbering can fold.
//
// Why the renumbered model is bisimilar to the one with absolute rounds
// (for the same backlog rule): the handlers use round numbers only in
// three ways, the test "m.round <= round_i" (stale NEW-ARBITER), round_i =
// max(round_i, r) (PRIVILEGE, NEW-ARBITER), and round+1 at the end of a
// collection or a routing, done by the token holder, whose Round is the
// largest live round (every round is created by the holder, and the token
// carries the newest). An order-preserving map commutes with all three (the
// new largest value stays the largest), and the content of a stale
// NEW-ARBITER is never read. So renumbering relates each absolute state to
// exactly one renumbered state, step for step, with the same phases, the
// same transitions (action kind and process) and the same messages up to
// the round field: a functional bisimulation, which preserves the
// invariants and, for lassos, weak fairness: a message that stays in
// transit keeps or lowers its rank (ranks of live values only fall as
// smaller values disappear; stale is 0), so from some turn of the cycle on
// it has one byte identity, and the checker's family test (enabled
// throughout the cycle, never taken) applies to it; stale copies that the
// renumbered model merges are interchangeable, so the absolute run can
// always deliver the oldest. Hence every lasso found is a weakly fair
// starving run of the absolute model. TestRenumberingCommutes replays the
// lasso below three turns deep in the absolute model (the protocol without
// its Normalize hook), checking that renumbering each of its states gives the
// lasso's state while its own rounds keep growing. The converse (no lasso
// => no fair starving run) is claimed only for the backlog-restricted
// clients, which is what the backlog rule is: a restriction of the unfair
// Request actions only, so every lasso found is a lasso of the unbounded
// system, while a "no lasso" verdict holds for clients that do not request
// while the network is busy.
//
// Reading a cyclic trace: renumbering shows. A NEW-ARBITER that becomes
// stale, or whose rank changes, appears in the step's "sends:" as a new
// message, and rounds of processes that did not act change (round 1 -> 0)
// when a smaller value disappears.
//
// Finding 1, indefinite forwarding (§4), banerjee, N = 3, cyclic=1: every
// process can starve (lassos of P0, P1, P2 with prefixes 7, 1, 1 and
// cycles of 17 steps, the same with backlog 0, 1, 2 and 3; no deadlock). P1's
// lasso (testdata/banerjee-n3-cyclic.starvation-freedom.trace.json, 18
// steps: prefix 1, cycle 17; 161,790 states, 1.4 s with backlog 1; 22,308
// states, 0.3 s with backlog 0) is the paper's indefinite forwarding, and
// it needs no dropped request: P1 requests once (REQUEST to P0) and waits
// forever. In the cycle P2 requests; P0 collects [2] and ends its
// collection (NEW-ARBITER(P2), token to P2); only then does P1's REQUEST
// reach P0, now Forwarding, which forwards it to P2. P2 enters, exits and
// stays arbiter; P0 requests, P2 collects [0] and ends its collection
// (NEW-ARBITER(P0), token to P0); only then does P1's REQUEST reach P2, now
// Forwarding, which forwards it back to P0; P0's token proof makes it the
// collecting arbiter again, P0 enters and exits, the NEW-ARBITERs are
// delivered, and the state is the one before the cycle (P1's REQUEST in
// transit to P0). The cycle is weakly fair: every message sent in it is
// delivered in it, every Exit and collection end fires, and the forwarding
// ends that do not fire (EndForwarding(P0)) are disabled when the process
// becomes the arbiter again; P1's REQUEST is delivered twice per turn, each
// time to a forwarder. Nothing is dropped (TestCyclicLassoReplays checks
// that no REQUEST in the trace reaches a process in role None). N = 3 is the
// smallest N: at N = 2 there are lassos (P0 and P1, prefixes 11 and 18,
// cycles 3; 572 states) but each drops
// the waiting request; with only "waiting with a live request" counted as
// waiting (TestIndefiniteForwardingNeedsThree) N = 2 has none and N = 3 has
// one. Indefinite forwarding needs two alternating arbiters other than the
// waiting process.
//
// Finding 2, banerjee-sf (tau 1, period 2), N = 3, cyclic=1: the
// starvation-free variant starves too. Its cyclic state graph is too large
// to complete (more than 10 million states with backlog 1, more than 3
// million with backlog 0, not finished in 100 s), so the verdict rests on
// lassos found in part of the graph, which are real: with backlog 0 the
// first 100,000 states (0.8 s) already hold P1's lasso
// (testdata/sf-n3-cyclic.starvation-freedom.trace.json, 19 steps, prefix
// 16, cycle 3): P1's REQUEST is dropped by P0 (role None), and P2, which is
// the monitor and now the arbiter, serves only its own requests forever:
// Request(P2) is kept locally, its collection ends with Q = [P2], served
// without a message (§3.1's zero-message case). No NEW-ARBITER is ever
// broadcast, so P1 never misses one and never resubmits to the monitor, and
// the token's counter never advances, so no visit is due: A10's quiet-system
// failure with a busy system. Within 300,000 states (2.5 s) the monitor P2
// starves as well (testdata/sf-n3-cyclic-monitor.starvation-freedom.trace.json,
// 27 steps, prefix 6, cycle 21): its own REQUEST is dropped by P0, every
// NEW-ARBITER reaches it stale (the token's visits bring it a newer round
// first), so it never counts a miss, and when the routed token visits it
// with an empty list it becomes the arbiter without scheduling itself,
// while P0 and P1 take turns. No lasso of indefinite forwarding was
// reported for banerjee-sf (with tau = 1 a request is forwarded once and
// then dropped), but since the graph is incomplete this is not a proof
// that none exists.
//
// banerjee-seq, cyclic=1: its lists are ordered by request number across
// processes (§5.1, the process with the fewest entries first), so the
// differences between the processes' numbers matter, and they grow without
// bound when one process requests more often than another; no renumbering
// of them is exact. The cyclic banerjee-seq therefore adds a lag rule, a
// further restriction of the clients: Request(i) is disabled while some
// process's number is SeqGap = 2 or more above i's. A process that far
// behind never requests again, so the size of its gap is never used again,
// and the numbers can be renumbered with capped gaps: the distinct values of
// the processes' numbers become c_1 = min(v_1, 1), c_(m+1) = c_m +
// min(v_(m+1) - v_m, 2), and every number of process j (its own, L[j], the n
// of its collected entry and of its REQUEST, all within SN_j - 1 .. SN_j)
// moves with SN_j. Order, ties and the "n > L[j]" test are kept, and an
// increment is only allowed where the gaps above are exact, so this too is
// a bisimulation of the lag-restricted absolute model
// (TestRenumberingCommutes follows a banerjee-seq lasso in the absolute
// model). The lag rule can leave a state with no transition (the processes
// that could act are too far behind to request): the check then reports a
// no-deadlock violation that is an artifact of the restriction; in it the
// waiting process's request has been dropped (otherwise a delivery or the
// token would be enabled), and nothing ever resubmits it, so it starves in
// the unrestricted system too.
//
// Finding 3, banerjee-seq, N = 3, cyclic=1, backlog 0 (complete: 314,642
// states, 2.3 s; backlog 1: 1,842,122 states, 17 s, the same verdict): every
// process starves. Shortest-prefix lassos: P0 22 + 3, P1 14 + 3
// (testdata/seq-n3-cyclic.starvation-freedom.trace.json), P2 14 + 3: P1's
// REQUEST is dropped by P0 after its forwarding phase and P2, now the
// arbiter, serves only itself (Request, collection end with Q = [P2], Exit):
// A6 as a lasso. Counting only waiting with a live request (no drop), every
// process still has a lasso (P1: prefix 19, cycle 43): indefinite
// forwarding survives sequence numbers, which order a list but do not make
// a request reach a collecting arbiter. The lag-rule terminal state is 25
// steps deep.
//
// banerjee/literal has no round numbers to tell a stale NEW-ARBITER, and
// banerjee-rec's epochs and timers are bounded only by finite R and the
// fault budget; neither offers cyclic clients.
package banerjee
