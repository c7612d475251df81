// Package linearize checks a client-visible lock history (package
// cmd/internal/history) for linearizability with porcupine
// (github.com/anishathalye/porcupine) against a sequential lock, a group
// lock or one lock per resource, and writes porcupine's visualisation.
//
// It is the only package of the command line that links porcupine; the
// command line reaches it through cmd/internal/linked, which the package
// github.com/tokenmc/tokenmc/cmd/cli/history fills in, so that a program
// that embeds cmd/cli without the history command does not link it.
package linearize
