// Package naive is an independent, deliberately simple reference enumerator for
// two models fixed exactly by docs/semantics.md: Suzuki-Kasami (§2) and
// the two-dimensional torus (§3, with the tour-end and column-end constants of
// docs/notes/torus.md).
//
// It was written separately from the real explorer, from semantics.md alone,
// and imports none of the project's other packages. Its only purpose is to
// cross-check the explorer's counts (distinct states, transitions, depth) and
// basic safety verdicts. It favours obvious correctness over speed: a global
// state is a plain Go struct, its identity is a canonical string built from
// every process variable, the token data and the network multiset (message
// strings sorted), and the search is a textbook breadth-first search with a
// map[string]int of distances and a FIFO queue. No hashing tricks, no
// concurrency, no reductions.
package naive
