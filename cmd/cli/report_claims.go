package cli

// reportClaims says, for every registered variant, which published claim
// or which expectation of the design notes (docs/notes/algorithms.md §9:
// 9.1 published errors, 9.2 mutants, 9.3 repaired defaults) its row of
// docs/results.md confirms, in a few words. Seeds: 000 Kumar et al.'s
// survey of coordinator and token schemes, 001 Suzuki-Kasami, 002
// Swaroop-Singh DRS_GME, 003 Banerjee-Chrysanthis, 004 Neamatollahi et al.
// (torus).
var reportClaims = map[string]string{
	"banerjee":                        "seed 003 §2.1, §4: late requests are dropped by design, so a request can wait forever (§9.1 A6; §9.3 banerjee drops)",
	"banerjee/arbiter-no-token":       "§9.2 mutant: ending collection without the token creates a second token",
	"banerjee/keep-head":              "§9.2 mutant: a holder that keeps itself at the head re-enters unrequested",
	"banerjee/literal":                "seed 003 Fig. 1 as printed: an empty collection ends the arbiter's term and requests are lost (§9.1 A1)",
	"banerjee/literal-a4":             "seed 003 Fig. 1 handler 5 alone: a stale NEW-ARBITER makes a second arbiter whose requests are orphaned (§9.1 A4)",
	"banerjee/send-before-cs":         "§9.2 mutant: passing the token before the CS breaks mutex",
	"banerjee-rec":                    "seed 003 §6: recovery with quiescent timeouts; one lost message still breaks mutex (a finding beyond §9.1)",
	"banerjee-rec/forget-waiting":     "§9.2 mutant: a regenerated token that forgets the waiting processes",
	"banerjee-rec/timers-any":         "seed 003 §6 with premature timeouts: mutex breaks at N=3 with no message lost (§9.1 A11)",
	"banerjee-rec/waiting-first":      "seed 003 §6 with the ENQUIRY replies read WAITING before HAD (issue 23): mutex breaks at N=3, R=2 with no message lost, in 17 steps",
	"banerjee-rec/timers-oracle":      "seed 003 §6 with oracle timeouts (a token timeout only when no valid token exists): no violation with no message lost, also at N=3 (1,144,646 states), so the A11 break needs a premature timeout (§9.1 A11)",
	"banerjee-seq":                    "seed 003 §2.4: sequence numbers change no verdict without retransmission; the A6 deadlock remains",
	"banerjee-seq/count-from-zero":    "§2.4's \"(n+1)th critical section\" read with L from 0 filters every first request (mutant)",
	"banerjee-sf":                     "seed 003 §4.1: \"the problem of starvation is eliminated\" fails: a monitor request can be dropped for good (§9.1 A10)",
	"banerjee-sf/adaptive-eq":         "seed 003 §4.1 adaptive period read as \"counter equals the ceiling\": the monitor can be skipped for good (§9.1 A8); at N=2 an empty token is routed and a request is never served",
	"banerjee-sf/adaptive-ge":         "seed 003 §4.1 adaptive period repaired as \"counter reaches the ceiling\" (>=): the monitor stays reachable, but late requests are still dropped and a quiet system deadlocks (§9.1 A8; A10)",
	"banerjee-sf/enter-duplicate":     "seed 003 §4.1: a request scheduled twice must not enter twice (mutant)",
	"banerjee-sf/store-unused":        "seed 003 §4.1: a monitor that drops its stored requests deadlocks (mutant)",
	"coord-res":                       "seed 000 §V: one token per resource with aging by earliest entry: safe and starvation-free (§9.3)",
	"coord-res/age-all":               "seed 000 §V aging read as \"age every waiting request\": safe and starvation-free (§9.1 coord-res aging)",
	"coord-res/age-head":              "seed 000 §V aging read as \"the head of the sorted queue ages\": a request that is never the head starves (§9.1 coord-res aging, --aging head)",
	"coord-res/grant-any-free":        "§9.2 mutant: a grant on an empty queue without the token",
	"coord-res/return-wrong-queue":    "§9.2 mutant: a RETURN serving another resource",
	"coord-res/no-aging":              "seed 000 §V: without aging a low-priority client starves (§9.2)",
	"coord-res/tie-by-pid":            "§9.2 mutant: ties broken by the larger pid starve the others",
	"coord-ring":                      "seed 000 §3.3.1: the coordinator ring is safe and deadlock-free (§9.3)",
	"coord-ring/drop-after-wait":      "§9.2 mutant: WAIT without queueing loses a request",
	"coord-ring/grant-if-queue-empty": "§9.2 mutant: a grant without holding the token",
	"coord-ring/keep-copy":            "§9.2 mutant: a client keeping the token after RETURN",
	"coord-ring/lifo":                 "§9.2 mutant: newest-first service starves (cyclic clients)",
	"drs-gme":                         "seed 002 Lemma 1 and §V: group mutual exclusion, one valid token and progress hold for the repaired reading (§9.3)",
	"drs-gme/literal":                 "seed 002 Appendix A as printed: sessions never grow on hand-over, the first token is rejected (§9.1 D1)",
	"drs-gme/literal-r1":              "seed 002 Appendix A with sessions repaired: D3 and D9 deadlocks, D8 stale entry (§9.1 D2-D9); D12 with F=1 (two tokens, gme-safety) in its tests",
	"drs-gme/ext":                     "seed 002 §VII extended GME: safe under the repaired reading",
	"drs-gme/accept-any-token":        "§9.2 mutant: no session test accepts a regenerated duplicate",
	"drs-gme/admit-any-group":         "§9.2 mutant: admission without the group test",
	"drs-gme/keep-token":              "§9.2 mutant: the passer stays HI with a copy",
	"drs-gme/no-rs-add":               "§9.2 mutant: Event 2 HI without adding j to RS_i",
	"drs-gme/pass-before-complete":    "§9.2 mutant: the captain passes the token before its followers complete",
	"drs-gme/fcfs":                    "seed 002 §VIII \"FCFS, the strongest fairness requirement\" fails at the level of requests (§9.1 D22)",
	"drs-gme/regen-lt":                "seed 002 regeneration test read as the proof's < : a lost token is regenerated by nobody (§9.1 D11)",
	"drs-gme/regen-empty":             "seed 002 regeneration test <= with an empty old queue: everyone regenerates, a second token (§9.1 D11, by everyone)",
	"drs-gme/literal-d2":              "seed 002 Event 2 case R as printed, alone: the relayed request is lost, no-deadlock at n = 3 (§9.1 D2)",
	"drs-gme/literal-d4":              "seed 002 Event 2 case HI state R, alone: harmless fault-free and, unlike the notes' guess, with timers any at n = 2 (§9.1 D4)",
	"drs-gme/literal-d6":              "seed 002 start accepted unconditionally, alone: no-unrequested-entry with timers any; gme-safety with --r 2 (§9.1 D6)",
	"drs-gme/literal-d7":              "seed 002 follower counter vs set, alone: a permanent deadlock, n = 2 and R = 2 suffice (§9.1 D7)",
	"drs-gme/literal-d9":              "seed 002 requests absorbed by the next captain, alone: no-deadlock without timers at n = 2 (§9.1 D9)",
	"fapp":                            "seed 000 §3.3.3 repaired: safe, deadlock-free (§9.3)",
	"fapp/literal":                    "seed 000 §3.3.3 as printed: the idle root never hands the token over (§9.1 FAPP)",
	"fapp/keep-root":                  "§9.2 mutant: the old root still believes it holds the token",
	"fapp/no-dummy":                   "§9.2 mutant: no request back after passing the token",
	"fapp/no-aging":                   "seed 000 §3.3.3 rule 1 removed: starvation (§9.2)",
	"lelann":                          "Le Lann's ring (baseline of seed 004 Table 1): safe",
	"lelann/drop-on-exit":             "mutant: the token is dropped at exit",
	"lelann/pass-on-entry":            "mutant: the token is passed on at entry",
	"multi-token-ring":                "seed 000 §3.3.4 repaired: mutex and no-deadlock pass (§9.3)",
	"multi-token-ring/literal":        "seed 000 §3.3.4 as printed: forwarders rewriting sequence numbers deadlock (§9.1 several tokens)",
	"multi-token-ring/no-max":         "§9.2 mutant: HSeqNumSeen not updated",
	"multi-token-ring/no-release":     "mutant: a token never released",
	"multi-token-ring/pass-in-cs":     "§9.2 mutant: tokens passed while in the CS",
	"naimi-trehel":                    "Naimi-Trehel (baseline of seed 004 Table 1): safe",
	"naimi-trehel/drop-next":          "mutant: the next pointer dropped",
	"naimi-trehel/send-in-cs":         "mutant: the token sent while in the CS",
	"raymond":                         "Raymond's tree (baseline of seeds 003 and 004): safe",
	"raymond/keep-holder":             "mutant: the holder pointer kept after passing",
	"raymond/no-reask":                "mutant: no new request after passing the token on",
	"ricart-agrawala":                 "Ricart-Agrawala (baseline of seeds 003 and 004): safe",
	"ricart-agrawala/forget-deferred": "mutant: deferred replies forgotten",
	"ricart-agrawala/no-max":          "mutant: the Lamport clock not advanced",
	"ricart-agrawala/reply-on-tie":    "mutant: a reply on a tie lets both enter",
	"suzuki-kasami":                   "seed 001: mutual exclusion, one token and progress hold (exact model of the semantics)",
	"suzuki-kasami/any-order":         "seed 001 as written (Q appended in any order): the same properties hold for every order",
	"suzuki-kasami/dup-in-q":          "§9.2 mutant: duplicates in the token queue",
	"suzuki-kasami/keep-copy":         "§9.2 mutant: the holder keeps the token after sending it",
	"suzuki-kasami/no-increment":      "§9.2 mutant: RN[i] not incremented",
	"suzuki-kasami/no-ln-update":      "§9.2 mutant: LN[i] not updated at exit",
	"suzuki-kasami/send-in-cs":        "seed 001 step 3 without \"not in CS\": mutex breaks (§9.1 Suzuki-Kasami 1/step 3)",
	"torus":                           "seed 004 §4 safety and liveness hold for the repaired reading TE = CE = d+1 (§9.1 T-C; §9.3)",
	"torus/literal":                   "seed 004 Fig. 2 as printed starves at d = 2 (§9.1 T-A)",
	"torus/clear-own-first":           "§9.2 mutant: Waiting cleared before the own-request test",
	"torus/copy-on-enter":             "§9.2 mutant: the token sent on at CS entry",
	"torus/endless-tour":              "mutant: the tour never leaves its row",
	"torus/enter-if-marked":           "§9.2 mutant: entry on any mark",
	"torus/skip-column-end":           "seed 004 with only the tour end repaired still starves (§9.1 T-B; §9.2)",
}

// reportExtra is a row of the report beyond the variants at their
// defaults: a variant with the options a claim of the design notes needs.
type reportExtra struct {
	variant   string
	params    map[string]int // overrides the variant's parameters
	maxStates int64          // raises the report's bound for this row (0: keep it)
	claim     string
}

// reportExtras are checked after the variants of their algorithm, in order.
var reportExtras = []reportExtra{
	{variant: "torus", params: map[string]int{"n": 9, "requesters": 23}, maxStates: 2000000,
		claim: "seed 004 §4 for the repaired reading at d = 3 with requesters {0,1,2,4} (mask 23), R = 1 (§9.3; notes §8.6)"},
	{variant: "torus/skip-column-end", params: map[string]int{"n": 9, "requesters": 23}, maxStates: 2000000,
		claim: "only the tour end repaired still starves at d = 3 with requesters {0,1,2,4}: P1 (§9.1 T-B)"},
	{variant: "torus/literal", params: map[string]int{"fifo": 1},
		claim: "seed 004 Fig. 2 as printed starves at d = 2 also with FIFO channels (§9.1 T-A; notes §10.2 --fifo)"},
	{variant: "torus/skip-column-end", params: map[string]int{"n": 9, "requesters": 23, "fifo": 1}, maxStates: 2000000,
		claim: "only the tour end repaired still starves at d = 3 with requesters {0,1,2,4} also with FIFO channels (§9.1 T-B; notes §10.2 --fifo)"},
}
