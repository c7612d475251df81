// Package spec holds the types that describe an algorithm to tokenmc:
// Algorithm (its name, parameters, variants, Build function and the facts
// the tools read), Param, Variant, ClaimRun and the variant kinds, with
// Prepare, which checks a description and gives its Build the checks every
// algorithm shares, and LookupIn, which resolves "alg" or "alg/variant"
// among a set of descriptions.
//
// The package is a leaf: it imports the model contract, model/facts and
// the name suggester, and none of the built-in algorithms. A user's model
// describes itself with it and links only what it uses; package algorithms
// (the registry of the built-in algorithms) declares the same names as
// aliases, so code written against algorithms.Algorithm keeps compiling.
//
//	alg, err := spec.Prepare(spec.Algorithm{
//		Name:     "my-ring",
//		Params:   []spec.Param{{Name: "n", Min: 2, Max: 6, Default: 3}},
//		Variants: []spec.Variant{{Name: "my-ring"}, {Name: "my-ring/drop", Kind: spec.KindMutant}},
//		Build:    build, // func(variant string, params map[string]int) (model.System, []model.Property, error)
//	})
//
// cmd/cli's Main takes such descriptions and gives them the whole command
// line.
package spec
