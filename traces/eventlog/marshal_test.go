package eventlog_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// plainEvent has Event's fields and tags: encoding/json writes it by
// reflection, the reference for Write.
type plainEvent struct {
	P       int    `json:"p"`
	Seq     int    `json:"seq"`
	Kind    string `json:"kind"`
	Group   int    `json:"group,omitempty"`
	Timer   int    `json:"timer,omitempty"`
	Msg     string `json:"msg,omitempty"`
	MID     string `json:"mid,omitempty"`
	To      *int   `json:"to,omitempty"`
	From    *int   `json:"from,omitempty"`
	Token   bool   `json:"token,omitempty"`
	VC      []int  `json:"vc,omitempty"`
	Lamport int    `json:"lamport,omitempty"`
	TNs     int64  `json:"t_ns"`
	Cause   int    `json:"cause,omitempty"`
	Thread  string `json:"thread,omitempty"`
}

func encodePlain(t *testing.T, v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteMatchesReflection(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"", "REQ(P1->P0, sn=1)", `a"b\c`, "tab\there", "nl\n", "\x01\x1f", "<&>", "é€😀", "\u2028\u2029", "\xff\xfe", "P0"}
	pick := func() string { return pieces[rng.IntN(len(pieces))] + pieces[rng.IntN(len(pieces))] }
	for range 2000 {
		to, from := rng.IntN(3)-1, rng.IntN(3)
		p := plainEvent{P: rng.IntN(5), Seq: rng.IntN(1 << 20), Kind: pick(), Group: rng.IntN(2), Timer: rng.IntN(2) - 1,
			Msg: pick(), MID: pick(), Token: rng.IntN(2) == 0, Lamport: rng.IntN(3), TNs: rng.Int64N(1<<40) - 1,
			Cause: rng.IntN(3), Thread: pick()}
		if p.Msg != "" && p.Msg[0] == '{' {
			p.Msg = "x" + p.Msg
		}
		if rng.IntN(2) == 0 {
			p.To = &to
		}
		if rng.IntN(2) == 0 {
			p.From = &from
		}
		for range rng.IntN(4) {
			p.VC = append(p.VC, rng.IntN(100)-1)
		}
		e := eventlog.Event{P: p.P, Seq: p.Seq, Kind: p.Kind, Group: p.Group, Timer: p.Timer, Msg: p.Msg, MID: p.MID, To: p.To,
			From: p.From, Token: p.Token, VC: p.VC, Lamport: p.Lamport, TNs: p.TNs, Cause: p.Cause, Thread: p.Thread}
		var buf bytes.Buffer
		if err := eventlog.Write(&buf, eventlog.Header{}, []eventlog.Event{e}); err != nil {
			t.Fatal(err)
		}
		if got, want := buf.String()[bytes.IndexByte(buf.Bytes(), '\n')+1:], encodePlain(t, &p); got != want {
			t.Fatalf("Write:\n got %s\nwant %s", got, want)
		}
	}
}
