package explore_test

import (
	"encoding/json"
	"fmt"

	"github.com/tokenmc/tokenmc/model"
)

// graphSys is a model.System given as an explicit graph, for testing the
// liveness search against brute force: a state is one byte (a node), node
// 0 is initial, and each edge is a transition of a given kind, process and
// message. waiting[v] has bit i when process i is Waiting at v.
type graphSys struct {
	nodes   int
	procs   int
	edges   [][]gEdge // by source, in Successors order
	waiting []uint8
	gme     bool
	groups  [][]int // groups[v][i]: group of process i at v (GME tests)
	incs    []uint8 // bit i: process i InCS at v
}

type gEdge struct {
	Kind model.ActionKind
	Proc int
	Arg  int
	Msg  byte
	To   int
}

func (g *graphSys) Info() model.Info {
	return model.Info{Name: "graph", Processes: g.procs, Requests: 1, Groups: 1, GME: g.gme}
}

func (g *graphSys) NewWorker() model.Worker { return &graphWorker{g: g} }

type graphWorker struct {
	g   *graphSys
	buf [1]byte
	msg [1]byte
	tr  model.Transition
}

type graphSnap struct {
	g *graphSys
	v int
}

func (s graphSnap) Processes() int { return s.g.procs }
func (s graphSnap) Phase(i int) model.Phase {
	switch {
	case s.g.waiting[s.v]&(1<<i) != 0:
		return model.Waiting
	case s.g.incs != nil && s.g.incs[s.v]&(1<<i) != 0:
		return model.InCS
	}
	return model.Idle
}
func (s graphSnap) Made(int) int { return 0 }
func (s graphSnap) Group(i int) int {
	if s.g.groups == nil {
		return 0
	}
	return s.g.groups[s.v][i]
}
func (s graphSnap) Tokens() int    { return -1 }
func (s graphSnap) InTransit() int { return 0 }

func (w *graphWorker) Initial(yield func([]byte) bool) { w.buf[0] = 0; yield(w.buf[:]) }

func (w *graphWorker) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	for _, e := range w.g.edges[state[0]] {
		w.msg[0] = e.Msg
		w.tr = model.Transition{Kind: e.Kind, Proc: e.Proc, Arg: e.Arg}
		if e.Kind == model.Deliver || e.Kind == model.Lose {
			w.tr.Msg = w.msg[:]
		}
		w.buf[0] = byte(e.To)
		if !yield(&w.tr, w.buf[:]) {
			return
		}
	}
}

func (w *graphWorker) Snapshot(state []byte) model.Snapshot { return graphSnap{w.g, int(state[0])} }

func (w *graphWorker) Label(state []byte, t *model.Transition) string {
	switch t.Kind {
	case model.Deliver, model.Lose:
		return fmt.Sprintf("%s m%d(->P%d)", t.Kind, t.Msg[0], t.Proc)
	case model.Exit:
		return fmt.Sprintf("Exit(P%d)", t.Proc)
	}
	return fmt.Sprintf("%s(P%d, %d)", t.Kind, t.Proc, t.Arg)
}

func (w *graphWorker) Describe(state []byte) model.StateDescription {
	v := int(state[0])
	sd := model.StateDescription{Network: []model.MessageDescription{}}
	snap := graphSnap{w.g, v}
	for i := range w.g.procs {
		vars, _ := json.Marshal(map[string]int{"node": v})
		sd.Processes = append(sd.Processes, model.ProcessDescription{ID: i, Phase: snap.Phase(i).String(), Group: snap.Group(i), Vars: vars})
	}
	return sd
}
