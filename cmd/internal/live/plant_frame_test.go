package live

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

// A frame of exactly maxFrame bytes is read; one of maxFrame+1 bytes is
// refused from its header, before its payload is read, as is an empty
// one.
func TestFrameLimitToTheByte(t *testing.T) {
	frame := func(n int) *bytes.Reader {
		b := make([]byte, 4+n)
		binary.BigEndian.PutUint32(b, uint32(n))
		return bytes.NewReader(b)
	}
	got, err := readFrame(frame(maxFrame))
	if err != nil || len(got) != maxFrame {
		t.Fatalf("a frame of maxFrame bytes: %d bytes, %v; want it read", len(got), err)
	}
	for _, n := range []int{maxFrame + 1, 0} {
		r := frame(n)
		_, err := readFrame(r)
		var fe *errFrame
		if !errors.As(err, &fe) {
			t.Errorf("a frame of %d bytes: error %v, want a framing error", n, err)
		}
		if r.Len() != n {
			t.Errorf("a frame of %d bytes: %d bytes of payload were read before it was refused", n, n-r.Len())
		}
	}
}
