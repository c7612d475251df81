package banerjee

import (
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Variant names, as typed on the command line.
const (
	Default      = "banerjee"
	Literal      = "banerjee/literal"
	SendBeforeCS = "banerjee/send-before-cs"
	ArbiterNoTok = "banerjee/arbiter-no-token"
	KeepHead     = "banerjee/keep-head"
	// LiteralA4 is the default with only A4 literal: every NEW-ARBITER is
	// adopted, however old its round (literal_a4.go).
	LiteralA4     = "banerjee/literal-a4"
	Seq           = "banerjee-seq"
	CountFromZero = "banerjee-seq/count-from-zero"
	SF            = "banerjee-sf"
	StoreUnused   = "banerjee-sf/store-unused"
	EnterDup      = "banerjee-sf/enter-duplicate"
	Rec           = "banerjee-rec"
	ForgetWaiting = "banerjee-rec/forget-waiting"
	// WaitingFirst is banerjee-rec with the other reading of the ENQUIRY
	// replies: HAVE, then WAITING, then HAD, so that a process that had
	// the token and has requested again answers WAITING.
	WaitingFirst = "banerjee-rec/waiting-first"
	// TimersAny is banerjee-rec with the recovery timers in algorithms.md
	// §10.5 mode "any": premature timeouts (see rec_guard.go).
	TimersAny = "banerjee-rec/timers-any"
	// TimersOracle is banerjee-rec with the recovery timers in
	// algorithms.md §6.5 / §10.5 mode "oracle": a token timeout fires only
	// when no valid token exists, an enquiry timeout only when every
	// missing reply is really lost (see rec_guard.go).
	TimersOracle = "banerjee-rec/timers-oracle"
	// AdaptiveEq is banerjee-sf with §4.1's adaptive period read literally
	// (A8): route via the monitor iff the counter equals the ceiling of the
	// average Q size (window of one, carried by the token).
	AdaptiveEq = "banerjee-sf/adaptive-eq"
	// AdaptiveGe is banerjee-sf with §4.1's adaptive period repaired (A8):
	// route via the monitor once the counter reaches the ceiling of the
	// average Q size (">=", window of one, carried by the token).
	AdaptiveGe = "banerjee-sf/adaptive-ge"
)

// Variants returns the variant names of the algorithm called base
// ("banerjee", "banerjee-seq", "banerjee-sf" or "banerjee-rec"), the
// default first, as registered.
func Variants(base string) []string {
	switch base {
	case Default:
		return []string{Default, ArbiterNoTok, KeepHead, Literal, SendBeforeCS, LiteralA4}
	case Seq:
		return []string{Seq, CountFromZero}
	case SF:
		return []string{SF, EnterDup, StoreUnused, AdaptiveEq, AdaptiveGe}
	case Rec:
		return []string{Rec, ForgetWaiting, TimersAny, TimersOracle, WaitingFirst}
	}
	return nil
}

// Options are the parameters of New besides the variant; zero values take
// the defaults of the registry.
type Options struct {
	N, R   int
	Tau    int // banerjee-sf: threshold tau >= 1 (default 1)
	Faults int // banerjee-rec: message-loss budget F
	Crash  int // banerjee-rec: crash-stop budget C (0 or 1)
	Lose   int // banerjee-rec: which messages may be lost: LoseAny, LoseToken or LoseRequestOrToken
	Period int // banerjee-sf: visit the monitor when cnt+1 >= Period; 0: at any collection end, and must at cnt+1 >= N
	// Cyclic gives every process a cyclic client (R = infinity, R is
	// ignored): rounds (and banerjee-seq's request numbers) are renumbered
	// after every step, and a Request is enabled only while at most Backlog
	// NEW-ARBITER messages are in transit (see cyclic.go and the package
	// doc). Not for banerjee-rec or banerjee/literal.
	Cyclic  bool
	Backlog int // with Cyclic: the largest number of NEW-ARBITER messages in transit at which a Request is still enabled (>= 0)
}

// Which messages a Lose fault may drop (banerjee-rec, parameter "lose").
const (
	LoseAny            = 0 // any message
	LoseToken          = 1 // only PRIVILEGE (the paper's "Lost Token" case)
	LoseRequestOrToken = 2 // REQUEST or PRIVILEGE (the paper's two cases of §6)
)

// New builds the protocol of variant (one of the names of Variants) with
// the given options. The variant picks its handlers here, once (alg.go);
// banerjee-rec adds its whole-state guard (rec_guard.go) and cyclic
// clients their guard and renumbering (cyclic.go).
func New(variant string, o Options) (*protocol.Protocol[Proc, Msg], error) {
	a := &alg{name: variant, n: o.N, tau: max(o.Tau, 1), period: o.Period, monitor: o.N - 1}
	a.useBasic()
	switch variant {
	case Default:
	case Literal:
		a.useLiteral()
	case LiteralA4:
		a.useLiteralA4()
	case SendBeforeCS:
		a.sendBeforeCS()
	case ArbiterNoTok:
		a.arbiterNoToken()
	case KeepHead:
		a.keepHead()
	case Seq:
		a.useSeq()
	case CountFromZero:
		a.useSeq()
		a.lag = 1 // "requesting its (n+1)th CS" with L starting at 0
	case SF:
		a.useSF()
	case EnterDup:
		a.useSF()
		a.enterDuplicate()
	case StoreUnused:
		a.useSF()
		a.storeUnused()
	case AdaptiveEq:
		a.useSF()
		a.useAdaptive(dueAdaptiveEq)
	case AdaptiveGe:
		a.useSF()
		a.useAdaptive(dueAdaptiveGe)
	case Rec:
		a.useRec(o.Crash, timersQuiescent)
	case ForgetWaiting:
		a.useRec(o.Crash, timersQuiescent)
		a.forgetWaiting = true
	case TimersAny:
		a.useRec(o.Crash, timersAny)
	case TimersOracle:
		a.useRec(o.Crash, timersOracle)
	case WaitingFirst:
		a.useRec(o.Crash, timersQuiescent)
		a.waitingFirst = true
		a.codec.had = false // Had is never read: as the model was before the HAD-first reading
	default:
		var all []string
		for _, b := range []string{Default, Seq, SF, Rec} {
			all = append(all, Variants(b)...)
		}
		return nil, fmt.Errorf("unknown Banerjee-Chrysanthis variant %q; valid: %s", variant, strings.Join(all, ", "))
	}
	if err := a.validate(o); err != nil {
		return nil, err
	}
	p := a.protocol(o.R, o)
	if a.codec.rec {
		p.Guard = a.guardRec
	}
	if o.Cyclic {
		a.useCyclic(p, o.Backlog)
	}
	return p, nil
}

// validate checks the options against the variant; every error is one
// line that says what would be right.
func (a *alg) validate(o Options) error {
	variant, rec := a.name, a.codec.rec
	if o.N < 2 {
		return fmt.Errorf("%s needs n >= 2 processes, got n=%d", variant, o.N)
	}
	if o.R < 1 && !o.Cyclic {
		return fmt.Errorf("%s needs r >= 1 requests per process, got r=%d", variant, o.R)
	}
	if o.Cyclic && (rec || variant == Literal) {
		why := "its token epochs grow without bound"
		if variant == Literal {
			why = "it has no round numbers to tell a stale NEW-ARBITER"
		}
		return fmt.Errorf("%s does not offer cyclic clients (%s); use cyclic=0", variant, why)
	}
	if o.Cyclic && o.Backlog < 0 {
		return fmt.Errorf("%s with cyclic clients needs backlog >= 0, got backlog=%d", variant, o.Backlog)
	}
	if o.Faults < 0 {
		return fmt.Errorf("%s needs faults >= 0, got faults=%d", variant, o.Faults)
	}
	if o.Lose < LoseAny || o.Lose > LoseRequestOrToken {
		return fmt.Errorf("%s: lose=%d is not a loss kind; valid: 0 (any message), 1 (PRIVILEGE only), 2 (REQUEST or PRIVILEGE)", variant, o.Lose)
	}
	if o.Crash < 0 || o.Crash > 1 || (o.Crash > 0 && !rec) {
		return fmt.Errorf("%s: crash=%d is not allowed; crashes (0 or 1) exist only in banerjee-rec", variant, o.Crash)
	}
	if o.Faults > 0 && !rec {
		return fmt.Errorf("%s does not recover from message loss; use faults=0 (or banerjee-rec)", variant)
	}
	return nil
}

// System builds variant with the given options and compiles it.
func System(variant string, o Options) (model.System, error) {
	p, err := New(variant, o)
	if err != nil {
		return nil, err
	}
	return p.System(), nil
}
