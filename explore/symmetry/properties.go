package symmetry

import (
	"fmt"

	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// checkProperties returns an error naming the first property of props
// that is not known to be invariant under sym (Reduce says which are).
func checkProperties(sym *model.Symmetry, props, specific []model.Property) error {
	generic := map[string]bool{}
	for _, p := range invariants.Standard() {
		generic[p.Name] = true
	}
	for _, p := range specific {
		delete(generic, p.Name)
	}
	declared := map[string]bool{}
	for _, n := range sym.Properties {
		declared[n] = true
	}
	for _, p := range props {
		if !generic[p.Name] && !declared[p.Name] {
			return fmt.Errorf("property %s is not declared invariant under the %s of this model, so a reduced search could miss its violations; drop it from --props or run without --symmetry", p.Name, sym.Name)
		}
	}
	return nil
}
