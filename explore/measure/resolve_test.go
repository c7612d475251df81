package measure

import (
	"context"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

// The tests name built-in algorithms as the CLI's --algos does; these
// helpers resolve the name as the CLI does (algorithms.Algorithm.
// MeasureBuild and .Measure) before measure sees the configuration.

// resolveIn fills in cfg's Build and Facts from the algorithm of algs that
// cfg.Algo names, or from the registry when algs is nil. A name that does
// not resolve gives a Build that returns the lookup's error.
func resolveIn(algs []algorithms.Algorithm, cfg Config) Config {
	var a algorithms.Algorithm
	var v algorithms.Variant
	var err error
	if algs == nil {
		a, v, err = algorithms.Lookup(cfg.Algo)
	} else {
		a, v, err = spec.LookupIn(algs, cfg.Algo)
	}
	if err != nil {
		cfg.Build = func(map[string]int) (model.System, []model.Property, error) { return nil, nil, err }
		return cfg
	}
	cfg.Build, cfg.Facts = a.MeasureBuild(v.Name), a.Measure
	return cfg
}

// asUser resolves cfg in a user's algorithm, prepared as cli.Main prepares
// it.
func asUser(a *algorithms.Algorithm, cfg Config) Config {
	p, err := spec.Prepare(*a)
	if err != nil {
		cfg.Build = func(map[string]int) (model.System, []model.Property, error) { return nil, nil, err }
		return cfg
	}
	return resolveIn([]algorithms.Algorithm{p}, cfg)
}

// run is Run on cfg resolved in the registry unless it has a Build.
func run(ctx context.Context, cfg Config, workers int) (*Result, error) {
	if cfg.Build == nil {
		cfg = resolveIn(nil, cfg)
	}
	return Run(ctx, cfg, workers)
}

// resolvedBuild is build on cfg resolved in the registry unless it has a
// Build; it resolves cfg in place, as Run would see it.
func resolvedBuild(cfg *Config) (*built, error) {
	if cfg.Build == nil {
		*cfg = resolveIn(nil, *cfg)
	}
	return build(cfg)
}
