package ricartagrawala

import (
	"testing"

	"github.com/tokenmc/tokenmc/explore/modeltest"
	"github.com/tokenmc/tokenmc/model"
)

// The scripted scenarios of Ricart-Agrawala 1981, kept as data under
// testdata/scenarios (go test -run TestScenarios -modeltest.update rewrites their
// expected outputs).
func TestScenarios(t *testing.T) {
	modeltest.RunDir(t, "testdata/scenarios", func(a *modeltest.Args) (model.System, []model.Property, error) {
		p, err := New(a.String("variant", Default), a.Int("n", 2), a.Int("r", 1))
		if err != nil {
			return nil, nil, err
		}
		return p.System(), Properties(), nil
	})
}
