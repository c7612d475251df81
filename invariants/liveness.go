package invariants

// Names of the liveness properties of semantics.md §1. They are not
// model.Property values: they are not predicates on states or transitions
// but on the whole state graph, and the explorer checks them with a
// separate search (explore.CheckLiveness, under an model.Fairness
// assumption).
const (
	NameStarvationFreedom   = "starvation-freedom"
	NameConcurrentOccupancy = "concurrent-occupancy"
)

// KindLiveness and KindPossibility are the property kinds recorded in trace
// files for the two graph properties: a starvation-freedom counterexample is
// a lasso (kind "liveness"), a concurrent-occupancy counterexample is a path
// to a state from which an entry is impossible (kind "possibility").
const (
	KindLiveness    = "liveness"
	KindPossibility = "possibility"
)
