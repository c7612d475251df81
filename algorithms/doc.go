// Package algorithms is the registry of tokenmc's algorithm models: which
// algorithms exist, their variants (readings of the published text and
// deliberately broken mutants), their numeric parameters, and how to build
// each one into a model.System.
//
// Every model lives in its own package (suzukikasami, torus) written with
// the protocol layer of package model; this package only describes and
// builds them. Names are the ones typed on the command line:
// "suzuki-kasami" selects the default variant, "suzuki-kasami/send-in-cs"
// a named one (docs/notes/algorithms.md §10.10: NAME is the default,
// NAME/literal the published text as written, NAME/<mutant> a deliberately
// broken model).
//
// A typical caller resolves a name and builds it:
//
//	alg, v, err := algorithms.Lookup("torus/literal")
//	if err != nil { ... }                    // the message suggests the closest names
//	sys, props, err := alg.Build(v.Name, map[string]int{"n": 4, "r": 1})
//	if err != nil { ... }                    // one line: what is wrong, what is right
//	all := invariants.With(props...)         // an algorithm property may replace a generic one
//
// A user's own algorithm is described with the types of package
// algorithms/spec (Algorithm, Param, Variant and the variant kinds) and
// checked by spec.Prepare, which gives its Build the checks every registry
// entry has (the variant belongs, parameters known and in range, defaults
// filled; BuildSim with the simulation ranges); spec.LookupIn resolves
// names among such a set. cmd/cli's Main takes the set and gives it the
// whole command line. Package spec is a leaf that imports none of the
// built-in algorithms, so a user's model that imports it alone does not
// link the twelve built-ins; this package names the two types its
// functions return (Algorithm, Variant) as aliases of spec's.
//
// Build returns only the algorithm-specific properties; the generic ones
// (mutex, single-token, no-unrequested-entry, no-deadlock) are in package
// invariants. Each variant's Breaks lists the properties it is expected to
// violate (a mutant's purpose, or a finding about a literal reading), which
// lets tests and the CLI tell an expected counterexample from a regression.
//
// Sources are cited by author and year with a section or figure;
// docs/references.md in the repository gives the full references and the
// keys "seed 000" .. "seed 004" by which comments in the code name
// them, and docs/notes/ the design notes (ids such as D12 or A3) the
// package docs cite.
package algorithms
