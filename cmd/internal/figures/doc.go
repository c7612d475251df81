// Package figures regenerates the measurement figures and the results
// table of docs/measure.md from package measure: Banerjee-Chrysanthis'
// Figures 3 to 6 (messages per CS, delay and forwarded requests against the
// arrival rate, and the comparison with other algorithms) and the torus
// paper's comparison (messages per CS against N at light and heavy load),
// each as SVG and PNG, with the published formulas drawn dashed. Write runs
// everything; `tokenmc measure --figures DIR` calls it.
package figures
