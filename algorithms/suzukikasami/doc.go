// Package suzukikasami models the Suzuki-Kasami broadcast algorithm for
// token-based mutual exclusion as a protocol.Protocol.
//
// Source: Suzuki and Kasami (1985; seed 001) (lecture notes, whole file).
// The model is exactly docs/semantics.md §2; the claims, ambiguities
// and mutants are those of docs/notes/algorithms.md §1.
//
// # The algorithm
//
// Every process i keeps RN_i[0..N-1], the largest request number it has seen
// from each process. The unique token carries LN[0..N-1], the number of the
// last served request of each process, and Q, a queue of process ids waiting
// for the token. P0 holds the token at the start (semantics.md §1).
//
//  1. Request(i): if i holds the token it enters its CS at once, sends
//     nothing and leaves RN_i[i] unchanged (the notes increment the sequence
//     number only "when it does not have the token"). Otherwise
//     RN_i[i] += 1 and i sends REQ(i, j, RN_i[i]) to every j != i.
//  2. Exit(i): LN[i] = RN_i[i]; for j = 0, 1, ..., N-1 in ascending order,
//     j is appended to Q if it is absent and RN_i[j] == LN[j] + 1. If Q is
//     not empty, its head h is popped and the token, TOKEN(h, LN, Q), is sent
//     to h; otherwise i keeps the token.
//  3. Deliver REQ(j, i, sn): RN_i[j] = max(RN_i[j], sn). If i holds the token,
//     is Idle and RN_i[j] == LN[j] + 1, it sends the token to j.
//  4. Deliver TOKEN(i, LN, Q): i holds the token and enters its CS.
//
// # Modelling decisions
//
//   - State of process i (Proc): RN, Has, and, only while Has, the token data
//     LN and Q. When a process sends the token away its copy of LN and Q is
//     dropped (and encoded as absent), so that equal global states encode to
//     equal bytes (semantics.md §1, "State identity"). The client phase and
//     the request count made_i are kept by the protocol layer (package
//     model), not in Proc.
//   - Messages (Msg): REQ(from, to, sn) and TOKEN(to, LN, Q). A TOKEN does not
//     record its sender: semantics.md §2 writes it TOKEN(to, LN, Q), and
//     recording the sender would split states that semantics.md counts as
//     one. Msg.From is -1 in a decoded TOKEN.
//   - The network is the protocol layer's multiset (reliable, unordered, no
//     duplication). No process sends a message to itself in the correct
//     model; the dup-in-q mutant may (algorithms.md §1), and the protocol
//     layer delivers such a message like any other.
//   - Step 3 of the notes omits "not in CS"; the default sends the token on a
//     REQ only from an Idle holder (the notes' prose: "If the site possessing
//     the token is executing the CS, it sends the token only after it has
//     exited"). The literal reading is the mutant send-in-cs.
//   - The order in which Exit appends ids to Q is not given by the notes;
//     ascending id makes counts reproducible (semantics.md §2, algorithms.md
//     §1).
//   - The garbled sentence "S_i requests for S_j and S_j fulfils the request
//     of S_j" has no semantic content and is ignored (algorithms.md §1).
//   - A process that leaves its CS without holding the token (possible only in
//     the send-in-cs mutant, whose holder gave the token away while in its
//     CS) just becomes Idle: there is no token data to update.
//   - Token delivery always calls Ctx.Enter, so a token that reaches an Idle
//     process (dup-in-q, no-ln-update) is recorded as an unrequested entry
//     and violates no-unrequested-entry. A TOKEN that reaches a process that
//     still holds a copy (keep-copy) replaces the copy.
//   - RN and LN values never exceed R, so the state space is finite; the
//     registry bounds N to 2..16.
//
// # Variants
//
// Each variant is selected by its full name (the constants below):
//
//   - suzuki-kasami (default): semantics.md §2.
//   - suzuki-kasami/send-in-cs: the literal step 3 of the notes: the holder
//     sends the token on a REQ even while in its CS. Breaks mutex: N = 2,
//     Request(P0), Request(P1), Deliver REQ(P1->P0), Deliver TOKEN(->P1) puts
//     both processes in the CS after 4 steps (algorithms.md §1).
//   - suzuki-kasami/keep-copy: after sending the token the sender keeps Has
//     and its copy of LN and Q. Breaks single-token, then mutex.
//   - suzuki-kasami/no-ln-update: Exit omits LN[i] = RN_i[i], so the
//     releaser's own request still looks outstanding and it is later sent the
//     token while Idle. Breaks no-unrequested-entry.
//   - suzuki-kasami/dup-in-q: Exit appends j even if it is already in Q, so j
//     is served twice for one request. Breaks no-unrequested-entry.
//   - suzuki-kasami/no-increment: a requester does not increment RN_i[i], so
//     its request is never recognised as outstanding. Breaks no-deadlock.
//
// Shortest counterexamples (breadth-first, R = 1, pinned by the registry's
// tests): send-in-cs mutex in 4 steps (N = 2); keep-copy single-token in 2
// and mutex in 4 (N = 2); no-ln-update no-unrequested-entry in 5 (N = 2);
// dup-in-q no-unrequested-entry in 12 (N = 3; the trace of algorithms.md §1
// takes 13); no-increment no-deadlock in 4 (N = 2).
//
// # Algorithm-specific invariant
//
// TokenServesWaiting (name "token-serves-waiting") says that the token only
// ever goes to processes that wait for it: the receiver of every TOKEN in
// transit and every id in the token's queue (held or in transit) is a
// Waiting process, and no queue holds an id twice. It holds in the default
// model because an id is queued (or the token sent) only when
// RN[j] == LN[j] + 1, that is, when j has an unserved request, and j stays
// Waiting until the token reaches it.
package suzukikasami
