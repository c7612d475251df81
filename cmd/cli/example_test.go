package cli_test

import (
	"fmt"
	"os"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/cmd/cli"
	"github.com/tokenmc/tokenmc/model"
)

// A program with its own algorithm gets every tokenmc command for it; its
// main is
//
//	func main() { os.Exit(cli.Main(ring)) }
//
// Here Run lists the one algorithm (the model is Le Lann's ring, built
// under the user's name).
func ExampleRun() {
	ring := algorithms.Algorithm{
		Name:   "ring",
		Doc:    "a token ring",
		Source: "Le Lann 1977",
		Params: []spec.Param{
			{Name: "n", Doc: "processes", Min: 2, Max: 6, Default: 3},
			{Name: "r", Doc: "requests per process", Min: 1, Max: 3, Default: 1},
		},
		Variants: []algorithms.Variant{
			{Name: "ring", Kind: spec.KindDefault, Doc: "the token circulates forever"},
			{Name: "ring/drop", Kind: spec.KindMutant, Doc: "Exit loses the token",
				Breaks: []string{"no-deadlock"}, Params: map[string]int{"n": 2}},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			v := lelann.Default
			if variant == "ring/drop" {
				v = lelann.DropOnExit
			}
			p, err := lelann.New(v, params["n"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Name = variant // the system carries the variant's name
			return p.System(), nil, nil
		},
	}
	code := cli.Run([]string{"list"}, os.Stdout, os.Stderr, ring)
	fmt.Println("exit", code)
	// Output:
	// ring
	//   a token ring
	//   source: Le Lann 1977
	//   params:
	//     --n 2..6 (default 3): processes
	//     --r 1..3 (default 1): requests per process
	//   properties: mutex, single-token, no-unrequested-entry, no-deadlock
	//   variants:
	//     ring                                 default  the token circulates forever
	//     ring/drop                            mutant   Exit loses the token [breaks no-deadlock; parameters: n=2]
	//
	// exit 0
}
