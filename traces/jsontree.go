package traces

import (
	"encoding/json"
	"fmt"
	"strings"
)

// jsonNode is one value of a parsed JSON document, with its place in the
// input. The package parses JSON itself (instead of into map[string]any) for
// three things encoding/json does not give: the order of an object's keys,
// the byte offset of every value and key (for line:column in errors), and
// the raw text of scalars (so numbers are rewritten exactly as read).
type jsonNode struct {
	kind  byte   // '{', '[' or 0 for a scalar
	raw   string // a scalar's text as written (strings keep their quotes)
	start int    // offset of the value's first byte
	end   int    // offset just past the value's last byte
	keys  []jsonKey
	kids  []*jsonNode
}

// jsonKey is an object member's name, decoded and as written, and the
// offset of its opening quote.
type jsonKey struct {
	name string
	raw  string
	off  int
}

// parseJSON parses one JSON document. It is used only on text that
// encoding/json has already accepted, so its errors are a safety net.
func parseJSON(data []byte) (*jsonNode, error) {
	p := jsonParser{data: data}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos != len(p.data) {
		return nil, fmt.Errorf("unexpected data at offset %d", p.pos)
	}
	return n, nil
}

type jsonParser struct {
	data []byte
	pos  int
}

func (p *jsonParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\r', '\n':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) expect(c byte) error {
	p.space()
	if p.pos >= len(p.data) || p.data[p.pos] != c {
		return fmt.Errorf("expected %q at offset %d", c, p.pos)
	}
	p.pos++
	return nil
}

func (p *jsonParser) value() (*jsonNode, error) {
	p.space()
	if p.pos >= len(p.data) {
		return nil, fmt.Errorf("unexpected end of input")
	}
	n := &jsonNode{start: p.pos}
	switch c := p.data[p.pos]; c {
	case '{', '[':
		n.kind = c
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		p.pos++
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == closer {
			p.pos++
			break
		}
		for {
			if c == '{' {
				p.space()
				off := p.pos
				raw, err := p.str()
				if err != nil {
					return nil, err
				}
				var name string
				if err := json.Unmarshal([]byte(raw), &name); err != nil {
					return nil, err
				}
				n.keys = append(n.keys, jsonKey{name, raw, off})
				if err := p.expect(':'); err != nil {
					return nil, err
				}
			}
			kid, err := p.value()
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, kid)
			p.space()
			if p.pos < len(p.data) && p.data[p.pos] == ',' {
				p.pos++
				continue
			}
			if err := p.expect(closer); err != nil {
				return nil, err
			}
			break
		}
	case '"':
		raw, err := p.str()
		if err != nil {
			return nil, err
		}
		n.raw = raw
	default:
		for p.pos < len(p.data) && !strings.ContainsRune(" \t\r\n,:]}", rune(p.data[p.pos])) {
			p.pos++
		}
		n.raw = string(p.data[n.start:p.pos])
		if n.raw == "" {
			return nil, fmt.Errorf("unexpected %q at offset %d", p.data[p.pos], p.pos)
		}
	}
	n.end = p.pos
	return n, nil
}

// str reads a quoted string and returns it with its quotes, undecoded.
func (p *jsonParser) str() (string, error) {
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return "", fmt.Errorf("expected a string at offset %d", p.pos)
	}
	start := p.pos
	for p.pos++; p.pos < len(p.data); p.pos++ {
		switch p.data[p.pos] {
		case '\\':
			p.pos++
		case '"':
			p.pos++
			return string(p.data[start:p.pos]), nil
		}
	}
	return "", fmt.Errorf("unterminated string at offset %d", start)
}

// member returns the value of an object's member called name, or nil.
func (n *jsonNode) member(name string) *jsonNode {
	for i, k := range n.keys {
		if k.name == name {
			return n.kids[i]
		}
	}
	return nil
}

// inline renders n on one line, with sep between elements and ": " or ":"
// (sep without its space) after keys: sep ", " gives the layout of trace
// files, sep "," the compact form of text renderings.
func (n *jsonNode) inline(sep string) string {
	var b strings.Builder
	n.appendInline(&b, sep)
	return b.String()
}

func (n *jsonNode) appendInline(b *strings.Builder, sep string) {
	if n.kind == 0 {
		b.WriteString(n.raw)
		return
	}
	colon := ":"
	if strings.HasSuffix(sep, " ") {
		colon = ": "
	}
	b.WriteByte(n.kind)
	for i, kid := range n.kids {
		if i > 0 {
			b.WriteString(sep)
		}
		if n.kind == '{' {
			b.WriteString(n.keys[i].raw)
			b.WriteString(colon)
		}
		kid.appendInline(b, sep)
	}
	if n.kind == '{' {
		b.WriteByte('}')
	} else {
		b.WriteByte(']')
	}
}
