package torus

import (
	"encoding/json"
	"fmt"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// FIFO channels (Options.FIFO; docs/notes/algorithms.md §10.2 --fifo: "per
// ordered pair of processes; a message is deliverable only if it is the
// oldest on its channel").
//
// A process sends on two channels only: to right(i) (REQUESTs, and TOKENs
// touring a row or changing column, cc != 0) and to down(i) (TOKENs with
// cc == 0). So the channel of a message follows from the message itself
// (channelOf) and messages need not record their sender. Each process
// numbers the messages it sends on each channel (Proc.Out is the next
// number, Msg.Seq the message's), and a Deliver is enabled only for the
// message with the smallest number on its channel (the Guard). Since
// delivery is in order and the torus loses no message, the k messages on
// a channel always carry the numbers Out-k .. Out-1 of their sender. The
// checker's normal form (the Normalize hook) subtracts Out from them and
// sets every Out to 0: the messages of a channel are numbered -k .. -1
// from the oldest, and the newest is always -1. A state is then exactly
// its processes plus one queue per channel, as in the notes' throw-away
// encoding, and delivering the oldest message renumbers nothing. Without
// normalisation (the runtime of tokenmc run) the numbers count up from 0
// and the guard still picks the oldest message.

// channelOf returns the channel, Right or Down, on which m travels: a TOKEN
// with cc == 0 comes from above, everything else from the left.
func channelOf(m *Msg) int {
	if m.Kind == TOKEN && m.CC == 0 {
		return Down
	}
	return Right
}

// sender returns the process that sent m on its channel ch.
func (cfg config) sender(m *Msg, ch int) int {
	d, row, col := cfg.d, m.To/cfg.d, m.To%cfg.d
	if ch == Down {
		return (row+d-1)%d*d + col
	}
	return row*d + (col+d-1)%d
}

// installFIFO switches p, built by NewWith from cfg, to FIFO channels.
func (cfg config) installFIFO(p *protocol.Protocol[Proc, Msg]) {
	// The initial TOKEN(0, 1, 0, F) comes from above, as the one message
	// sent on that channel before (Seq -1, Out 0: the normal form).
	p.InitialMessages = func() []Msg {
		return []Msg{{Kind: TOKEN, To: 0, RC: 1, CC: 0, Ch: false, Seq: -1}}
	}
	p.EncodeProc = encodeProcFIFO
	p.DecodeProc = decodeProcFIFO
	p.EncodeMsg = encodeMsgFIFO
	p.DecodeMsg = decodeMsgFIFO
	p.FormatMsg = formatMsgFIFO
	p.Guard = chainGuard(p.Guard, oldestOnChannel)
	p.GuardLocal = false // oldestOnChannel reads the messages in transit
	p.Normalize = chainNormalize(p.Normalize, cfg.renumberChannels)
}

// oldestOnChannel is the FIFO guard: a message can be delivered only if no
// message on its channel has a smaller sequence number.
func oldestOnChannel(v *protocol.View[Proc, Msg], a *protocol.Action[Msg]) bool {
	if a.Kind != model.Deliver {
		return true
	}
	m := *a.Msg
	ch := channelOf(&m)
	oldest := true
	v.Messages(func(o *Msg, _ int) {
		if o.To == m.To && o.Seq < m.Seq && channelOf(o) == ch {
			oldest = false
		}
	})
	return oldest
}

// renumberChannels is the FIFO normalisation: on each channel the k
// messages in transit carry the numbers Out-k .. Out-1 of their sender, so
// subtracting Out numbers them -k .. -1 from the oldest, and Out becomes
// 0. It keeps the order on every channel, which is all the guard reads,
// and handlers never read the numbers.
func (cfg config) renumberChannels(_ []model.Phase, procs []Proc, msgs []Msg) {
	for a := range msgs {
		ch := channelOf(&msgs[a])
		msgs[a].Seq -= procs[cfg.sender(&msgs[a], ch)].Out[ch]
		if msgs[a].Seq >= 0 || msgs[a].Seq < -len(msgs) {
			panic(fmt.Sprintf("torus: FIFO channel numbers out of order: %s", formatMsgFIFO(&msgs[a])))
		}
	}
	for i := range procs {
		procs[i].Out = [2]int{}
	}
}

func chainGuard(g, h func(*protocol.View[Proc, Msg], *protocol.Action[Msg]) bool) func(*protocol.View[Proc, Msg], *protocol.Action[Msg]) bool {
	if g == nil {
		return h
	}
	return func(v *protocol.View[Proc, Msg], a *protocol.Action[Msg]) bool { return g(v, a) && h(v, a) }
}

func chainNormalize(f, g func([]model.Phase, []Proc, []Msg)) func([]model.Phase, []Proc, []Msg) {
	if f == nil {
		return g
	}
	return func(ph []model.Phase, p []Proc, m []Msg) { f(ph, p, m); g(ph, p, m) }
}

func encodeProcFIFO(e *model.Encoder, p *Proc) {
	encodeProc(e, p)
	e.Uint(uint64(p.Out[Right]))
	e.Uint(uint64(p.Out[Down]))
}

func decodeProcFIFO(d *model.Decoder, p *Proc) {
	decodeProc(d, p)
	p.Out[Right] = int(d.Uint())
	p.Out[Down] = int(d.Uint())
}

func encodeMsgFIFO(e *model.Encoder, m *Msg) {
	encodeMsg(e, m)
	e.Int(m.Seq)
}

func decodeMsgFIFO(d *model.Decoder, m *Msg) {
	decodeMsg(d, m)
	m.Seq = d.Int()
}

// formatMsgFIFO is FormatMsg with the message's number on its channel:
// "REQUEST(origin=P0, ->P1, seq=-1)".
func formatMsgFIFO(m *Msg) string {
	s := FormatMsg(m)
	return fmt.Sprintf("%s, seq=%d)", s[:len(s)-1], m.Seq)
}

// marshalWithOut renders a process with FIFO channel counters for trace
// files: the fields of Proc.MarshalJSON plus "out".
func marshalWithOut(p Proc, w []int) ([]byte, error) {
	type held struct {
		Waiting []int  `json:"waiting"`
		Has     bool   `json:"has"`
		RC      int    `json:"rc"`
		CC      int    `json:"cc"`
		Ch      bool   `json:"ch"`
		Out     [2]int `json:"out"`
	}
	type idle struct {
		Waiting []int  `json:"waiting"`
		Has     bool   `json:"has"`
		Out     [2]int `json:"out"`
	}
	if p.Has {
		return json.Marshal(held{w, true, p.RC, p.CC, p.Ch, p.Out})
	}
	return json.Marshal(idle{w, false, p.Out})
}
