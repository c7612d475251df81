// Package protocol is how an algorithm author writes a tokenmc model:
// per-process handlers over the algorithm's own process type P and message
// type M, compiled into a model.System.
//
//	OnRequest(c, group)  a process asks for its CS (it is Waiting)
//	OnExit(c)            it leaves its CS (it is Idle again)
//	OnDeliver(c, m)      a message reaches it
//	OnTimer(c, t)        one of its timers or phase ends fires
//
// A handler changes only the acting process (c.Self), enters the CS with
// c.Enter and sends with c.Send. Everything else of the semantics comes
// for free: the client phases Idle -> Waiting -> InCS with the R bound on
// requests, the network as a multiset in canonical order (delivering one
// of k identical copies is one action), action labels, message-loss faults
// with a budget, and the data the generic properties of package invariants
// need (phases, the token count, entries into the CS from a phase other
// than Waiting). The compiled System copies the other processes' bytes
// verbatim, and it runs a handler once per distinct local step: a search
// meets the same step (the same process, phase, group and local state,
// with the same action or message) in many global states, so a worker
// remembers its effect (the process's next encoding, the flags and the
// sends) and copies it afterwards, without decoding, calling or encoding.
// That is one more reason why handlers must be deterministic and use
// nothing but their Ctx: a handler that counts its calls sees fewer calls
// than transitions. Nondeterministic protocols (Ctx.Choose), random walks
// and the per-process stepping API run the handler every time. Nothing is
// allocated per state once a worker's buffers and its bounded memo tables
// have grown.
//
// A Protocol names its size, Init and its four handlers at the top level;
// the rest is grouped in embedded structs: Codec (the encodings and a
// message's receiver, required), Options (plain configuration: groups,
// faults, timers, cyclic clients, channel capacity, nondeterminism,
// parameters), Hooks (optional functions that refine the semantics:
// initial messages, timers, losses, tokens, Guard, Normalize) and Format
// (how people read messages, local states and timers).
//
// Besides Protocol and the Ctx its handlers receive, the package holds
// what is written in terms of a protocol's own types: whole-state guards
// and invariants over a View, symmetry renamings (Renaming, Renamer and
// the id helpers RenameID, RenameIDs, PermuteIndexed), FormatInts for
// renderings, and ModelPanic, the error a panic of the model's own code
// becomes. The compiled systems also step one process at a time, with
// the very handlers the checker runs, for real runs (cmd/internal/live) and
// event-log validation (traces/eventlog); that interface is tokenmc's own
// (internal), not part of this package's API.
//
// The compiled system's workers also implement the optional capabilities
// the engine looks for (the explorer's LastSnapshot,
// the random walks' Sampler, IncrementalSnapshotter and InPlaceWorker,
// the symmetry reduction's RenameBelow and Fixes), structurally: this
// package does not import the engine.
//
// Bounded channels (design notes §10.2): with Options.Capacity > 0 (or
// the compiled system's WithCapacity method, which `tokenmc check
// --channel-capacity` uses) a transition whose sends would
// leave more than Capacity messages on one channel (Codec.From ->
// Codec.To) is disabled, and the workers report it through
// explore.CapacityBlocker, so that a state blocked only by the bound is
// not taken for a deadlock. Such workers offer neither the in-place nor
// the sampling interfaces of explore/simulate (which would not apply the
// bound), and liveness checks refuse them. Not yet bounded-aware: the
// random walks of explore/simulate (a capacity-blocked state would look
// like a deadlock to them), explore/symmetry's quotient (the same) and the
// per-process stepping of real runs and event-log validation, which
// ignores the bound.
//
// The package example defines a token ring from scratch and checks it.
package protocol
