package drsgme

import "github.com/tokenmc/tokenmc/model"

// scratch is the storage that the decoders (decodeProc, decodeMsg) carve a
// decoded value's slices and token from, so that decoding into the same
// variable again allocates nothing once the storage has grown (the
// explorer's inner loop decodes a process or a message per transition,
// and the timer guard and the single-token property decode every message
// in transit per state).
//
// A Proc or Msg owns its scratch only at the address where it was decoded
// (the at field): a value that was copied elsewhere gets new storage at its
// next decode, so two variables never write into one scratch. Every slice
// handed out is capped at its length, so an append by a handler moves it
// out of the scratch rather than over its neighbour. As with any decoder
// that reuses its destination (protocol.Protocol.DecodeProc), the slices
// of a decoded value are valid until the next decode into the same
// variable: a copy that must outlive it is made with Token.clone.
type scratch struct {
	ints []int
	mems []Member
	ents []Entry
	tok  Token // the decoded Proc.Tok or Msg.T
	gen  Token // a Proc's regenerated token (Proc.regenerated)
}

// scratchFor returns the scratch of the value at at, emptied: own itself
// if it belongs to at, otherwise a new one.
func scratchFor[T any](own *scratch, owner, at *T) *scratch {
	if own == nil || owner != at {
		// never nil slices: a decoded empty queue or member list is
		// non-nil ([] in JSON), as it was when the decoders allocated
		return &scratch{ints: make([]int, 0, 16), mems: make([]Member, 0, 16), ents: make([]Entry, 0, 8)}
	}
	own.ints, own.mems, own.ents = own.ints[:0], own.mems[:0], own.ents[:0]
	return own
}

// intList reads a length-prefixed list of integers as Decoder.Ints does
// (nil when empty).
func (s *scratch) intList(d *model.Decoder) []int {
	n := int(d.Uint())
	if n == 0 {
		return nil
	}
	a := len(s.ints)
	for range n {
		s.ints = append(s.ints, d.Int())
	}
	return s.ints[a:len(s.ints):len(s.ints)]
}

// members returns n members read from d (P as Uint, SN as Int), non-nil.
func (s *scratch) members(d *model.Decoder, n int) []Member {
	a := len(s.mems)
	for range n {
		s.mems = append(s.mems, Member{int(d.Uint()), d.Int()})
	}
	return s.mems[a:len(s.mems):len(s.mems)]
}

// entries returns n zero entries, non-nil.
func (s *scratch) entries(n int) []Entry {
	a := len(s.ents)
	for range n {
		s.ents = append(s.ents, Entry{})
	}
	return s.ents[a:len(s.ents):len(s.ents)]
}

// scratch returns the scratch that p owns (nil if p was copied since its
// last decode, or never decoded).
func (p *Proc) scratch() *scratch {
	if p.at == p {
		return p.buf
	}
	return nil
}

// cloneIn is clone with the copy's slices carved from s (unused capacity
// beyond what the last decode handed out); with s nil it is clone. The
// copy is valid until the next decode into s's owner.
func (t *Token) cloneIn(s *scratch) Token {
	if s == nil {
		return t.clone()
	}
	c := *t
	a := len(s.ints)
	s.ints = append(s.ints, t.LN...)
	c.LN = s.ints[a:len(s.ints):len(s.ints)]
	c.Queue = s.entries(len(t.Queue))
	for k, e := range t.Queue {
		b := len(s.mems)
		s.mems = append(s.mems, e.Members...)
		c.Queue[k] = Entry{G: e.G, Members: s.mems[b:len(s.mems):len(s.mems)]}
	}
	return c
}

// regenerated returns a copy of p.Old for Event 8's regeneration, in p's
// scratch when p owns one and the copy there is not already p.Tok (then,
// and for a value without scratch, on the heap).
func (p *Proc) regenerated() *Token {
	if s := p.scratch(); s != nil && p.Tok != &s.gen {
		s.gen = p.Old.cloneIn(s)
		return &s.gen
	}
	t := p.Old.clone()
	return &t
}
