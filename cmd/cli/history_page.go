package cli

// This file wraps porcupine's visualisation of a lock history in a
// tokenmc page: a header that says which history, which model, the
// verdict and how to read the chart (what porcupine's "LP" means), and
// porcupine's own page in a frame that scrolls in its own box instead of
// widening the page.

import (
	"bytes"
	"fmt"
	"html"
	"io"
)

// historyModelDoc says what each sequential model of history accepts.
var historyModelDoc = map[string]string{
	"lock":       "one lock: at most one process holds it; acquire waits until it is free, release frees it",
	"group-lock": "a group lock (group mutual exclusion): holders may share it only while they requested the same group",
	"locks":      "one lock per resource: at most one holder per resource",
}

// writeHistoryPage writes the tokenmc page around porcupine's page (what
// visualize writes) for the history file checked against model.
func writeHistoryPage(w io.Writer, file, model string, rep historyReport, visualize func(io.Writer) error) error {
	var inner bytes.Buffer
	if err := visualize(&inner); err != nil {
		return err
	}
	verdict := "linearizable: porcupine found an order of the operations, each taking effect at one instant between its call and its return, that the model accepts"
	class := "ok"
	switch {
	case rep.Unknown:
		verdict, class = "unknown: porcupine gave up before deciding (the chart shows what it explored)", "bad"
	case !rep.Linearizable:
		verdict, class = "NOT linearizable: no such order exists; the chart shows the longest partial order porcupine found and where it fails", "bad"
	}
	_, err := fmt.Fprintf(w, `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>tokenmc history: %[1]s</title>
<style>
body{font-family:'DejaVu Sans','Liberation Sans',Arial,sans-serif;margin:1em 2em;color:#222;max-width:100%%;box-sizing:border-box}
h1{font-size:1.3em;margin:.2em 0 .5em}
table{border-collapse:collapse;margin-bottom:.8em}
td{padding:.15em .8em .15em 0;vertical-align:top;overflow-wrap:anywhere}
td:first-child{color:#555;white-space:nowrap}
.ok{color:#2b8a3e;font-weight:bold}.bad{color:#c92a2a;font-weight:bold}
.note{color:#444;font-size:.95em;max-width:60em}
.frame{width:100%%;height:70vh;border:1px solid #ccc;box-sizing:border-box;resize:vertical;overflow:auto}
iframe{width:100%%;height:100%%;border:0;display:block}
</style></head><body>
<h1>tokenmc history: linearizability of a lock history</h1>
<table>
<tr><td>history</td><td><code>%[1]s</code></td></tr>
<tr><td>model</td><td><code>%[2]s</code>: %[3]s</td></tr>
<tr><td>operations</td><td>%[4]d (an acquire or a release, from its call to its return)</td></tr>
<tr><td>verdict</td><td class="%[5]s">%[6]s</td></tr>
</table>
<p class="note">How to read the chart below (porcupine's): a row per client process, time from left to right, a box per
operation from its call to its return. An <b>LP</b> (linearization point) is the instant at which an operation is taken to
happen in the sequential order checked against the model: a <b>valid LP</b> (grey) is one the model accepts at that point, an
<b>invalid LP</b> (red) one it refuses there. Hover over an operation for the model's state before and after it; click it to
keep that order shown. The chart scrolls inside its box.</p>
<div class="frame"><iframe title="porcupine's visualisation" srcdoc="%[7]s"></iframe></div>
</body></html>
`, html.EscapeString(file), html.EscapeString(model), html.EscapeString(historyModelDoc[model]), rep.Operations, class,
		html.EscapeString(verdict), html.EscapeString(inner.String()))
	return err
}
