// Package model is the abstraction every tokenmc algorithm is written in.
//
// It has two layers.
//
// # Explicit-state systems
//
// A System is a transition system over canonically encoded global states:
// a state is a []byte, and two states are equal exactly when their bytes
// are equal, so the explorer can hash and store them without knowing what
// they mean. A Worker (one per goroutine) yields the initial states and,
// for a state, every enabled Transition with the state it leads to, in a
// fixed order. It also decodes a state for properties (Snapshot), labels
// transitions for people (Label) and renders states for trace files
// (Describe). Properties are values (Property) of three kinds: invariants
// of states, invariants of transitions, and conditions on states without
// successors.
//
// # The protocol layer
//
// Protocol[P, M] is how an algorithm author writes a model: per-process
// handlers over the algorithm's own process type P and message type M.
//
//	OnRequest(c, group)  a process asks for its CS (it is Waiting)
//	OnExit(c)            it leaves its CS (it is Idle again)
//	OnDeliver(c, m)      a message reaches it
//	OnTimer(c, t)        one of its timers or phase ends fires
//
// A handler changes only the acting process (c.Self), enters the CS with
// c.Enter and sends with c.Send. Everything else of semantics.md §1 comes
// for free: the client phases Idle -> Waiting -> InCS with the R bound on
// requests, the network as a multiset in canonical order (delivering one of
// k identical copies is one action), action labels, message-loss faults
// with a budget, and the data the generic properties of package invariants
// need (phases, the token count, entries into the CS from a phase other
// than Waiting). The compiled System decodes only the acting process for
// each transition and copies the other processes' bytes verbatim, so a
// successor costs one decode, one handler call and one encode; nothing is
// allocated per state once a worker's buffers have grown.
//
// Encodings are written with Encoder and read with Decoder, in the same
// order; zig-zag varints make them canonical as long as the author encodes
// every field and normalises values that mean the same (an empty and a nil
// list, fields that are meaningless in some phase).
//
// The package example defines a token ring from scratch and checks it.
package model
