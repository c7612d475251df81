package webui

import (
	"fmt"
	"net/http"

	"github.com/tokenmc/tokenmc/cmd/internal/memsize"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
)

// starvation is the liveness property the page can search a lasso for.
const starvation = "starvation-freedom"

// lasso answers POST /api/lasso: a counterexample to starvation-freedom
// under weak fairness on message delivery (as tokenmc check's default),
// searched with explore.CheckLiveness within the configured bounds: the
// lasso of the lowest-numbered process that can starve, added to the jump
// box with its cycle and its starving process; without one, a path to a
// deadlock where a process waits, if any. Otherwise the answer is a
// message saying so (and whether the search was complete).
func (s *Server) lasso(w http.ResponseWriter, r *http.Request) {
	ctx, done, ok := s.startSearch(w, r)
	if !ok {
		return
	}
	defer done()
	opts := explore.LivenessOptions{Starvation: true, Fairness: model.WeakFairness}
	opts.MaxStates = s.cfg.SearchLimit
	opts.MemoryBudget = memsize.DefaultBudget() // as the counterexample search
	res, err := explore.CheckLiveness(ctx, s.cfg.System, opts)
	if err != nil {
		httpError(w, fmt.Sprintf("cannot search %s: %v", starvation, err))
		return
	}
	if len(res.Starving) == 0 && res.Deadlock != nil {
		// a finite behaviour that starves: a state with a waiting
		// process and no action enabled
		init, path, err := statesPath(s.cfg.System.NewWorker(), res.Deadlock.Path, res.Deadlock.Actions)
		if err != nil {
			httpError(w, err.Error())
			return
		}
		np := pathOf(fmt.Sprintf("deadlock: a process waits and no action is enabled, %d steps", len(path)), init, path, nil)
		s.remember(np)
		writeJSON(w, np)
		return
	}
	if len(res.Starving) == 0 {
		msg := fmt.Sprintf("no process starves: %s holds on all %d reachable states (weak fairness)", starvation, res.States)
		if res.Verdict != explore.OK {
			msg = fmt.Sprintf("no starving process among the %d states searched (stopped: %s)", res.States, res.StopReason)
		}
		writeJSON(w, map[string]string{"message": msg})
		return
	}
	l := res.Starving[0]
	init, path, err := statesPath(s.cfg.System.NewWorker(), l.Path, l.Actions)
	if err != nil {
		httpError(w, err.Error())
		return
	}
	np := namedPath{
		Name:    fmt.Sprintf("lasso: P%d starves, %d steps, the cycle from step %d", l.Process, len(path), l.Loop+1),
		Init:    init,
		Path:    path,
		Loop:    l.Loop + 1,
		Waiting: l.Process,
	}
	s.remember(np)
	writeJSON(w, np)
}
