// Package model is the contract between a tokenmc model and the tools that
// check it: the explorer, the simulator, the trace writer and the CLI.
//
// A System is a transition system over canonically encoded global states:
// a state is a []byte, and two states are equal exactly when their bytes
// are equal, so the explorer can hash and store them without knowing what
// they mean. A Worker (one per goroutine) yields the initial states and,
// for a state, every enabled Transition with the state it leads to, in a
// fixed order. It also decodes a state for properties (Snapshot), labels
// transitions for people (Label) and renders states for trace files
// (Describe, a StateDescription). Properties are values (Property) of
// three kinds: invariants of states, invariants of transitions, and
// conditions on states without successors. A Symmetry declares a group of
// process renamings the system is invariant under, for reduced searches.
//
// Encodings are written with Encoder and read with Decoder, in the same
// order; zig-zag varints make them canonical as long as the author encodes
// every field and normalises values that mean the same (an empty and a nil
// list, fields that are meaningless in some phase).
//
// Most models are not written against this package directly but with the
// protocol layer, package model/protocol, which compiles per-process
// handlers into a System. The package example writes a small System by
// hand.
package model
