package explore

import (
	"fmt"

	"github.com/tokenmc/tokenmc/model/sysmem"
)

// overBudget reports whether the process's resident memory exceeds a
// positive budget.
func overBudget(budget int64) bool {
	return budget > 0 && sysmem.CurrentRSS() > budget
}

// memoryStop adds the explanation of a memory stop to r.
func memoryStop(r *Result, budget int64) *Result {
	r.StopDetail = fmt.Sprintf("resident memory would exceed the budget of %d MiB (now %d MiB)", budget>>20, sysmem.CurrentRSS()>>20)
	return r
}
