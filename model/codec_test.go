package model_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// The varint boundaries: the largest value of each byte length, the
// smallest of the next, and the values whose first byte is exactly 0x80 (a
// continuation byte with no payload bits), which a fast path that tests
// "< 0x80" the wrong way round would read as a one-byte value.
var uintCases = []uint64{
	0, 1, 63, 64, 127, 128, 129, 255, 256, 300, 16383, 16384, 16385,
	1<<21 - 1, 1 << 21, 1<<28 - 1, 1 << 28, 1<<35 - 1, 1 << 35,
	1<<56 - 1, 1 << 56, 1<<63 - 1, 1 << 63, 1<<63 + 1, math.MaxUint64,
}

var intCases = []int{
	0, 1, -1, 63, -63, 64, -64, 65, -65, 127, -127, 128, -128, 255, -255, 256, -256,
	8191, -8192, 8192, -8193, 16383, -16384, 16384,
	1<<62 - 1, -(1 << 62), 1 << 62, math.MaxInt64, math.MinInt64, math.MinInt64 + 1,
}

// TestEncoderMatchesEncodingBinary: Uint writes the unsigned LEB128 varint
// and Int the zig-zag varint of encoding/binary, an independent
// implementation of the same wire format.
func TestEncoderMatchesEncodingBinary(t *testing.T) {
	var e model.Encoder
	for _, v := range uintCases {
		e.Reset()
		e.Uint(v)
		if want := binary.AppendUvarint(nil, v); !bytes.Equal(e.Bytes(), want) {
			t.Errorf("Uint(%d) = % x, want % x", v, e.Bytes(), want)
		}
	}
	for _, v := range intCases {
		e.Reset()
		e.Int(v)
		if want := binary.AppendVarint(nil, int64(v)); !bytes.Equal(e.Bytes(), want) {
			t.Errorf("Int(%d) = % x, want % x", v, e.Bytes(), want)
		}
	}
	// A few encodings written out by hand.
	for _, c := range []struct {
		v    uint64
		want []byte
	}{
		{0, []byte{0x00}}, {127, []byte{0x7f}}, {128, []byte{0x80, 0x01}},
		{255, []byte{0xff, 0x01}}, {256, []byte{0x80, 0x02}}, {16383, []byte{0xff, 0x7f}},
		{16384, []byte{0x80, 0x80, 0x01}},
		{1 << 63, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
	} {
		e.Reset()
		e.Uint(c.v)
		if !bytes.Equal(e.Bytes(), c.want) {
			t.Errorf("Uint(%d) = % x, want % x", c.v, e.Bytes(), c.want)
		}
	}
}

// TestDecoderReadsEncodingBinary decodes, one value at a time and then
// all in one buffer, bytes written by encoding/binary: every value comes
// back, and each read consumes exactly its own bytes.
func TestDecoderReadsEncodingBinary(t *testing.T) {
	var all []byte
	var ends []int
	for _, v := range uintCases {
		b := binary.AppendUvarint(nil, v)
		var d model.Decoder
		d.Reset(b)
		if got := d.Uint(); got != v || model.DecoderPos(&d) != len(b) {
			t.Errorf("Uint of % x = %d (pos %d of %d), want %d", b, got, model.DecoderPos(&d), len(b), v)
		}
		all = append(all, b...)
		ends = append(ends, len(all))
	}
	var d model.Decoder
	d.Reset(all)
	for k, v := range uintCases {
		if got := d.Uint(); got != v || model.DecoderPos(&d) != ends[k] {
			t.Fatalf("value %d in sequence: Uint = %d at pos %d, want %d at pos %d", k, got, model.DecoderPos(&d), v, ends[k])
		}
	}
	if model.DecoderPos(&d) != len(all) {
		t.Errorf("%d bytes left after the sequence", len(all)-model.DecoderPos(&d))
	}

	all, ends = nil, nil
	for _, v := range intCases {
		b := binary.AppendVarint(nil, int64(v))
		var d model.Decoder
		d.Reset(b)
		if got := d.Int(); got != v || model.DecoderPos(&d) != len(b) {
			t.Errorf("Int of % x = %d (pos %d of %d), want %d", b, got, model.DecoderPos(&d), len(b), v)
		}
		all = append(all, b...)
		ends = append(ends, len(all))
	}
	d.Reset(all)
	for k, v := range intCases {
		if got := d.Int(); got != v || model.DecoderPos(&d) != ends[k] {
			t.Fatalf("value %d in sequence: Int = %d at pos %d, want %d at pos %d", k, got, model.DecoderPos(&d), v, ends[k])
		}
	}
}

// TestCodecRoundTrip interleaves every kind of value, so that a read that
// consumes one byte too many or too few shows up in the next value.
func TestCodecRoundTrip(t *testing.T) {
	var e model.Encoder
	long := make([]int, 200) // a length prefix over 127
	for i := range long {
		long[i] = i*i - 10000
	}
	raw := bytes.Repeat([]byte{0x80}, 130)
	for i, v := range uintCases {
		e.Uint(v)
		e.Bool(i%2 == 0)
		e.Int(intCases[i%len(intCases)])
	}
	e.Ints(long)
	e.Ints(intCases)
	e.Ints(nil)
	e.Raw(raw)
	e.Uint(128)

	var d model.Decoder
	d.Reset(slices.Clone(e.Bytes()))
	for i, v := range uintCases {
		if got := d.Uint(); got != v {
			t.Fatalf("round %d: Uint = %d, want %d", i, got, v)
		}
		if got := d.Bool(); got != (i%2 == 0) {
			t.Fatalf("round %d: Bool = %v", i, got)
		}
		if got, want := d.Int(), intCases[i%len(intCases)]; got != want {
			t.Fatalf("round %d: Int = %d, want %d", i, got, want)
		}
	}
	if got := d.Ints(nil); !slices.Equal(got, long) {
		t.Fatalf("Ints of 200 values: got %d values %v...", len(got), got[:min(5, len(got))])
	}
	buf := make([]int, 0, 1)
	if got := d.Ints(buf); !slices.Equal(got, intCases) {
		t.Fatalf("Ints: got %v, want %v", got, intCases)
	}
	if got := d.Ints(nil); len(got) != 0 {
		t.Fatalf("empty Ints: got %v", got)
	}
	if got := d.Raw(len(raw)); !bytes.Equal(got, raw) {
		t.Fatalf("Raw: got % x", got)
	}
	if got := d.Uint(); got != 128 || model.DecoderPos(&d) != len(e.Bytes()) {
		t.Fatalf("last Uint = %d, done %v; want 128, done", got, model.DecoderPos(&d) == len(e.Bytes()))
	}
}

// TestDecoderPanicsPastTheEnd: a truncated varint is a programming error
// and panics with a message, never returns a value.
func TestDecoderPanicsPastTheEnd(t *testing.T) {
	for _, b := range [][]byte{{}, {0x80}, {0xff, 0xff}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Uint of % x did not panic", b)
				}
			}()
			var d model.Decoder
			d.Reset(b)
			d.Uint()
		}()
	}
}

// big is a process whose encoding is exactly 128 bytes (a segment whose
// length prefix is 0x80 0x01) and whose pad values (64) encode as the
// two bytes 0x80 0x01 too, and a message of 256 bytes (0x80 0x02).
type bigProc struct {
	Count int
	Pad   []int
}

type bigMsg struct {
	To   int
	Body []int
}

const (
	bigPadLen  = 63  // Ints: 1 length byte + 63*2 bytes, plus Count's byte = 128
	bigBodyLen = 126 // To: 1 byte, Ints: 1 + 126*2, two filler bytes: 256
)

func bigPad(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = 64 // zig-zag 128: 0x80 0x01
	}
	return p
}

func bigProtocol() *protocol.Protocol[bigProc, bigMsg] {
	return &protocol.Protocol[bigProc, bigMsg]{
		Name: "big",
		N:    2,
		R:    2,
		Init: func(int) bigProc { return bigProc{Pad: bigPad(bigPadLen)} },
		Codec: protocol.Codec[bigProc, bigMsg]{
			EncodeProc: func(e *model.Encoder, p *bigProc) {
				e.Int(p.Count)
				e.Ints(p.Pad)
			},
			DecodeProc: func(d *model.Decoder, p *bigProc) {
				p.Count = d.Int()
				p.Pad = d.Ints(p.Pad)
			},
			EncodeMsg: func(e *model.Encoder, m *bigMsg) {
				e.Int(m.To)
				e.Ints(m.Body)
				e.Uint(0) // two filler bytes: 256 bytes in all
				e.Uint(0)
			},
			DecodeMsg: func(d *model.Decoder, m *bigMsg) {
				m.To = d.Int()
				m.Body = d.Ints(m.Body)
				d.Uint()
				d.Uint()
			},
			To: func(m *bigMsg) int { return m.To },
		},
		Format: protocol.Format[bigProc, bigMsg]{
			FormatMsg: func(m *bigMsg) string { return fmt.Sprintf("BIG(->P%d, %d)", m.To, len(m.Body)) },
		},
		OnRequest: func(c *protocol.Ctx[bigProc, bigMsg], _ int) {
			c.Self.Count++
			c.Enter()
		},
		OnExit: func(c *protocol.Ctx[bigProc, bigMsg]) {
			c.Send(bigMsg{To: 1 - c.ID, Body: bigPad(bigBodyLen)})
		},
		OnDeliver: func(c *protocol.Ctx[bigProc, bigMsg], m *bigMsg) {
			c.Self.Count += 10
		},
	}
}

// TestStateSegmentsOver127Bytes explores a protocol whose process
// segments are 128 bytes and whose messages 256: every reachable state
// decodes to the values the handlers wrote, and the reachable states are
// the ones counted by hand.
func TestStateSegmentsOver127Bytes(t *testing.T) {
	p := bigProtocol()
	sys := p.System()
	w := sys.NewWorker()
	var e model.Encoder
	init := p.Init(0)
	p.EncodeProc(&e, &init)
	if e.Len() != 128 {
		t.Fatalf("a process encodes to %d bytes, want 128", e.Len())
	}
	e.Reset()
	m := bigMsg{To: 1, Body: bigPad(bigBodyLen)}
	p.EncodeMsg(&e, &m)
	if e.Len() != 256 {
		t.Fatalf("a message encodes to %d bytes, want 256", e.Len())
	}

	seen := map[string]bool{}
	var queue [][]byte
	w.Initial(func(s []byte) bool {
		queue = append(queue, slices.Clone(s))
		seen[string(s)] = true
		return true
	})
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		view := w.Snapshot(s).(*protocol.View[bigProc, bigMsg])
		inTransit := 0
		for i := range 2 {
			made, phase := view.Made(i), view.Phase(i)
			if made < 0 || made > 2 || phase > model.InCS {
				t.Fatalf("P%d decodes as made %d phase %v", i, made, phase)
			}
			l := view.Local(i)
			if l.Count%10 != made || !slices.Equal(l.Pad, bigPad(bigPadLen)) {
				t.Fatalf("P%d decodes as count %d (made %d), pad of %d", i, l.Count, made, len(l.Pad))
			}
			// Each exit of the other process sent one message to i; those
			// not yet delivered are in transit.
			delivered := l.Count / 10
			sent := view.Made(1-i) - btoi(view.Phase(1-i) == model.InCS)
			if delivered > sent {
				t.Fatalf("P%d received %d messages, %d were sent", i, delivered, sent)
			}
			inTransit += sent - delivered
		}
		copies := 0
		view.Messages(func(m *bigMsg, n int) {
			if !slices.Equal(m.Body, bigPad(bigBodyLen)) {
				t.Fatalf("a message decodes with a body of %d values", len(m.Body))
			}
			copies += n
		})
		if copies != inTransit || view.InTransit() != inTransit {
			t.Fatalf("%d messages in transit (InTransit %d), the counts say %d", copies, view.InTransit(), inTransit)
		}
		w.Successors(s, func(_ *model.Transition, next []byte) bool {
			if !seen[string(next)] {
				seen[string(next)] = true
				queue = append(queue, slices.Clone(next))
			}
			return true
		})
	}
	// Each process independently: (made, phase) in Idle0, InCS1, Idle1,
	// InCS2, Idle2, and has received up to (exits of the other) messages.
	// Per pair of local progress points (a, b) with exits ea, eb the
	// messages to P0 are eb - received0 for received0 in 0..eb.
	exits := []int{0, 0, 1, 1, 2}
	want := 0
	for a := range exits {
		for b := range exits {
			want += (exits[b] + 1) * (exits[a] + 1)
		}
	}
	if len(seen) != want {
		t.Errorf("%d reachable states, want %d", len(seen), want)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
