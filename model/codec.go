package model

// Encoder appends a canonical binary encoding of values to a byte slice.
// Integers are zig-zag varints, so equal values always encode to equal bytes
// and the encoding of a sequence of values is unambiguous when it is decoded
// with the same sequence of Decoder calls.
type Encoder struct {
	buf []byte
}

// Reset empties the encoder, keeping its buffer for reuse.
func (e *Encoder) Reset() { e.buf = e.buf[:0] }

// Bytes returns the bytes encoded so far. They alias the encoder's buffer and
// are valid until the next call that modifies the encoder.
func (e *Encoder) Bytes() []byte { return e.buf }

// Len returns the number of bytes encoded so far.
func (e *Encoder) Len() int { return len(e.buf) }

// Uint appends a non-negative integer as an unsigned varint.
func (e *Encoder) Uint(v uint64) {
	for v >= 0x80 {
		e.buf = append(e.buf, byte(v)|0x80)
		v >>= 7
	}
	e.buf = append(e.buf, byte(v))
}

// Int appends an integer as a zig-zag varint.
func (e *Encoder) Int(v int) {
	x := int64(v)
	e.Uint(uint64(x<<1) ^ uint64(x>>63))
}

// Bool appends a boolean as one byte.
func (e *Encoder) Bool(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// Ints appends the length of v followed by its elements.
func (e *Encoder) Ints(v []int) {
	e.Uint(uint64(len(v)))
	for _, x := range v {
		e.Int(x)
	}
}

// Raw appends bytes verbatim.
func (e *Encoder) Raw(b []byte) { e.buf = append(e.buf, b...) }

// Decoder reads values written by an Encoder, in the same order. Decoding
// bytes that were not produced by the matching Encoder calls is a programming
// error and panics: decoders only ever read states that the model produced.
// The zero Decoder reads nothing; Reset gives it the bytes to read:
//
//	var d model.Decoder
//	d.Reset(state)
type Decoder struct {
	buf []byte
	pos int
}

// Reset makes the decoder read b from its start.
func (d *Decoder) Reset(b []byte) { d.buf, d.pos = b, 0 }

// Done reports whether every byte has been read: for a model's round-trip
// tests of its codec, where a decoder that reads fewer bytes than the
// encoder wrote would otherwise go unnoticed.
func (d *Decoder) Done() bool { return d.pos == len(d.buf) }

// Uint reads an unsigned varint. It is small enough to be inlined into
// the decoding loops (most varints of a state are one byte); reading past
// the end panics with an index-out-of-range error.
func (d *Decoder) Uint() uint64 {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		b := d.buf[d.pos]
		d.pos++
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v
		}
	}
}

// Int reads a zig-zag varint.
func (d *Decoder) Int() int {
	u := d.Uint()
	return int(int64(u>>1) ^ -int64(u&1))
}

// Bool reads a boolean.
func (d *Decoder) Bool() bool {
	if d.pos >= len(d.buf) {
		panic("model: decoder ran past the end")
	}
	b := d.buf[d.pos]
	d.pos++
	return b != 0
}

// Ints reads a length-prefixed list of integers, appending them to dst[:0] so
// that a decoder loop reuses dst's storage. Pass nil to allocate.
func (d *Decoder) Ints(dst []int) []int {
	n := int(d.Uint())
	dst = dst[:0]
	for range n {
		dst = append(dst, d.Int())
	}
	return dst
}

// Raw reads n bytes verbatim; the result aliases the decoder's input.
func (d *Decoder) Raw(n int) []byte {
	if d.pos+n > len(d.buf) {
		panic("model: decoder ran past the end")
	}
	b := d.buf[d.pos : d.pos+n]
	d.pos += n
	return b
}
