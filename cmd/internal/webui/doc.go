// Package webui is an interactive explorer of a model's state space in the
// browser, in the manner of Stateright's Explorer: a local HTTP server
// (standard library only; the page, its script and its style are embedded
// files, with no build step) that shows one global state at a time and
// lets a person walk the transition system by hand.
//
// The page shows the current state (the processes as a table whose
// changed cells are highlighted, the network grouped by receiver), every
// enabled action as a button with what its successor would change
// (grouped by process, with a filter box), the properties evaluated on
// the current state, back and forward through the states visited (each
// move is an entry of the browser's history, so its Back and Forward
// buttons work too), the message sequence chart of the path so far (its
// first violating step marked), and a box that jumps to the first state of
// a trace (a trace file given at start, one pasted into the page, a
// counterexample to a safety property the server searches for, or a lasso
// that starves a process: POST /api/lasso runs explore.CheckLiveness) and
// steps through it.
//
// The server keeps no session: a position is an initial-state number and
// the list of transition indices (in model.Worker.Successors order) taken
// from it, kept in the page's URL, so a position can be bookmarked and a
// reload shows the same state. Every request replays the path, in time
// linear in its length.
//
// A web page in any browser can reach a local server, so the server bounds
// what one request costs and refuses what does not come from its own page:
// a path of at most MaxPathSteps steps (413 beyond), replayed under the
// request's context (a client that goes away stops the work); a posted
// trace of at most MaxTraceBytes, of which the MaxPosted newest are kept;
// at most a few state or trace requests at once (503 beyond); a request
// whose Host or Origin names a host other than a loopback one or
// Config.Hosts is refused with 403 (DNS rebinding, cross-site forms).
// Listen binds the loopback interface unless every interface is asked for
// by name, and HTTPServer sets every timeout of the http.Server.
package webui
