package cli

import (
	"fmt"
	"io"
	"strings"

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
	fs := cat.newFlagSet("list", "tokenmc list [--json]", stdout)
	asJSON := fs.Bool("json", false, "print the registry as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) > 0 {
		return 0, badInput("list takes no arguments, got %q", pos[0])
	}
	var out []listedAlgorithm
	for _, a := range cat.all() {
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
	for _, a := range out {
		fmt.Fprintf(stdout, "%s\n  %s\n  source: %s\n", a.Name, a.Doc, a.Source)
		var ps []string
		for _, p := range a.Params {
			r := fmt.Sprintf("%d..", p.Min)
			if p.Max > 0 {
				r = fmt.Sprintf("%d..%d", p.Min, p.Max)
			}
			ps = append(ps, fmt.Sprintf("--%s %s (default %d): %s", p.Name, r, p.Default, p.Doc))
		}
		fmt.Fprintf(stdout, "  params:\n    %s\n", strings.Join(ps, "\n    "))
		fmt.Fprintf(stdout, "  properties: %s\n  variants:\n", strings.Join(a.Properties, ", "))
		for _, v := range a.Variants {
			var notes []string
			if len(v.Breaks) > 0 {
				notes = append(notes, "breaks "+strings.Join(v.Breaks, ", "))
			}
			if len(v.Params) > 0 {
				notes = append(notes, "parameters: "+paramString(v.Params))
			}
			extra := ""
			if len(notes) > 0 {
				extra = " [" + strings.Join(notes, "; ") + "]"
			}
			fmt.Fprintf(stdout, "    %-36s %-8s %s%s\n", v.Name, v.Kind, v.Doc, extra)
		}
		fmt.Fprintln(stdout)
	}
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
