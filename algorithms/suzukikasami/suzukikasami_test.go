package suzukikasami

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

// The scripted scenarios of semantics.md §2 and of the mutants are data
// files under testdata/scenarios, run by TestScenarios.

// semantics.md §1, state identity: a process without the token encodes no
// token data. (That equal states reached by different paths have equal
// bytes is in testdata/scenarios/request.txt.)
func TestCanonicalEncoding(t *testing.T) {
	var e1, e2 model.Encoder
	encodeProc(&e1, &Proc{RN: []int{0, 1}, Has: false, LN: []int{3, 4}, Q: []int{1}})
	encodeProc(&e2, &Proc{RN: []int{0, 1}})
	if !bytes.Equal(e1.Bytes(), e2.Bytes()) {
		t.Error("stale token data of a non-holder is encoded")
	}
}

func TestFormatMsg(t *testing.T) {
	for _, c := range []struct {
		m    Msg
		want string
	}{
		{Msg{Kind: REQ, From: 1, To: 0, SN: 1}, "REQ(P1->P0, sn=1)"},
		{Msg{Kind: TOKEN, To: 2, LN: []int{1, 0, 0}}, "TOKEN(->P2, LN=[1,0,0], Q=[])"},
		{Msg{Kind: TOKEN, To: 2, LN: []int{1, 0, 0}, Q: []int{0, 1}}, "TOKEN(->P2, LN=[1,0,0], Q=[0,1])"},
	} {
		if got := FormatMsg(&c.m); got != c.want {
			t.Errorf("FormatMsg(%+v) = %q, want %q", c.m, got, c.want)
		}
		// round trip through the encoding
		var e model.Encoder
		encodeMsg(&e, &c.m)
		var m Msg
		var d model.Decoder
		d.Reset(e.Bytes())
		decodeMsg(&d, &m)
		if got := FormatMsg(&m); got != c.want || !d.Done() {
			t.Errorf("decoded %q, want %q", got, c.want)
		}
	}
}

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		variant string
		n, r    int
		want    string
	}{
		{"suzuki-kasami/bogus", 3, 1, `unknown Suzuki-Kasami variant "suzuki-kasami/bogus"; valid: suzuki-kasami, `},
		{Default, 1, 1, "suzuki-kasami needs n >= 2 processes, got n=1"},
		{SendInCS, 2, 0, "suzuki-kasami/send-in-cs needs r >= 1 requests per process, got r=0"},
	} {
		_, err := New(c.variant, c.n, c.r)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("New(%q, %d, %d) = %v, want %q", c.variant, c.n, c.r, err, c.want)
		}
	}
	for _, v := range Variants() {
		if p, err := New(v, 2, 1); err != nil || p.Name != v {
			t.Errorf("New(%q) = %v, %v", v, p, err)
		}
	}
}
