// Package traces records, reads, replays and renders counterexamples.
//
// A counterexample to a safety property (semantics.md §1) is a finite path
// from an initial state: a list of steps, each an action label, ending in a
// state (or, for a transition property, a step) that violates the property.
// This package turns such a path into a Trace, a self-contained record that
// can be saved, read back, checked against the model again and told as a
// story.
//
// # The file format
//
// A trace file is JSON, format "tokenmc-trace", version 1 (the fields
// Format and Version of Trace). It records the algorithm, its parameters, the search
// options that change the semantics (faults, for instance), the violated
// property with its kind, the initial state and, for each step, the action
// and the full state it leads to. States are written as
// model.Worker.Describe renders them, so a trace can be read without the
// model (abridged):
//
//	{
//	  "format": "tokenmc-trace",
//	  "version": 1,
//	  "algorithm": "tiny/eager",
//	  "params": {"n": 2, "r": 1},
//	  "property": "mutex",
//	  "property_kind": "invariant",
//	  "initial": {
//	    "processes": [
//	      {"id": 0, "phase": "Idle", "made": 0, "holds_token": true, "vars": {"has": true}},
//	      {"id": 1, "phase": "Idle", "made": 0, "vars": {"has": false}}
//	    ],
//	    "network": []
//	  },
//	  "steps": [
//	    {
//	      "index": 1,
//	      "action": "Request(P1)",
//	      "kind": "Request",
//	      "process": 1,
//	      "sent": ["REQ(P1->P0)"],
//	      "state": {...}
//	    },
//	    ...
//	  ]
//	}
//
// A process of an algorithm with a FormatProc (protocol.Protocol) also
// has "text", its state as the algorithm renders it for the views, e.g.
// "RN=[1,0] LN=[0,0] Q=[]"; it is derived from "vars", and replay ignores
// it when it compares states.
//
// Besides the state, a step names its kind and acting process, the message
// it delivers (or loses, for a fault), and the messages it sends: all of
// these follow from the states and the label, and are recorded so that the
// file can be read, and reviewed in a diff, without re-running anything.
//
// Write lays the JSON out deterministically (field order of Trace, sorted
// map keys, a value on one line while it fits in 120 columns), so the same
// trace always gives the same bytes and golden files diff cleanly. Read is
// strict: an unknown format or version, invalid JSON, an unknown, misspelt
// or duplicate field, a value of the wrong type, a missing algorithm or
// property, no steps, misnumbered steps, an unknown kind or phase, a
// process out of range: each is a *FormatError, one line that says where
// (file:line:column and the JSON path), what is wrong and what would be
// right. A change to the format that an old reader could misread gets a
// new version number; Read rejects versions it does not know.
//
// # Lassos and possibility traces
//
// A counterexample to starvation-freedom is a lasso (property_kind
// "liveness"): the steps of a prefix and then of a cycle. The field "loop"
// names the step whose source state starts the cycle, and
// "waiting_process" the process that waits forever; options.fairness
// records the fairness assumption ("weak" when absent). FromSteps builds
// one from a search's lasso (explore.Lasso's Path and Actions), with
// Meta.Loop and Meta.WaitingProcess set (and Meta.Options["fairness"]). Replay re-executes every step, then checks
// that the last state is the state before step "loop", that the process is
// Waiting in every state of the cycle, and that the cycle is fair: every
// weakly fair family (model.AppendFamily) enabled in all its states,
// and every strongly fair one enabled in any, is taken by one of its steps.
// Render marks where the cycle starts and where it returns.
//
// A counterexample to concurrent-occupancy (property_kind "possibility",
// built by FromSteps with Meta.WaitingProcess) is a path to a state in which
// "waiting_process" requests a group that nobody else is using or waiting
// for; Replay re-explores every state reachable from it without an Exit or
// a request for another group and checks that the process enters in none.
//
// A witness (property_kind "witness", Trace.IsWitness) is not a counterexample
// but a behaviour that explains something, such as the model behaviour
// `tokenmc validate --witness` finds for a partial event log (property
// "explains-log"). Replay checks its initial state and every step and
// claims no violation; Render says what it is.
//
// A model-error trace (property_kind and property "model-error",
// Trace.ModelError set; built by FromSteps with Meta.ModelError) records a failure of the model
// itself: its code panicked when the final state was stepped. Its
// "model_error" names the action being stepped and the handler or hook
// that panicked, when the model says, and the message. It may have no
// steps (the model failed at an initial state). Replay re-executes the
// steps and checks that stepping the final state makes the model fail
// again, on the same action (Result.ModelError).
//
// # Traces and model changes
//
// A saved trace keeps replaying after compatible changes to the model's
// process type: a variable (a member of "vars") whose value is zero (null,
// false, 0, "", [] or {}) compares equal to an absent one, so a field added
// to the process type that keeps its zero value along the trace, or a field
// removed whose recorded value was zero, changes nothing. Any other
// difference is a divergence that names the step, the process and the
// field ("Out is absent from the trace and [7] in the replay"). Action
// labels and message texts (FormatMsg) must stay the same: a message type
// that gains a field changes the generic rendering of its messages, so
// give the protocol a FormatMsg that names the fields it means to show.
//
// # Building a trace
//
// An explorer that finds a violation reconstructs the path of encoded
// states from an initial state to the bad one, with the transition it took
// at each step (its index in Successors order), and calls FromSteps with a
// worker of the system and a Meta (algorithm, parameters, options,
// property); FromViolation does so with the metadata of the system
// (explore.Violation carries its Actions). FromSteps records the label
// and effects of each transition taken. FromSteps with nil actions, given the
// states alone, takes for each pair of consecutive states the first transition
// (in Successors order) that leads from one to the other. StepLabel takes
// one step by its label, as Replay does for each step of a trace. The messages a step sends are taken from
// the step itself when the worker can say (model/protocol's workers of a
// protocol with a Normalize hook, whose normal form may rename messages in
// transit that the step did not send), else from the difference of the
// two networks.
//
// # Replaying a trace
//
// Replay re-executes a trace on a system: the recorded initial state must
// be one of the system's, each recorded action must be enabled where the
// trace takes it and must lead to the recorded state, and the end must
// violate the named property. The answer is a Result, a verdict: OK, or the
// step at which the replay diverged and how, or the fact that the trace no
// longer ends in a violation. Replay returns an error only when the trace
// cannot be replayed at all (malformed, of another algorithm, a property
// that is not given or has another kind). Golden traces replayed
// in tests therefore catch any change of a model's behaviour, down to the
// step.
//
// # Telling the story
//
// Render writes a trace as plain text: a header, the initial state as a
// table, then for each step its action, what changed (phases and variables
// of the processes, where the token went, which messages were sent or lost)
// and a summary line: where the token is, who is InCS, who is Waiting, what
// is in transit. The last line says why the property is violated, in words
// ("P0 and P1 are both InCS"). See the example of Render.
//
// # Golden files
//
// The tests pin the file format and the rendering of a few counterexamples
// of a tiny two-process algorithm under testdata/tiny/. After an intended
// change, regenerate them with
//
//	go test ./traces -update
//
// and review the diff.
package traces
