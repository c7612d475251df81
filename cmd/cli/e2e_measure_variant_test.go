package cli

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/raymond"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

// myTree is Raymond's algorithm as a user's algorithm whose variant
// my-tree/star chooses tree=2 (a star) through Variant.Params, and n=2,
// which measure must leave to --n.
func myTree() algorithms.Algorithm {
	return algorithms.Algorithm{
		Name: "my-tree", Doc: "Raymond's tree", Source: "a test",
		Params: []spec.Param{
			{Name: "n", Doc: "processes", Min: 2, Max: 16, Default: 3},
			{Name: "r", Doc: "requests per process", Min: 1, Max: 8, Default: 1, SimMax: -1},
			{Name: "tree", Doc: "0 line, 1 balanced, 2 star", Min: 0, Max: 2, Default: 0},
		},
		Variants: []algorithms.Variant{
			{Name: "my-tree", Kind: spec.KindDefault, Doc: "on a line"},
			{Name: "my-tree/star", Kind: spec.KindDefault, Doc: "on a star", Params: map[string]int{"tree": 2, "n": 2}},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			p, err := raymond.New(raymond.Default, params["n"], params["r"], params["tree"])
			if err != nil {
				return nil, nil, err
			}
			p.Name = variant
			return p.System(), nil, nil
		},
	}
}

// measure applies the variant's own parameters (except n and r) unless a
// parameter flag overrides them, and says so in the row (JSON
// variant_params, the table's note) as check does: my-tree/star measures
// as my-tree --tree 2, not as the line; --tree 0 overrides it.
func TestMeasureVariantParams(t *testing.T) {
	measured := func(args ...string) measureRow {
		t.Helper()
		var out, errb bytes.Buffer
		all := append([]string{"measure", "--n", "7", "--load", "light", "--entries", "200", "--warmup", "20", "--reps", "2", "--json"}, args...)
		if code := Run(all, &out, &errb, myTree()); code != exitOK {
			t.Fatalf("%v: exit %d\n%s", all, code, errb.String())
		}
		r := cliResult{args: all, stdout: out.String()}
		var rows []measureRow
		r.decodeJSON(t, &rows)
		if len(rows) != 1 || rows[0].N != 7 {
			t.Fatalf("%v: rows %+v; want one row at n=7", args, rows)
		}
		return rows[0]
	}
	star, line := measured("--algos", "my-tree/star"), measured("--algos", "my-tree")
	byFlag, overridden := measured("--algos", "my-tree", "--tree", "2"), measured("--algos", "my-tree/star", "--tree", "0")
	if star.MessagesPerCS != byFlag.MessagesPerCS || star.MessagesPerCS == line.MessagesPerCS {
		t.Errorf("my-tree/star: %v messages per CS; want my-tree --tree 2's %v (line: %v)", star.MessagesPerCS, byFlag.MessagesPerCS, line.MessagesPerCS)
	}
	if overridden.MessagesPerCS != line.MessagesPerCS {
		t.Errorf("my-tree/star --tree 0: %v messages per CS; want the line's %v", overridden.MessagesPerCS, line.MessagesPerCS)
	}
	if !reflect.DeepEqual(star.VariantParams, map[string]int{"tree": 2}) || line.VariantParams != nil || overridden.VariantParams != nil {
		t.Errorf("variant_params: star %v, line %v, overridden %v; want tree=2, none, none", star.VariantParams, line.VariantParams, overridden.VariantParams)
	}
	var out bytes.Buffer
	if code := Run([]string{"measure", "--algos", "my-tree/star", "--n", "4", "--entries", "50", "--reps", "1"}, &out, &bytes.Buffer{}, myTree()); code != exitOK ||
		!strings.Contains(out.String(), "parameters of the variant: tree=2") {
		t.Errorf("table: exit %d\n%s\nwant the note", code, out.String())
	}
	// drs-gme/accept-any-token turns its timers on (timers=2, which the
	// measure flag --timers, durations, does not override): it used to be
	// measured with the timers off; now with them on, its timer Guard
	// honoured, and the row's note says where timers=2 came from.
	r := runCLI(t, "measure", "--algos", "drs-gme/accept-any-token", "--n", "3", "--reps", "1", "--entries", "50")
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "parameters of the variant: timers=2") {
		t.Errorf("drs-gme/accept-any-token:\n%s\nwant the note naming timers=2", r.stdout)
	}
}
