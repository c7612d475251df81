// Package symmetry implements symmetry reduction for tokenmc's explorer.
//
// Many mutual-exclusion models are symmetric: renaming the process ids of a
// reachable state (and the ids inside its variables and messages) gives a
// state whose behaviour is the renamed behaviour of the original. An
// algorithm declares such a group of renamings as a model.Symmetry (all
// permutations, the rotations of a ring, the translations of a torus);
// Reduce wraps its System so that every initial state and every successor
// is replaced by the canonical representative of its orbit (the least
// encoding among renamings). The unchanged explorer
// then searches the quotient graph: one state per orbit, up to |G| times
// fewer.
//
// Soundness rests on the declaration: Verify checks, on every reachable
// state of a small configuration and every element of the group, that the
// renamed state has the same successor orbits and the same property
// verdicts. Every declaration in package algorithms is checked that way by
// a test, and Reduce refuses properties not known to be invariant.
//
// A counterexample found in the quotient is a path of canonical states;
// ConcretizeSteps turns it back into a path of the unreduced System by
// re-finding, at each step, a concrete successor in the next state's
// orbit, so traces replay without symmetry. Liveness (lassos) is not
// supported under symmetry.
package symmetry
