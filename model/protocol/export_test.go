package protocol

import "github.com/tokenmc/tokenmc/model"

// The random walks' optional worker capabilities, as the engine declares
// them (explore/internal/capability, which this package's external tests
// cannot import): the worker implements them structurally, and
// explore/simulate's TestProtocolWorkersHaveTheCapabilities pins the
// engine's declarations against a protocol worker.

// Sampler is capability.Sampler.
type Sampler interface {
	Enabled(dst []model.Transition, state []byte) []model.Transition
	Apply(state []byte, t *model.Transition) []byte
}

// IncrementalSnapshotter is capability.IncrementalSnapshotter.
type IncrementalSnapshotter interface {
	SnapshotAfter(next []byte, t *model.Transition) model.Snapshot
	EnabledAfter(dst []model.Transition, receivers bool) []model.Transition
}

// InPlaceWorker is capability.InPlaceWorker.
type InPlaceWorker interface {
	NewInPlace() inPlaceState
}

// ErrNoAlternative is the error the local worker's Step wraps for a
// Choice beyond the handler's alternatives, for the tests that check it.
var ErrNoAlternative = errNoAlternative

// NetworkCounts returns the copies in transit of each distinct message
// (by its encoding) of an encoded state of n processes, in the network's
// order.
func NetworkCounts(state []byte, n int) (msgs []string, counts []int) {
	_, segs := parseLayout(state, make([]procSeg, n), nil, "test")
	for _, m := range segs {
		msgs = append(msgs, string(state[m.b.start:m.b.end]))
		counts = append(counts, m.count)
	}
	return msgs, counts
}

// TagSentBits and TagCommuteBits are commute.go's tagSentBits and
// tagCommuteBits.
const (
	TagSentBits    = tagSentBits
	TagCommuteBits = tagCommuteBits
)
