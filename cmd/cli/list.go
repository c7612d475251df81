package cli

import (
	"io"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

type listedParam struct {
	Name    string `json:"name"`
	Doc     string `json:"doc"`
	Min     int    `json:"min"`
	Max     int    `json:"max,omitempty"`
	Default int    `json:"default"`
}

type listedVariant struct {
	Name   string   `json:"name"`
	Kind   string   `json:"kind"`
	Doc    string   `json:"doc"`
	Breaks []string `json:"breaks,omitempty"`
	// Params are the parameters the variant sets for its break
	// (algorithms.Variant.Params); check, simulate, run and explore use
	// them unless a flag overrides them.
	Params map[string]int `json:"params,omitempty"`
}

type listedAlgorithm struct {
	Name       string          `json:"name"`
	Doc        string          `json:"doc"`
	Source     string          `json:"source"`
	Params     []listedParam   `json:"params"`
	Variants   []listedVariant `json:"variants"`
	Properties []string        `json:"properties"`
}

func cmdList(cat *catalog, args []string, stdout io.Writer) (int, error) {
	fs := cat.newFlagSet("list", "tokenmc list [NAME...] [--brief] [--json]\n\n"+
		"Lists the algorithms, grouped: Suzuki-Kasami and the other algorithms of the\n"+
		"source papers first, then the classic baselines, then any other; with NAME (an\n"+
		"algorithm or NAME/VARIANT) only that algorithm: its source, parameters (as\n"+
		"flags, with their ranges and defaults), properties and variants.", stdout)
	asJSON := fs.Bool("json", false, "print the registry as JSON")
	brief := fs.Bool("brief", false, "one line per algorithm: its name, number of variants and what it is")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	algs := cat.all()
	if len(pos) > 0 {
		algs = nil
		for _, name := range pos {
			a, _, err := cat.lookup(name)
			if err != nil {
				return 0, badInput("list: %v", err)
			}
			algs = append(algs, a)
		}
	}
	var out []listedAlgorithm
	for _, a := range algs {
		la := listedAlgorithm{Name: a.Name, Doc: a.Doc, Source: a.Source, Params: []listedParam{}, Variants: []listedVariant{}}
		for _, p := range a.Params {
			la.Params = append(la.Params, listedParam{p.Name, p.Doc, p.Min, p.Max, p.Default})
		}
		for _, v := range a.Variants {
			la.Variants = append(la.Variants, listedVariant{v.Name, v.Kind, v.Doc, v.Breaks, v.Params})
		}
		la.Properties = applicableProps(a)
		out = append(out, la)
	}
	if *asJSON {
		return exitOK, writeJSON(stdout, map[string]any{"algorithms": out})
	}
	if *brief {
		printListBrief(stdout, out)
		return exitOK, nil
	}
	printListFull(stdout, out, len(pos) == 0)
	return exitOK, nil
}

// applicableProps lists the properties checked by default for an
// algorithm, built at its default parameters.
func applicableProps(a algorithms.Algorithm) []string {
	params := map[string]int{}
	for _, p := range a.Params {
		params[p.Name] = p.Default
	}
	sys, extra, err := a.Build(a.Name, params)
	if err != nil {
		return []string{}
	}
	names := []string{}
	for _, p := range invariants.Applicable(allProps(extra), sys.Info()) {
		names = append(names, p.Name)
	}
	return names
}

func allProps(extra []model.Property) []model.Property {
	return invariants.With(extra...)
}
