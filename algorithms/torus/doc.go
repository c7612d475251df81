// Package torus models the two-dimensional torus algorithm of Neamatollahi,
// Sedaghat and Naghibzadeh as a protocol.Protocol.
//
// Source: Neamatollahi et al. (2017; seed 004), Fig. 2 (pseudo-code, lines
// 1-68), with §3.1 (PCL_1..3), §3.3 and the scenario of §3.4 / Fig. 3. The
// literal model is exactly docs/semantics.md §3; the repaired
// reading and the mutants are those of docs/notes/torus.md and
// docs/notes/algorithms.md §8 (ids T-A.. there, A1.. in torus.md).
//
// # The algorithm
//
// N = d*d processes sit on a d x d torus: process i at row i/d, column i%d,
// knowing only right(i) = (row, col+1 mod d) and down(i) = (row+1 mod d, col).
// The token circulates down a column forever; a request circulates right
// along its row and leaves a mark (an entry in Waiting_i) at every node. When
// the token meets a marked node it tours the row, serving every requester in
// it, and then goes on down. After a whole column it moves one column right.
// The token carries RowCounter (rc), ColCounter (cc: 0 arriving from above,
// > 0 touring a row, -1 changing column) and ChCol (ch).
//
// Fig. 2 compares with sqrt(N) in three places. This package names them the
// tour end TE (lines 11 and 50) and the column end CE (line 28):
//
//  1. Request(i): append i to Waiting_i; if Waiting_i == [i] send
//     REQUEST(i, right(i)), else send nothing (PCL_2).
//  2. Deliver REQUEST(j, i): if i != j and Waiting_i is empty, Waiting_i = [j]
//     and forward REQUEST(j, right(i)); otherwise drop it (PCL_1, or the
//     request came home).
//  3. Deliver TOKEN(i, rc, cc, ch), own = (i in Waiting_i):
//     cc == 0: rc += 1; if rc == CE: ch = true, cc = -1, send right; else if
//     Waiting_i is empty send down; else cc = 1 and start a tour.
//     cc > 0: cc += 1; if own enter the CS; else clear Waiting_i and, if
//     cc == TE, cc = 0 and send down, else send right.
//     cc == -1: ch = false, rc = 1; if Waiting_i is empty, cc = 0 and send
//     down; else cc = 1 and start a tour.
//     Tour start: if own enter the CS, else clear Waiting_i and send right.
//  4. Exit(i): clear Waiting_i; if cc == TE, cc = 0 and send down; else send
//     right.
//
// # Modelling decisions
//
//   - State of process i (Proc): Waiting_i (an ordered queue; by PCL_1 and
//     PCL_2 it is [], [i], [x] or [x, i]) and, only while the process holds
//     the token, the token fields. The paper's CS-permission_i is the phase
//     InCS, kept by the protocol layer together with made_i.
//   - The token fields live in the TOKEN message while in transit and in the
//     local state of the process in its CS (Proc.Has); they are cleared when
//     the process passes the token on, so that equal global states encode to
//     equal bytes. Has is true exactly when the process is InCS (in every
//     variant: each CS entry takes a token), so it adds no states.
//   - Messages (Msg): REQUEST(origin, to) and TOKEN(to, rc, cc, ch). Neither
//     records its sender (semantics.md §3): a REQUEST names its origin, and
//     a forwarded REQUEST is the same message whoever forwards it.
//   - Initial state (torus.md A5, algorithms.md T-D): all Idle, queues empty,
//     the network holds exactly TOKEN(0, rc=1, cc=0, ch=false), the token on
//     its way to P0 as if from its upper neighbour. Fig. 2 initialises the
//     fields but places no idle token, and no handler moves a held idle token.
//   - ChCol is written and never read by Fig. 2 (in transit it always equals
//     cc == -1); it is kept for fidelity and adds no states.
//   - The network is the protocol layer's unordered multiset (by default;
//     FIFO channels with --fifo 1, below). The paper allows reordering (§2). The token moves forever, so the state graph has cycles
//     and no terminal states.
//   - Waiting_i is ordered as in Fig. 2 (INSERT at the rear). A8: PCL_1's prose
//     could store an arriving request at a requester; Fig. 2 stores only into
//     an empty queue, and so does this model.
//   - A TOKEN delivered to a process already in its CS (possible only in the
//     copy-on-enter mutant, where two tokens exist) runs the same handler: the
//     process "enters" again with the new fields, the held copy is replaced,
//     and the entry is recorded as unrequested.
//   - Restricted requesters (Restrict, a bit mask of processes): only the
//     processes in the mask issue requests, the others relay requests and
//     the token as usual. The design notes expect the repaired torus at
//     d = 3 with requesters {0,1,2,4} (mask 23) and {0,1,3,4} (mask 27),
//     R = 1, to be starvation-free; it is, on 995,292 and 1,293,195 states
//     (TestRequestersD3StarvationFree, run with TOKENMC_HEAVY=1). On the
//     command line it is the parameter --requesters M of every torus
//     variant (for example `tokenmc check --algo torus --n 9 --requesters
//     23 --props starvation-freedom`: ok on 995,292 states); check
//     --symmetry keeps only the translations that map the set onto itself.
//     With it, torus/skip-column-end starves P1 at d = 3, requesters
//     {0,1,2,4} (notes T-B; testdata/skip-column-end-d3-req23.*).
//   - FIFO channels: the parameter --fifo 1 (Options.FIFO), section "FIFO
//     channels" below.
//   - The notes' --channel-capacity K (§10.2: a transition whose sends
//     would put more than K messages on one channel is disabled, and states
//     blocked only by that are reported as "capacity-blocked", never as
//     deadlocks) is offered by the protocol layer and the explorer for
//     models whose messages name their sender (protocol.Protocol.From);
//     the torus's messages do not, and adding a sender field would change
//     its fixed encoding and counts, so check refuses the flag for it. The
//     torus does not need it for finite R: every request has at most one
//     REQUEST in transit, so at most N*R REQUESTs and one TOKEN are ever
//     in transit.
//
// # Variants
//
//   - torus (default, repaired, torus.md "Handlers" and algorithms.md §8.2):
//     TE = CE = d+1. The tour returns to the node that started it (prose §3.1,
//     Fig. 3i) and the column ends back at its entry node (prose §3, the
//     scenario, §5.2's sqrt(N)+1 vertical messages).
//   - torus/literal: TE = CE = d, every "= sqrt(N)" test of Fig. 2 as printed;
//     exactly semantics.md §3. Violates starvation-freedom, as torus.md A4
//     predicted: at d = 2, R = 1 every process can starve; for P1 the lasso
//     has the predicted 9-step prefix and a 4-delivery idle cycle
//     (P2 -> P3 -> P1 -> P0) in which P1 waits forever, because the column
//     ends one node early (rc == d fires at P1, which sends the token right
//     without looking at its own queue) and P1's request was dropped by
//     PCL_1 at a node the token then cleared. The trace is
//     testdata/literal-d2-r1.starvation-freedom.P1.trace.json, replayed by
//     TestLiteralStarvationTraceReplays; the repaired reading has no
//     starving process at the same size (TestStarvationLiteralVersusRepaired).
//   - torus/skip-column-end: TE = d+1, CE = d (only the tour end repaired).
//     Expected to violate starvation-freedom (torus.md, algorithms.md T-B).
//   - torus/copy-on-enter: a node that enters its CS also sends the token on
//     (down with cc = 0 if cc == TE, else right) and keeps its copy. Violates
//     single-token and mutex: after 4 and 6 steps along torus.md's hand
//     trace, after 2 and 4 steps along the shortest one (Request(P0), the
//     token reaches P0, which enters and sends a copy; Request(P1), the copy
//     reaches P1). A copy that reaches a process in its CS also shows as an
//     unrequested entry.
//   - torus/enter-if-marked: a node enters its CS whenever Waiting is
//     non-empty, not only with its own request. Violates
//     no-unrequested-entry in 3 steps (torus.md).
//   - torus/clear-own-first: at a tour start (lines 37-40) Waiting_i is
//     cleared before the test for the own request, so the joint's own request
//     is lost. Expected to violate starvation-freedom (algorithms.md §8.7).
//   - torus/endless-tour: at the tour end (cc == TE, in the token handler and
//     in Exit) cc = 1 and the token goes right instead of down, so it circles
//     the first marked row forever. Expected to violate starvation-freedom
//     (torus.md).
//
// All mutants change the repaired reading. Parameters: N = d*d with d >= 2,
// R >= 1; all fields are bounded (rc in 1..d+1, cc in -1..d+1).
//
// # FIFO channels
//
// Options.FIFO, on the command line the parameter --fifo 1 of every torus
// variant (notes §10.2 --fifo; default 0, the unordered network): the
// channel from a process to a neighbour delivers in the order of sending.
// A process sends on two channels only, right (REQUESTs, and TOKENs with
// cc != 0) and down (TOKENs with cc == 0), so a message's channel follows
// from the message. Each message carries its number on its channel
// (Msg.Seq, shown as seq=k; smaller is older), a Deliver is enabled only
// for the oldest message of its channel (a protocol.Protocol Guard), and the
// checker numbers the k messages of a channel -k .. -1 from the oldest (a
// Normalize hook), so that a state is its processes plus one queue per
// channel (fifo.go). Measured at R = 1 under weak fairness, every count
// equal to that of an independent queue-per-channel enumerator
// (fifo_naive_test.go):
//
//	variant                N  requesters  states  transitions  depth  starvation-freedom
//	torus                  4  all         13,144       34,558     29  ok (the notes' enumerator: 13,144)
//	torus/literal          4  all          8,338       21,826     31  P0..P3 starve; P1: 13 steps, cycle from step 10
//	torus/skip-column-end  4  all          6,888       18,234     28  (safety ok)
//	torus                  9  23          42,169      117,378     43  ok
//	torus                  9  27          45,559      126,838     44  ok
//	torus/skip-column-end  9  23          27,515       76,395     37  P1: 20 steps, cycle from step 12
//
// So the notes' FIFO expectations hold: the literal torus starves "with
// FIFO channels too" (T-A; testdata/literal-d2-r1-fifo.*, the notes' own
// 9 steps and 4-delivery cycle), repairing only the tour end still starves
// P1 at d = 3 (T-B; testdata/skip-column-end-d3-req23-fifo.*), and the
// repaired torus is starvation-free at d = 2 and at d = 3 with requesters
// {0,1,2,4} and {0,1,3,4} (§9.3). Safety holds in every reading. In a
// trace, a message sent behind others on its channel renumbers them
// (seq=-1 becomes -2), which the trace lists as a change of those
// messages. tokenmc run numbers from 0 up (it applies no normal form) and
// the guard still delivers in order. Symmetry (check --symmetry) is
// declared for fifo=0 only.
//
// # Algorithm-specific invariant
//
// WaitingShape (name "waiting-shape", algorithms.md §8.1 and §10.7): every
// Waiting_i is [], [i], [x] or [x, i] with x != i, and i is in Waiting_i
// exactly when process i is Waiting or InCS. It holds in the literal and
// repaired readings; some mutants break it on the way to their expected
// violation.
package torus
