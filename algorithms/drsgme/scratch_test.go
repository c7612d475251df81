package drsgme

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

// refDecodeToken, refDecodeProc and refDecodeMsg are the decoders as they
// were before scratch.go: every slice and token freshly allocated. They are
// the reference the reusing decoders are compared with.
func refDecodeToken(d *model.Decoder, t *Token) {
	t.Session = d.Int()
	t.Type = d.Int()
	t.Followers = d.Int()
	t.LN = d.Ints(nil)
	t.Queue = make([]Entry, int(d.Uint()))
	for k := range t.Queue {
		t.Queue[k].G = int(d.Uint())
		t.Queue[k].Members = make([]Member, int(d.Uint()))
		for x := range t.Queue[k].Members {
			t.Queue[k].Members[x] = Member{int(d.Uint()), d.Int()}
		}
	}
}

func refDecodeProc(d *model.Decoder, p *Proc) {
	p.St = St(d.Uint())
	p.Captain = -1
	if p.St == EF {
		p.Captain = int(d.Uint())
	}
	p.SN = d.Ints(nil)
	p.SX = d.Ints(nil)
	p.RS = Set(d.Uint())
	p.Acc = d.Int()
	refDecodeToken(d, &p.Old)
	p.Fol = make([]Member, int(d.Uint()))
	for k := range p.Fol {
		p.Fol[k] = Member{int(d.Uint()), d.Int()}
	}
	p.Tok = nil
	if p.St.holds() {
		p.Tok = &Token{}
		refDecodeToken(d, p.Tok)
	}
}

func randToken(r *rand.Rand, n int) Token {
	t := Token{Session: r.IntN(5), Type: r.IntN(3) - 1, Followers: r.IntN(3), LN: make([]int, r.IntN(n+1)), Queue: []Entry{}}
	for k := range t.LN {
		t.LN[k] = r.IntN(4)
	}
	for range r.IntN(4) {
		e := Entry{G: r.IntN(3), Members: make([]Member, r.IntN(4))}
		for x := range e.Members {
			e.Members[x] = Member{r.IntN(n), r.IntN(4)}
		}
		t.Queue = append(t.Queue, e)
	}
	return t
}

func randProc(r *rand.Rand, n int) Proc {
	p := Proc{St: St(r.IntN(6)), Captain: -1, SN: make([]int, r.IntN(n+1)), SX: make([]int, r.IntN(n+1)), RS: Set(r.IntN(1 << n)), Acc: r.IntN(4), Old: randToken(r, n)}
	if p.St == EF {
		p.Captain = r.IntN(n)
	}
	for k := range p.SN {
		p.SN[k] = r.IntN(5)
	}
	for k := range p.SX {
		p.SX[k] = r.IntN(3)
	}
	for range r.IntN(4) {
		p.Fol = append(p.Fol, Member{r.IntN(n), r.IntN(4)})
	}
	if p.St.holds() {
		t := randToken(r, n)
		p.Tok = &t
	}
	return p
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDecodersReuseScratchSafely: decoding a sequence of random local
// states and messages into one variable gives, each time, what the
// allocating reference decoder gives (same JSON, nil and empty slices
// alike, same re-encoding); a copy of a decoded value decoded into
// elsewhere does not disturb the original; a token cloned into the
// scratch (cloneIn) is independent of the token it was cloned from; and
// once the scratch has grown, decoding allocates nothing.
func TestDecodersReuseScratchSafely(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var procs, msgs [][]byte
	var enc model.Encoder
	for range 300 {
		p := randProc(r, 4)
		enc.Reset()
		encodeProc(&enc, &p)
		procs = append(procs, bytes.Clone(enc.Bytes()))
		m := Msg{Kind: Kind(r.IntN(6)), From: r.IntN(4), To: r.IntN(4), SN: r.IntN(4), X: r.IntN(3), S: r.IntN(4)}
		if m.Kind == TOKEN {
			tok := randToken(r, 4)
			m.T = &tok
		}
		enc.Reset()
		encodeMsg(&enc, &m)
		msgs = append(msgs, bytes.Clone(enc.Bytes()))
	}
	var p Proc
	var m Msg
	for k, b := range procs {
		var d model.Decoder
		d.Reset(b)
		decodeProc(&d, &p)
		var ref Proc
		d.Reset(b)
		refDecodeProc(&d, &ref)
		if got, want := mustJSON(t, &p), mustJSON(t, &ref); got != want {
			t.Fatalf("proc %d: decoded into a reused variable %s, want %s", k, got, want)
		}
		enc.Reset()
		encodeProc(&enc, &p)
		if !bytes.Equal(enc.Bytes(), b) {
			t.Fatalf("proc %d: re-encoding differs", k)
		}
		// a copy decoded into gets its own scratch: p is untouched
		want := mustJSON(t, &p)
		cp := p
		d.Reset(procs[(k+1)%len(procs)])
		decodeProc(&d, &cp)
		if got := mustJSON(t, &p); got != want {
			t.Fatalf("proc %d: decoding into a copy changed the original: %s, want %s", k, got, want)
		}
		// cloneIn: the clone does not share storage with its source
		if p.Tok != nil && len(p.Tok.LN) > 0 && len(p.Tok.Queue) > 0 && len(p.Tok.Queue[0].Members) > 0 {
			p.Old = p.Tok.cloneIn(p.scratch())
			before := mustJSON(t, &p.Old)
			p.Tok.LN[0] += 7
			p.Tok.Queue[0].Members[0].SN += 7
			p.Tok.Queue[0].Members = append(p.Tok.Queue[0].Members, Member{9, 9})
			if got := mustJSON(t, &p.Old); got != before {
				t.Fatalf("proc %d: cloneIn shares storage: %s, want %s", k, got, before)
			}
		}
	}
	for k, b := range msgs {
		var d model.Decoder
		d.Reset(b)
		decodeMsg(&d, &m)
		var ref Msg
		d.Reset(b)
		ref = Msg{Kind: Kind(d.Uint()), To: int(d.Uint()), From: -1}
		if ref.Kind == TOKEN {
			ref.T = &Token{}
			refDecodeToken(&d, ref.T)
		} else {
			d.Reset(b)
			decodeMsg(&d, &ref) // no token: nothing to reuse
		}
		if got, want := mustJSON(t, &m), mustJSON(t, &ref); got != want {
			t.Fatalf("msg %d: decoded into a reused variable %s, want %s", k, got, want)
		}
		enc.Reset()
		encodeMsg(&enc, &m)
		if !bytes.Equal(enc.Bytes(), b) {
			t.Fatalf("msg %d: re-encoding differs", k)
		}
	}
	var d model.Decoder
	allocs := testing.AllocsPerRun(10, func() {
		for _, b := range procs {
			d.Reset(b)
			decodeProc(&d, &p)
		}
		for _, b := range msgs {
			d.Reset(b)
			decodeMsg(&d, &m)
		}
	})
	if allocs != 0 {
		t.Errorf("decoding into reused variables: %.1f allocations per round of %d states and %d messages, want 0", allocs, len(procs), len(msgs))
	}
}
