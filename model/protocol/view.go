package protocol

import (
	"encoding/json"
	"fmt"
	"sync/atomic"

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
	// cache: local states and messages decoded by their memo ids
	// (cachedLocal, cachedMsg), made on first use
	cache viewCache[P, M]
}

// Processes returns N.
func (v *View[P, M]) Processes() int { return len(v.w.procs) }

// Phase returns the client phase of process i.
func (v *View[P, M]) Phase(i int) model.Phase { return v.w.procs[i].phase }

// Made returns how many requests process i has made.
func (v *View[P, M]) Made(i int) int { return v.w.procs[i].made }

// Group returns the group of process i's current or last request.
func (v *View[P, M]) Group(i int) int { return v.w.procs[i].group }

// Local returns process i's decoded local state. Do not modify it: during
// a search the value is shared by every state in which the process has
// the same input (its phase, group and local state; see cachedLocal).
func (v *View[P, M]) Local(i int) *P {
	if !v.decoded[i] {
		if w := v.w; v.fast == nil && w.memoOn {
			if id := w.procInputID(i); id >= 0 {
				return v.cachedLocal(i, id)
			}
		}
		v.w.dec.Reset(v.w.bytesOf(v.w.procs[i].local))
		v.w.p.DecodeProc(&v.w.dec, &v.locals[i])
		v.decoded[i] = true
	}
	return &v.locals[i]
}

// cachedLocal returns process i's local state decoded once per distinct
// process input (id, its id in the worker's memo): a search views the
// same process states in many global states. The decoded values live as
// long as the memo's ids (see memos).
func (v *View[P, M]) cachedLocal(i int, id int32) *P {
	c := v.fresh()
	return decodeOnce(&v.w.dec, c.locals, c.localOK, id, v.w.bytesOf(v.w.procs[i].local), v.w.p.DecodeProc)
}

// cachedMsg is cachedLocal for distinct message k of the parsed state,
// whose id in the worker's memo is id.
func (v *View[P, M]) cachedMsg(k int, id int32) *M {
	c := v.fresh()
	return decodeOnce(&v.w.dec, c.msgs, c.msgOK, id, v.w.bytesOf(v.w.msgs[k].b), v.w.p.DecodeMsg)
}

// decodeOnce returns &vals[id], decoding b into it with decode with d
// unless ok[id] says it holds it already.
func decodeOnce[T any](d *model.Decoder, vals []T, ok []bool, id int32, b []byte, decode func(*model.Decoder, *T)) *T {
	if !ok[id] {
		d.Reset(b)
		decode(d, &vals[id])
		ok[id] = true
	}
	return &vals[id]
}

// fresh returns the view's cache of decoded values, emptied if the
// worker's memo started its ids over since it was filled.
func (v *View[P, M]) fresh() *viewCache[P, M] {
	c := &v.cache
	if c.localOK == nil {
		c.localOK, c.locals = make([]bool, internEntries), make([]P, internEntries)
		c.msgOK, c.msgs = make([]bool, internEntries), make([]M, internEntries)
		c.resets = v.w.memos.resets
	}
	if c.resets != v.w.memos.resets {
		c.resets = v.w.memos.resets
		clear(c.localOK)
		clear(c.msgOK)
	}
	return c
}

// viewCache holds local states and messages decoded by their memo ids.
type viewCache[P, M any] struct {
	locals  []P
	localOK []bool
	msgs    []M
	msgOK   []bool
	resets  int // the memo's resets when the values were decoded
}

// Messages calls f for each distinct message in transit with its number of
// copies, in canonical order. The message is valid only during the call;
// do not modify it (a View is read only): during a search it is shared by
// every state that holds the same message (see cachedMsg).
func (v *View[P, M]) Messages(f func(m *M, copies int)) {
	if v.fast != nil {
		v.fast.messages(f)
		return
	}
	w := v.w
	cached := w.memoOn
	for k := range w.msgs {
		if cached {
			if id := w.msgInputID(k); id >= 0 {
				f(v.cachedMsg(k, id), w.msgs[k].count)
				continue
			}
		}
		w.dec.Reset(w.bytesOf(w.msgs[k].b))
		w.p.DecodeMsg(&w.dec, &v.msg)
		f(&v.msg, w.msgs[k].count)
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

// LocalInvariant wraps a predicate of one process's own state as an
// invariant that holds in a state when the predicate holds of every
// process: holds gets the process's id, client phase and decoded local
// state (do not modify it), and must be a function of them alone. Each
// worker remembers its verdicts per distinct process state (as it
// remembers the protocol's steps, see Protocol), so a search decodes and
// checks a process state once, not once per global state it is part of.
func LocalInvariant[P, M any](name, doc string, holds func(i int, phase model.Phase, local *P) bool) model.Property {
	slot := int(localInvariants.Add(1)) - 1
	if slot >= localInvariantSlots {
		slot = -1 // no room left in the memo's values: checked every time
	}
	return Invariant(name, doc, func(v *View[P, M]) bool { return v.everyLocal(slot, holds) })
}

// localInvariants numbers the LocalInvariants made: each has two bits of
// the process memo's values (bits 2+2k, known, and 3+2k, holds), up to
// localInvariantSlots of them.
var localInvariants atomic.Int32

const localInvariantSlots = 30

// everyLocal reports whether holds is true of every process of the
// viewed state, with the memo's verdicts for LocalInvariant slot.
func (v *View[P, M]) everyLocal(slot int, holds func(int, model.Phase, *P) bool) bool {
	w := v.w
	memo := slot >= 0 && v.fast == nil && w.memoOn
	for i := range v.Processes() {
		id := int32(-2)
		if memo {
			id = w.procInputID(i)
		}
		if id < 0 {
			if !holds(i, v.Phase(i), v.Local(i)) {
				return false
			}
			continue
		}
		val := w.memos.procs.val(id)
		known, ok := int64(1)<<(2+2*slot), int64(1)<<(3+2*slot)
		if *val&known == 0 {
			*val |= known
			if holds(i, v.Phase(i), v.Local(i)) {
				*val |= ok
			}
		}
		if *val&ok == 0 {
			return false
		}
	}
	return true
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
