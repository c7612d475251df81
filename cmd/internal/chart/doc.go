// Package chart draws message sequence charts of counterexample traces
// (from check, simulate and liveness lassos) and of event logs.
//
// A chart has a lifeline per process and a row per step, top to bottom.
// Each message is an arrow from the step that sent it to the step that
// delivered it (dashed to the bottom while still in transit; from the top
// for a message in transit initially). The token's path is drawn in thick
// orange, stays in the CS are shaded blue, the violating step (or, for a
// log, the event that no interleaving explains) is marked red, and the
// cycle of a lasso is boxed, its starving process's lifeline red.
//
// Charts scale to many processes and long runs: a long step label wraps
// onto a second line and is cut beyond it, the whole text kept as a hover
// title, and the SVG is as wide as what it draws; when more than a few
// messages are still in transit at the end, each is a short stub at its
// sender and a box under each receiver counts them (the list as its hover
// title) instead of a dashed arrow crossing the chart; a legend explains
// the marks. The fonts named are DejaVu Sans Mono and Liberation Mono,
// which headless Chromium on Debian has, and every glyph is in them.
//
// Text gives a compact text chart, SVG a standalone SVG document, HTML a
// page with the SVG and a stepper that shows the state after each step (a
// collapsible panel, the fields the step changed highlighted, the
// messages in transit grouped by receiver), and Embed the same as a
// fragment for a page of the caller's, such as check --report.
package chart
