package drsgme

import (
	"testing"

	"github.com/tokenmc/tokenmc/explore/modeltest"
	"github.com/tokenmc/tokenmc/model"
)

// The scripted scenarios of algorithms.md §7, kept as data under
// testdata/scenarios (go test -run TestScenarios -modeltest.update rewrites their
// expected outputs). The build command takes the fields of Config:
// variant, n, m (groups), r, f (losses) and timers.
func TestScenarios(t *testing.T) {
	modeltest.RunDir(t, "testdata/scenarios", func(a *modeltest.Args) (model.System, []model.Property, error) {
		cfg := Config{Variant: a.String("variant", Default), N: a.Int("n", 2), M: a.Int("m", 2), R: a.Int("r", 1),
			F: a.Int("f", 0), Timers: a.Int("timers", TimersAuto)}
		sys, err := System(cfg)
		if err != nil {
			return nil, nil, err
		}
		return sys, AllProperties(cfg), nil
	})
}
