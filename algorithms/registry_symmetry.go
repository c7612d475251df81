package algorithms

import (
	"fmt"
	"sort"

	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/algorithms/naimitrehel"
	"github.com/tokenmc/tokenmc/algorithms/raymond"
	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/model"
)

// symmetryDecl is the symmetry declaration of one algorithm: the
// parameters it was proved for (any other parameter must keep its
// default, since a new parameter may break the symmetry) and the group.
type symmetryDecl struct {
	params []string
	group  func(variant string, params map[string]int) (*model.Symmetry, error)
}

// symmetries maps an algorithm name to its symmetry declaration, for the
// algorithms whose models have one (each checked by explore/symmetry's
// tests with symmetry.Verify). The others have none, for these reasons:
//
//   - suzuki-kasami: Exit appends the newly eligible ids to Q in ascending
//     id order (semantics.md §2), so renaming two waiting processes changes
//     who is served first; Verify finds such a state at n=3, r=1.
//   - ricart-agrawala: ties between equal sequence numbers go to the
//     smaller id.
//   - fapp: priorities derive from ids (Base(i)).
//   - multi-token-ring: ties between tokens go to the smaller owner id.
//   - coord-ring, coord-res, banerjee*, drs-gme: a distinguished
//     coordinator, arbiter or initial holder whose role is written into
//     the handlers, or id-ordered scans; not analysed yet.
var symmetries = map[string]symmetryDecl{
	lelann.Default: {[]string{"n", "r"}, func(variant string, params map[string]int) (*model.Symmetry, error) {
		return lelann.Symmetry(variant, params["n"], params["r"])
	}},
	suzukikasami.Default: {[]string{"n", "r"}, func(variant string, params map[string]int) (*model.Symmetry, error) {
		return suzukikasami.Symmetry(variant, params["n"], params["r"])
	}},
	naimitrehel.Default: {[]string{"n", "r"}, func(variant string, params map[string]int) (*model.Symmetry, error) {
		return naimitrehel.Symmetry(variant, params["n"], params["r"])
	}},
	raymond.Default: {[]string{"n", "r", "tree"}, func(variant string, params map[string]int) (*model.Symmetry, error) {
		return raymond.Symmetry(variant, params["n"], params["r"], params["tree"])
	}},
	torus.Repaired: {[]string{"n", "r", "requesters"}, func(variant string, params map[string]int) (*model.Symmetry, error) {
		sym, err := torus.Symmetry(variant, params["n"], params["r"])
		if err != nil || params["requesters"] == 0 {
			return sym, err
		}
		return keepMask(sym, params["requesters"]), nil
	}},
}

// keepMask restricts sym to the renamings that map the set of processes
// in mask onto itself (only they may request), or returns nil when only
// the identity is left.
func keepMask(sym *model.Symmetry, mask int) *model.Symmetry {
	var kept [][]int
	for _, p := range sym.Perms {
		ok := true
		for i, j := range p {
			if (mask>>i)&1 != (mask>>j)&1 {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, p)
		}
	}
	if len(kept) <= 1 {
		return nil
	}
	out := *sym
	out.Perms = kept
	out.Name = sym.Name + " that keep the requesters"
	return &out
}

// symmetryHook returns the Algorithm.Symmetry function of a: nil when a
// declares none; otherwise a function that refuses parameters the
// declaration was not proved for (when they differ from their defaults).
func symmetryHook(a Algorithm) func(string, map[string]int) (*model.Symmetry, error) {
	d, ok := symmetries[a.Name]
	if !ok {
		return nil
	}
	known := map[string]bool{}
	for _, p := range d.params {
		known[p] = true
	}
	return func(variant string, params map[string]int) (*model.Symmetry, error) {
		var names []string
		for k := range params {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if known[k] {
				continue
			}
			for _, p := range a.Params {
				if p.Name == k && params[k] != p.Default {
					return nil, fmt.Errorf("the symmetry of %s is declared for the default %s only (%d), not %s=%d", a.Name, k, p.Default, k, params[k])
				}
			}
		}
		return d.group(variant, params)
	}
}
