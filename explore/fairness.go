package explore

import "github.com/tokenmc/tokenmc/model"

// Fairness is the fairness assumption on message delivery. It is
// model.Fairness: the notion belongs to the semantics, and traces replays
// lassos under it without importing the explorer.
type Fairness = model.Fairness

// Fairness assumptions on message delivery (model.WeakFairness, ...).
const (
	WeakFairness   = model.WeakFairness
	StrongFairness = model.StrongFairness
	NoFairness     = model.NoFairness
)

// ParseFairness is the inverse of Fairness.String (model.ParseFairness).
func ParseFairness(s string) (Fairness, error) { return model.ParseFairness(s) }

// FairnessClass is the fairness class of a transition family
// (model.FairnessClass).
type FairnessClass = model.FairnessClass

// Fairness classes (model.Unfair, ...).
const (
	Unfair       = model.Unfair
	WeaklyFair   = model.WeaklyFair
	StronglyFair = model.StronglyFair
)

// AppendFamily appends to key the identity of t's fairness family and
// returns it with the family's class (model.AppendFamily).
func AppendFamily(key []byte, t *model.Transition, delivery Fairness) ([]byte, FairnessClass) {
	return model.AppendFamily(key, t, delivery)
}
