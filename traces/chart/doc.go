// Package chart draws message sequence charts of counterexample traces
// (from check, simulate and liveness lassos) and of event logs.
//
// A chart has a lifeline per process and a row per step, top to bottom.
// Each message is an arrow from the step that sent it to the step that
// delivered it (dashed to the bottom while still in transit; from the top
// for a message in transit initially). The token's path is drawn in thick
// orange, stays in the CS are shaded blue, the violating step (or, for a
// log, the event that no interleaving explains) is marked red, and the
// cycle of a lasso is boxed.
//
// Text gives a compact text chart, SVG a standalone SVG document and HTML
// a page with the SVG and a stepper that shows the state table after each
// step.
package chart
