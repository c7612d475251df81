// Package record writes event logs from an implementation of a
// distributed mutual exclusion algorithm, so that 'tokenmc validate' can
// check the implementation's runs against the model it implements.
//
// An implementation calls the Log once per event of each process, in the
// process's order: Request, Enter, Exit, Timer for the client events,
// Send when it sends a message (it gets a Stamp to carry in the message)
// and Receive when a message arrives (it gives the Stamp back). The Log
// keeps the vector clocks and message ids, and writes one JSON line per
// event, streamed to disk through a buffer; it is safe for concurrent
// use by the processes' goroutines.
//
// Each step of the model is one trigger (a request, exit, receive or
// timer) followed by its effects (the sends it causes and the entry into
// the CS, if any). Record a step's trigger where the process's state
// changes (so that the order of a process's triggers in the log is the
// order in which its state saw them), and its effects after it: at once,
// or later, after other events of the process, from whichever goroutine
// performs them (docs/eventlog.md). Thread gives a view of the log that
// names the goroutine of each event, so that a send is taken for an
// effect of the latest trigger logged by the same goroutine.
//
// Messages are strings in the model's rendering (see tokenmc check
// output, e.g. "REQ(P1->P0, sn=1)"), or values that marshal to JSON
// objects naming the message's kind and fields, e.g.
// {"kind":"REQ","sn":1}; the implementation may use its own names and
// have the validator translate them with a mapping file (see
// docs/eventlog.md). A nil message records the send or receive without
// its payload.
//
// A Config with Kinds or Processes writes a partial log: only those
// events, with the header saying so. The clocks still count every event,
// so the validator knows how many steps each process took between two
// recorded events.
//
//	log, err := record.Create("run.jsonl", record.Config{Algorithm: "suzuki-kasami", Params: map[string]int{"n": 3, "r": 10}})
//	...
//	log.Request(1)
//	st := log.Send(1, 0, map[string]any{"kind": "REQ", "sn": 1})
//	// ... the message travels with st ...
//	log.Receive(0, st, map[string]any{"kind": "REQ", "sn": 1})
//	...
//	err = log.Close()
package record
