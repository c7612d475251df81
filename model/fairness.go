package model

import (
	"encoding/binary"
	"fmt"
)

// Fairness is the fairness assumption on message delivery, under which a
// liveness property is checked (explore.CheckLiveness) and a lasso trace
// is replayed (traces.Replay). Exit and timer transitions are always
// weakly fair; Request and fault transitions never are (semantics.md §1).
type Fairness uint8

// Fairness assumptions on message delivery.
const (
	// WeakFairness: a message continuously in transit from some point on
	// is eventually delivered (semantics.md's default).
	WeakFairness Fairness = iota
	// StrongFairness: a message in transit infinitely often is delivered
	// infinitely often.
	StrongFairness
	// NoFairness: a message may stay in transit forever.
	NoFairness
)

// String returns "weak", "strong" or "none".
func (f Fairness) String() string {
	switch f {
	case WeakFairness:
		return "weak"
	case StrongFairness:
		return "strong"
	case NoFairness:
		return "none"
	}
	return "fairness(?)"
}

// ParseFairness is the inverse of Fairness.String.
func ParseFairness(s string) (Fairness, error) {
	for _, f := range []Fairness{WeakFairness, StrongFairness, NoFairness} {
		if f.String() == s {
			return f, nil
		}
	}
	return 0, fmt.Errorf("fairness %q is unknown; want weak, strong or none", s)
}

// FairnessClass is the fairness class of a transition family.
type FairnessClass uint8

// Fairness classes.
const (
	Unfair       FairnessClass = iota // Request, faults, and deliveries under NoFairness
	WeaklyFair                        // continuously enabled -> taken infinitely often
	StronglyFair                      // enabled infinitely often -> taken infinitely often
)

// String names the class.
func (c FairnessClass) String() string {
	switch c {
	case Unfair:
		return "unfair"
	case WeaklyFair:
		return "weak"
	case StronglyFair:
		return "strong"
	}
	return "class(?)"
}

// AppendFamily appends to key the identity of t's fairness family and
// returns it with the family's class. Two transitions are of one family
// iff their keys are equal:
//
//   - Exit(i): (Exit, i);
//   - Deliver m: (Deliver, receiver, message bytes): one family per distinct
//     message, whatever the number of copies;
//   - Timer t of i: (Timer, i, t);
//   - Request(i, g): (Request, i, g), unfair;
//   - Lose m: (Lose, receiver, message bytes), unfair.
//
// Fairness applies to message delivery only.
func AppendFamily(key []byte, t *Transition, delivery Fairness) ([]byte, FairnessClass) {
	key = append(key, byte(t.Kind))
	key = binary.AppendUvarint(key, uint64(t.Proc))
	switch t.Kind {
	case Exit:
		return key, WeaklyFair
	case Timer:
		return binary.AppendUvarint(key, uint64(t.Arg)), WeaklyFair
	case Request:
		return binary.AppendUvarint(key, uint64(t.Arg)), Unfair
	case Deliver:
		key = append(key, t.Msg...)
		switch delivery {
		case StrongFairness:
			return key, StronglyFair
		case NoFairness:
			return key, Unfair
		}
		return key, WeaklyFair
	}
	return append(key, t.Msg...), Unfair
}
