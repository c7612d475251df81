package explore

import (
	"fmt"

	"github.com/tokenmc/tokenmc/internal/sysmem"
)

// CurrentRSS returns the resident memory of this process now, in bytes
// (VmRSS; where /proc is not available, the memory the Go runtime has
// mapped).
func CurrentRSS() int64 { return sysmem.CurrentRSS() }

// DefaultMemoryBudget is the budget the command line gives a search when
// none is given: 75% of the memory available to the process (the smaller
// of the kernel's MemAvailable and what the cgroup's limit leaves), 0 when
// neither can be read.
func DefaultMemoryBudget() int64 { return sysmem.DefaultMemoryBudget() }

// overBudget reports whether the process's resident memory exceeds a
// positive budget.
func overBudget(budget int64) bool {
	return budget > 0 && CurrentRSS() > budget
}

// memoryStop adds the explanation of a memory stop to r.
func memoryStop(r *Result, budget int64) *Result {
	r.StopDetail = fmt.Sprintf("resident memory would exceed the budget of %d MiB (now %d MiB)", budget>>20, CurrentRSS()>>20)
	return r
}
