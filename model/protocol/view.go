package protocol

import (
	"encoding/json"
	"fmt"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// View is the Snapshot a Protocol's worker gives properties. Besides the
// generic Snapshot methods it offers typed access to local states and
// messages, for algorithm-specific invariants (see Invariant).
type View[P, M any] struct {
	w       *protocolWorker[P, M]
	locals  []P
	decoded []bool
	msg     M
	fast    *inPlace[P, M] // set for the View of an InPlace state (inplace.go)
}

// Processes returns N.
func (v *View[P, M]) Processes() int { return len(v.w.procs) }

// Phase returns the client phase of process i.
func (v *View[P, M]) Phase(i int) model.Phase { return v.w.procs[i].phase }

// Made returns how many requests process i has made.
func (v *View[P, M]) Made(i int) int { return v.w.procs[i].made }

// Group returns the group of process i's current or last request.
func (v *View[P, M]) Group(i int) int { return v.w.procs[i].group }

// Local returns process i's decoded local state. Do not modify it.
func (v *View[P, M]) Local(i int) *P {
	if !v.decoded[i] {
		v.w.dec.Reset(v.w.bytesOf(v.w.procs[i].local))
		v.w.p.DecodeProc(&v.w.dec, &v.locals[i])
		v.decoded[i] = true
	}
	return &v.locals[i]
}

// Messages calls f for each distinct message in transit with its number of
// copies, in canonical order. The message is valid only during the call.
func (v *View[P, M]) Messages(f func(m *M, copies int)) {
	if v.fast != nil {
		v.fast.messages(f)
		return
	}
	for k := range v.w.msgs {
		v.w.dec.Reset(v.w.bytesOf(v.w.msgs[k].b))
		v.w.p.DecodeMsg(&v.w.dec, &v.msg)
		f(&v.msg, v.w.msgs[k].count)
	}
}

// InTransit returns the number of messages in transit, counting copies.
func (v *View[P, M]) InTransit() int {
	if v.fast != nil {
		return v.fast.inTransit
	}
	n := 0
	for _, m := range v.w.msgs {
		n += m.count
	}
	return n
}

// Tokens counts the tokens held by processes and carried by messages, or
// returns -1 when the protocol has no tokens.
func (v *View[P, M]) Tokens() int {
	p := v.w.p
	if p.HoldsToken == nil {
		return -1
	}
	if v.fast != nil {
		return v.fast.tokens()
	}
	n := 0
	for i := range v.w.procs {
		if v.holdsToken(i) {
			n++
		}
	}
	if v.w.netTokensKnown {
		return n + v.w.netTokens
	}
	v.Messages(func(m *M, copies int) {
		if p.CarriesToken(m) {
			n += copies
		}
	})
	return n
}

// Invariant wraps a typed state predicate over a Protocol's states
// as a Property, for algorithm-specific invariants.
func Invariant[P, M any](name, doc string, holds func(v *View[P, M]) bool) model.Property {
	return model.Property{
		Name: name,
		Kind: model.Invariant,
		Doc:  doc,
		Holds: func(s model.Snapshot) bool {
			v, ok := s.(*View[P, M])
			if !ok {
				panic(fmt.Sprintf("model: invariant %q applied to a system of another type", name))
			}
			return holds(v)
		},
	}
}

func (w *protocolWorker[P, M]) Snapshot(state []byte) model.Snapshot {
	w.parse(state)
	clear(w.view.decoded)
	return &w.view
}

// LastSnapshot is the explorer's optional capability: the state Successors parsed
// last is still indexed in w.procs and w.msgs.
func (w *protocolWorker[P, M]) LastSnapshot() model.Snapshot {
	clear(w.view.decoded)
	return &w.view
}

func (w *protocolWorker[P, M]) Label(state []byte, t *model.Transition) string {
	l := w.label(t)
	if w.p.Nondeterministic {
		if k := w.alternatives(state, t); k > 1 {
			l += fmt.Sprintf(" (alternative %d of %d)", t.Choice+1, k)
		}
	}
	return l
}

// label is the label of t without its alternative.
func (w *protocolWorker[P, M]) label(t *model.Transition) string {
	p := w.p
	switch t.Kind {
	case model.Request:
		if p.Groups > 1 {
			return fmt.Sprintf("Request(P%d, g=%d)", t.Proc, t.Arg)
		}
		return fmt.Sprintf("Request(P%d)", t.Proc)
	case model.Exit:
		return fmt.Sprintf("Exit(P%d)", t.Proc)
	case model.Timer:
		return protosys.TimerLabel(t.Proc, t.Arg, p.TimerNames)
	case model.Deliver, model.Lose:
		var m M
		var d model.Decoder
		d.Reset(t.Msg)
		p.DecodeMsg(&d, &m)
		return t.Kind.String() + " " + p.FormatMsg(&m)
	}
	return "?"
}

func (w *protocolWorker[P, M]) Describe(state []byte) model.StateDescription {
	p := w.p
	w.parse(state)
	sd := model.StateDescription{FaultsUsed: w.faults, Processes: []model.ProcessDescription{}, Network: []model.MessageDescription{}}
	for i, ps := range w.procs {
		var local P
		var d model.Decoder
		d.Reset(w.bytesOf(ps.local))
		p.DecodeProc(&d, &local)
		vars, err := json.Marshal(&local)
		if err != nil {
			panic(fmt.Sprintf("model: %s: local state of P%d does not marshal to JSON: %v", p.Name, i, err))
		}
		pd := model.ProcessDescription{ID: i, Phase: ps.phase.String(), Made: ps.made, Group: ps.group, Vars: vars, Text: p.formatProc(&local)}
		if p.HoldsToken != nil {
			pd.HoldsToken = p.HoldsToken(ps.phase, &local)
		}
		sd.Processes = append(sd.Processes, pd)
	}
	for _, ms := range w.msgs {
		var m M
		var d model.Decoder
		d.Reset(w.bytesOf(ms.b))
		p.DecodeMsg(&d, &m)
		md := model.MessageDescription{Message: p.FormatMsg(&m), To: p.To(&m), Count: ms.count}
		if p.CarriesToken != nil {
			md.Token = p.CarriesToken(&m)
		}
		sd.Network = append(sd.Network, md)
	}
	return sd
}
