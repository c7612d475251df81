package drsgme

import (
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// NameQueueBound names the forum-switch invariant of §VI.
const NameQueueBound = "queue-bound"

// LiveTokens counts the valid tokens of a state (algorithms.md §7.6,
// drs-gme.md "Validity"): processes in EC, HS or HI, plus the distinct
// receivers r with at least one TOKEN to r in transit that r would accept
// now (Event 6's test, repaired or literal). Copies to one receiver count
// once, since accepting the first makes the others invalid.
func LiveTokens(v *protocol.View[Proc, Msg], variant string) int {
	valid, ok := validTests[variant]
	if !ok {
		valid = validR1
	}
	n := 0
	for i := range v.Processes() {
		if v.Local(i).St.holds() {
			n++
		}
	}
	var seen Set
	v.Messages(func(m *Msg, _ int) {
		if m.Kind == TOKEN && !seen.Has(m.To) && valid(v.Local(m.To), m.T) {
			seen |= bit(m.To)
			n++
		}
	})
	return n
}

// validTests is every variant's Event 6 validity test (its handler set's
// valid), for LiveTokens.
var validTests = func() map[string]func(p *Proc, t *Token) bool {
	m := map[string]func(p *Proc, t *Token) bool{}
	for v, items := range variantItems {
		m[v] = newProto(0, 0, items...).valid
	}
	return m
}()

// Properties returns the algorithm's own properties for cfg: a
// "single-token" over valid tokens that replaces the generic one
// (invariants.With), and the queue bound of §VI.
//
// single-token: at most one valid token; exactly one when no message can be
// lost (F = 0). After a loss zero valid tokens is allowed until T1 leads to
// a regeneration (Lemma 1 says "at most one").
func Properties(cfg Config) []model.Property {
	variant := cfg.Variant
	if variant == "" {
		variant = Default
	}
	exact := cfg.F == 0
	single := protocol.Invariant("single-token",
		"at most one valid token (session above its receiver's acc/old session), exactly one without faults",
		func(v *protocol.View[Proc, Msg]) bool {
			k := LiveTokens(v, variant)
			if exact {
				return k == 1
			}
			return k <= 1
		})
	bound := newProto(cfg.N, cfg.M, variantItems[variant]...).maxEntries(cfg.N, cfg.M)
	queue := protocol.Invariant(NameQueueBound,
		"forum switch complexity (§VI): token.queue has at most min(N, M) entries (M for drs-gme/ext)",
		func(v *protocol.View[Proc, Msg]) bool {
			ok := true
			for i := range v.Processes() {
				if t := v.Local(i).Tok; t != nil && len(t.Queue) > bound {
					ok = false
				}
			}
			v.Messages(func(m *Msg, _ int) {
				if m.Kind == TOKEN && len(m.T.Queue) > bound {
					ok = false
				}
			})
			return ok
		})
	if variant == FCFS {
		return []model.Property{single, queue, fcfsProperty()}
	}
	return []model.Property{single, queue}
}

// AllProperties returns the generic properties with the algorithm's own
// merged in (single-token replaced), as the CLI uses them.
func AllProperties(cfg Config) []model.Property {
	return invariants.With(Properties(cfg)...)
}
