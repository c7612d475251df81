package coordres

import (
	"testing"

	"github.com/tokenmc/tokenmc/explore/modeltest"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// The scripted scenarios of seed 000 §V, kept as data under
// testdata/scenarios (go test -run TestScenarios -modeltest.update rewrites their
// expected outputs). The properties are the per-resource ones, which
// replace the generic mutex and single-token, and the generic mutex as
// "generic-mutex", so that a scenario can show two clients InCS on
// different resources.
func TestScenarios(t *testing.T) {
	modeltest.RunDir(t, "testdata/scenarios", func(a *modeltest.Args) (model.System, []model.Property, error) {
		p, err := New(a.String("variant", Default), a.Int("n", 3), a.Int("k", 1), a.Int("r", 1))
		if err != nil {
			return nil, nil, err
		}
		generic := invariants.Mutex
		generic.Name = "generic-mutex"
		return p.System(), append(Properties(), generic), nil
	})
}
