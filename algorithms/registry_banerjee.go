package algorithms

import (
	"maps"

	"github.com/tokenmc/tokenmc/algorithms/banerjee"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

func banerjeeBuild(variant string, params map[string]int) (model.System, []model.Property, error) {
	p, err := banerjee.New(variant, banerjee.Options{N: params["n"], R: params["r"], Tau: params["tau"], Faults: params["faults"], Lose: params["lose"], Period: params["period"], Crash: params["crash"],
		Cyclic: params["cyclic"] == 1, Backlog: params["backlog"]})
	if err != nil {
		return nil, nil, err
	}
	p.Params = maps.Clone(params) // traces record every parameter
	return p.System(), banerjee.Properties(variant), nil
}

// banerjeeCyclic are the parameters of cyclic clients (banerjee, banerjee-seq and
// banerjee-sf): off by default, so the default configurations and every
// pinned count stay those of finite R.
var banerjeeCyclic = []spec.Param{
	{Name: "cyclic", Doc: "1: cyclic clients (R = infinity, r is ignored; rounds renumbered by rank) for starvation-freedom lassos; 0: r requests per process", Min: 0, Max: 1, Default: 0},
	{Name: "backlog", Doc: "with cyclic=1: a request is enabled only while at most this many NEW-ARBITER messages are in transit (keeps the network finite)", Min: 0, Max: 8, Default: 1},
}

const banerjeeSource = "Banerjee and Chrysanthis (1996)"

func banerjeeParams(extra ...spec.Param) []spec.Param {
	return append([]spec.Param{
		{Name: "n", Doc: "number of processes; N = 3 with R = 1 checks in seconds, larger N only with patience; up to 64 for simulate, run and measure", Min: 2, Max: 8, Default: 3, SimMax: 64},
		{Name: "r", Doc: "requests per process (R); round numbers never exceed the number of scheduled requests; unbounded for simulate, run and measure", Min: 1, Max: 4, Default: 1, SimMax: -1},
	}, extra...)
}

func init() {
	register(Algorithm{
		Name:    banerjee.Default,
		Measure: banerjeeMeasure,
		Doc:     "Banerjee-Chrysanthis arbiter/Q-list: an arbiter collects requests, the token walks the Q-list to the next arbiter",
		Source:  banerjeeSource + " §2.1-2.3, Fig. 1; docs/notes/algorithms.md §6.1-6.2, §6.8-6.9; docs/notes/banerjee-chrysanthis.md",
		Params:  banerjeeParams(banerjeeCyclic...),
		Variants: []Variant{
			{Name: banerjee.Default, Kind: spec.KindRepaired, Breaks: []string{"no-deadlock"}, Doc: "Fig. 1 repaired (rounds, token proof, keep collecting until non-empty); late requests are still dropped, so no-deadlock fails (A6)"},
			{Name: banerjee.ArbiterNoTok, Kind: spec.KindMutant, Breaks: []string{"single-token", "mutex"}, Doc: "the collection phase may end without the token: a fresh PRIVILEGE is made up"},
			{Name: banerjee.KeepHead, Kind: spec.KindMutant, Breaks: []string{"no-unrequested-entry"}, Doc: "the holder does not remove itself from Q before handing on: the token bounces back"},
			{Name: banerjee.Literal, Kind: spec.KindLiteral, Breaks: []string{"no-deadlock"}, Doc: "Fig. 1 as printed: no rounds, no token proof, an empty collection ends the arbiter's term (A1)"},
			{Name: banerjee.SendBeforeCS, Kind: spec.KindMutant, Breaks: []string{"mutex"}, Doc: "a process hands the token on at arrival, then enters its CS"},
			{Name: banerjee.LiteralA4, Kind: spec.KindLiteral, Breaks: []string{"single-arbiter", "no-deadlock"}, Doc: "Banerjee and Chrysanthis (1996) Fig. 1 handler 5 as printed and nothing else literal (A4; algorithms.md §6.8): every NEW-ARBITER is adopted, the last delivered winning, so a stale one makes a second arbiter whose collected requests are orphaned (single-arbiter); no-deadlock as in the default (A6)"},
		},
		Build: banerjeeBuild,
	})
	register(Algorithm{
		Name:    banerjee.Seq,
		Measure: banerjeeMeasure,
		Doc:     "Banerjee-Chrysanthis with sequence numbers: REQUEST(j,n), PRIVILEGE(Q,L), lists ordered by n",
		Source:  banerjeeSource + " §2.4, §5.1; docs/notes/algorithms.md §6.3",
		Params:  banerjeeParams(banerjeeCyclic...),
		Variants: []Variant{
			{Name: banerjee.Seq, Kind: spec.KindRepaired, Breaks: []string{"no-deadlock"}, Doc: "§2.4: served entries dropped at the end of collection, the rest ordered by request number; late requests still dropped"},
			{Name: banerjee.CountFromZero, Kind: spec.KindMutant, Breaks: []string{"no-deadlock"}, Doc: "§2.4's \"(n+1)th critical section\" read with L starting at 0: every first request looks already granted and is filtered out"},
		},
		Build: banerjeeBuild,
	})
	register(Algorithm{
		Name:    banerjee.SF,
		Measure: banerjeeMeasure,
		Doc:     "Banerjee-Chrysanthis starvation-free variant: a monitor stores late requests, forwarding threshold tau",
		Source:  banerjeeSource + " §4, §4.1; docs/notes/algorithms.md §6.4 (--period any)",
		Params: banerjeeParams(append([]spec.Param{
			{Name: "tau", Doc: "forwarding threshold and miss count tau (a request is forwarded at most tau times; a waiting process resubmits to the monitor after tau NEW-ARBITERs without it)", Min: 1, Max: 3, Default: 1},
			{Name: "period", Doc: "monitor period: the token visits the monitor when its broadcast counter reaches period-1 (0: at any collection end, must at N-1; N=3 R=1 then exceeds 14 million states)", Min: 0, Max: 8, Default: 2},
		}, banerjeeCyclic...)...),
		Variants: []Variant{
			{Name: banerjee.SF, Kind: spec.KindRepaired, Breaks: []string{"no-deadlock"}, Doc: "§4.1 with the monitor P(N-1), the counter carried by the token, a fixed period (adaptive period over-approximated by period=0)"},
			{Name: banerjee.EnterDup, Kind: spec.KindMutant, Breaks: []string{"no-unrequested-entry"}, Doc: "a process that is granted the token twice (its request also resubmitted via the monitor) enters again instead of passing it on (A12)"},
			{Name: banerjee.AdaptiveEq, Kind: spec.KindLiteral, Params: map[string]int{"n": 2, "r": 1}, Breaks: []string{"no-deadlock"},
				Doc: "§4.1's adaptive period read literally (A8): route via the monitor iff the counter equals the ceiling of the average Q size (window of one); the counter can pass N and the monitor is never visited again (invariant monitor-reachable, N=3); at N=2 a period of 1 routes an empty token and a dropped request is never served"},
			{Name: banerjee.AdaptiveGe, Kind: spec.KindRepaired, Breaks: []string{"no-deadlock"},
				Doc: "Banerjee and Chrysanthis (1996) §4.1's adaptive period repaired (algorithms.md §6.4, A8): route via the monitor once the counter reaches (>=) the ceiling of the average Q size (window of one); the counter stays below N (monitor-reachable holds on the first 20 million states at N=3, R=1, BFS), but late requests are still dropped: no-deadlock after 14 steps (N=3)"},
			{Name: banerjee.StoreUnused, Kind: spec.KindMutant, Breaks: []string{"no-deadlock"}, Doc: "the monitor clears its store without scheduling it (at a visit and at its own collection end): resubmitted requests are lost"},
		},
		Build: banerjeeBuild,
	})
	register(Algorithm{
		Name:   banerjee.Rec,
		Doc:    "Banerjee-Chrysanthis failure recovery: retransmission, ENQUIRY/REPLY/RESUME/INVALIDATE token regeneration with epochs",
		Source: banerjeeSource + " §6; docs/notes/algorithms.md §6.5 (timers quiescent)",
		Params: banerjeeParams(
			spec.Param{Name: "faults", Doc: "message-loss budget F", Min: 0, Max: 3, Default: 1},
			spec.Param{Name: "lose", Doc: "which messages may be lost: 0 any, 1 PRIVILEGE only (token loss), 2 REQUEST or PRIVILEGE (the two cases of §6)", Min: 0, Max: 2, Default: 0},
			spec.Param{Name: "crash", Doc: "crash-stop budget C: 1 lets one process crash (failed-arbiter takeover by the previous arbiter)", Min: 0, Max: 1, Default: 0},
		),
		Variants: []Variant{
			{Name: banerjee.Rec, Kind: spec.KindRepaired, Breaks: []string{"mutex", "starvation-freedom"}, Doc: "§6 with sequence numbers; ENQUIRY answered HAVE, then HAD (executed its CS with this schedule's token), then WAITING; recovery timers fire only when no message is in transit; one lost message breaks mutex, and so does R=2 with none (22 steps: a stale WARNING starts an enquiry while the token is in transit, which nobody reports; findings)"},
			{Name: banerjee.ForgetWaiting, Kind: spec.KindMutant, Breaks: []string{"no-deadlock"}, Doc: "a regenerated token's Q-list holds only the arbiter: the waiting processes are never served"},
			{Name: banerjee.TimersAny, Kind: spec.KindLiteral, Breaks: []string{"mutex"}, Params: map[string]int{"faults": 0},
				Doc: "recovery timeouts with no delay bound (algorithms.md §10.5 mode any, A11): a premature token timeout regenerates the token while the old one is in transit; mutex breaks with no message lost"},
			{Name: banerjee.WaitingFirst, Kind: spec.KindLiteral, Breaks: []string{"mutex"}, Params: map[string]int{"faults": 0, "r": 2},
				Doc: "Banerjee and Chrysanthis (1996) §6's ENQUIRY replies taken sentence by sentence, a waiting process saying \"I am waiting for the token\" (HAVE, then WAITING, then HAD: tokenmc's earlier reading); docs/notes/algorithms.md §6.5 step 4 and the paper's \"I had the token, and have executed my CS\" put HAD before WAITING (the default): a process that executed its CS and requested again answers WAITING, so a token in transit is reported by nobody; mutex breaks at N=3, R=2 with no message lost (17 steps)"},
			{Name: banerjee.TimersOracle, Kind: spec.KindRepaired, Params: map[string]int{"faults": 0, "n": 2},
				Doc: "recovery timeouts as an oracle (algorithms.md §6.5, §10.5 mode oracle, A11): a token timeout only when no valid token exists, an enquiry timeout only when the missing replies are really lost; the A11 trace of timers-any is impossible; with no message lost every property holds (N=2: 782 states; N=3: 1,144,646)"},
		},
		Build: banerjeeBuild,
	})
}
