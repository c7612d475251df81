package lelann

import (
	"testing"

	"github.com/tokenmc/tokenmc/explore/modeltest"
	"github.com/tokenmc/tokenmc/model"
)

// The scripted scenarios, kept as data under testdata/scenarios (go test
// -run TestScenarios -modeltest.update rewrites their expected outputs).
func TestScenarios(t *testing.T) {
	modeltest.RunDir(t, "testdata/scenarios", func(a *modeltest.Args) (model.System, []model.Property, error) {
		p, err := New(a.String("variant", Default), a.Int("n", 3), a.Int("r", 1))
		if err != nil {
			return nil, nil, err
		}
		return p.System(), Properties(), nil
	})
}
