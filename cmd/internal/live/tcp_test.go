package live

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

func buildSK(t *testing.T, n, r int) (model.System, map[string]int) {
	t.Helper()
	a, v, err := algorithms.Lookup("suzuki-kasami")
	if err != nil {
		t.Skip(err)
	}
	params := map[string]int{"n": n, "r": r}
	sys, _, err := a.BuildSim(v.Name, params)
	if err != nil {
		t.Fatal(err)
	}
	return sys, params
}

// validMsg returns a message P0 sends to P1 when it requests.
func validMsg(t *testing.T, sys model.System) []byte {
	lw := sys.(protosys.LocalSystem).NewLocalWorker()
	res, err := lw.Step(1, lw.InitialLocal(1), protosys.LocalEvent{Kind: model.Request})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range res.Sent {
		if lw.To(m) == 0 {
			return m
		}
	}
	t.Fatal("P1's request sends nothing to P0")
	return nil
}

func TestDecodePacket(t *testing.T) {
	sys, _ := buildSK(t, 3, 1)
	lw := sys.(protosys.LocalSystem).NewLocalWorker()
	msg := validMsg(t, sys)
	enc := func(pk any) []byte {
		b, _ := json.Marshal(pk)
		return b
	}
	good := packet{From: 1, MID: "1.1", Msg: msg, VC: []int{0, 2, 0}, Lamport: 2}
	if _, why := decodePacket(enc(good), 0, 3, lw); why != "" {
		t.Fatalf("a valid packet is refused: %s", why)
	}
	bad := func(f func(p *packet)) []byte {
		p := good
		p.VC = append([]int(nil), good.VC...)
		f(&p)
		return enc(p)
	}
	for _, c := range []struct {
		name string
		in   []byte
		to   int
		want string
	}{
		{"issue 12 packet", []byte(`{"from":1,"mid":"x","msg":"AA==","vc":[]}`), 0, "a vector clock of 0 entries; want 3"},
		{"not JSON", []byte("\x00\x01garbage"), 0, "not a JSON packet"},
		{"unknown field", []byte(`{"from":1,"mid":"x","msg":"AA==","vc":[0,0,0],"evil":1}`), 0, "not a JSON packet"},
		{"two values", append(enc(good), []byte(" {}")...), 0, "more than one JSON value"},
		{"sender out of range", bad(func(p *packet) { p.From = 3 }), 0, "sender 3 is not a process (0..2)"},
		{"negative sender", bad(func(p *packet) { p.From = -1 }), 0, "sender -1 is not a process"},
		{"negative clock", bad(func(p *packet) { p.VC[2] = -4 }), 0, "a negative vector clock entry -4"},
		{"negative lamport", bad(func(p *packet) { p.Lamport = -1 }), 0, "a negative Lamport time -1"},
		{"no mid", bad(func(p *packet) { p.MID = "" }), 0, "a message id that is empty"},
		{"no msg", bad(func(p *packet) { p.Msg = nil }), 0, "no message"},
		{"garbage msg", bad(func(p *packet) { p.Msg = []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff} }), 0, ""},
		{"wrong receiver", enc(good), 2, "a message for P0 delivered to P2"},
	} {
		_, why := decodePacket(c.in, c.to, 3, lw)
		if why == "" || !strings.Contains(why, c.want) {
			t.Errorf("%s: why = %q; want it to contain %q", c.name, why, c.want)
		}
	}
}

func TestReadFrameRefusesHugeLengthsBeforeAllocating(t *testing.T) {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, uint32(0xffffffff))
	if _, err := readFrame(&b); err == nil || !strings.Contains(err.Error(), "a frame of 4294967295 bytes") {
		t.Fatalf("err = %v", err)
	}
	b.Reset()
	writeFrame(&b, []byte("hello"))
	b.Truncate(6)
	var fe *errFrame
	if _, err := readFrame(&b); !errors.As(err, &fe) || !strings.Contains(err.Error(), "cut") {
		t.Fatalf("cut frame: err = %v", err)
	}
}

// Hostile connections to a process's port (issue 12: any local process
// could crash a run) are reported and dropped; the run completes, and its
// log is a behaviour of the model.
func TestTCPHostilePackets(t *testing.T) {
	sys, params := buildSK(t, 3, 10)
	msg := validMsg(t, sys)
	frame := func(payload []byte) []byte {
		var b bytes.Buffer
		writeFrame(&b, payload)
		return b.Bytes()
	}
	hostile := [][]byte{
		[]byte(`{"from":1,"mid":"x","msg":"AA==","vc":[]}` + "\n"),          // unframed: a length of 2 GB
		frame([]byte(`{"from":1,"mid":"x","msg":"AA==","vc":[]}`)),          // framed, short clock
		frame([]byte(`{"from":1,"mid":"x","msg":"//////8=","vc":[0,0,0]}`)), // garbage message bytes
		frame(mustJSON(packet{From: 1, MID: "y", Msg: msg, VC: []int{0, 0, 0}})[:20]),
	}
	var warnings []string
	var mu sync.Mutex
	listenHook = func(addrs []string) {
		for _, h := range hostile {
			c, err := net.Dial("tcp", addrs[0])
			if err != nil {
				t.Error(err)
				return
			}
			c.Write(h)
			c.Close()
		}
	}
	defer func() { listenHook = nil }()
	var log bytes.Buffer
	_, _, st, err := Run(context.Background(), Config{Algorithm: "suzuki-kasami", Params: params, System: sys, Transport: TCP,
		Duration: 20 * time.Second, Seed: 3, Log: &log, Warn: func(m string) { mu.Lock(); warnings = append(warnings, m); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Completed {
		t.Fatalf("the run did not complete: %+v", st)
	}
	if st.Dropped != len(hostile) || len(warnings) != len(hostile) {
		t.Fatalf("dropped %d packets, %d warnings %q; want %d", st.Dropped, len(warnings), warnings, len(hostile))
	}
	validates(t, sys, &log, st)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// validates reads the streamed log back and validates it.
func validates(t *testing.T, sys model.System, log *bytes.Buffer, st Stats) {
	t.Helper()
	l, err := eventlog.Read(log, "run.jsonl")
	if err != nil {
		t.Fatalf("the streamed log does not read back: %v", err)
	}
	if len(l.Events) != st.Events {
		t.Fatalf("the log holds %d events; Stats.Events = %d", len(l.Events), st.Events)
	}
	if res := eventlog.Validate(sys, l); !res.OK || res.Events != len(l.Events) {
		t.Fatalf("the log is not a behaviour of the model: %s: %s", res.Failed, res.Reason)
	}
}

// Killing a connection between two processes mid-run (a reset) ends the
// run within 2 s with ErrPeerLost and a complete, valid log up to then.
func TestTCPPeerConnectionKilled(t *testing.T) {
	sys, params := buildSK(t, 3, 100000)
	conns := make(chan net.Conn, 16)
	dialHook = func(from, to int, c net.Conn) {
		select {
		case conns <- c:
		default:
		}
	}
	defer func() { dialHook = nil }()
	killedAt := make(chan time.Time, 1)
	go func() {
		c := <-conns
		time.Sleep(300 * time.Millisecond)
		c.(*net.TCPConn).SetLinger(0) // a reset, as a killed peer gives
		killedAt <- time.Now()
		c.Close()
	}()
	var log bytes.Buffer
	_, _, st, err := Run(context.Background(), Config{Algorithm: "suzuki-kasami", Params: params, System: sys, Transport: TCP,
		Duration: 30 * time.Second, Seed: 5, MaxCS: 200 * time.Microsecond, Log: &log})
	ended := time.Now()
	if !errors.Is(err, ErrPeerLost) {
		t.Fatalf("err = %v; want ErrPeerLost", err)
	}
	var killed time.Time
	select {
	case killed = <-killedAt:
	default:
		t.Fatal("the run ended before the kill")
	}
	if d := ended.Sub(killed); d > 2*time.Second {
		t.Fatalf("the run ended %v after the kill; want within 2s", d)
	}
	if st.Completed || st.Entries == 0 {
		t.Fatalf("stats %+v: want an incomplete run that made progress", st)
	}
	validates(t, sys, &log, st)
}

// Cancelling the context (Ctrl-C in the CLI) stops the run promptly with a
// valid log.
func TestInterruptStopsWithValidLog(t *testing.T) {
	sys, params := buildSK(t, 3, 100000)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	var log bytes.Buffer
	start := time.Now()
	_, events, st, err := Run(ctx, Config{Algorithm: "suzuki-kasami", Params: params, System: sys, Transport: Chan,
		Duration: 30 * time.Second, Seed: 2, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 2*time.Second || !st.Interrupted || st.Completed || events != nil {
		t.Fatalf("after %v: stats %+v, %d events returned; want interrupted, streamed", time.Since(start), st, len(events))
	}
	validates(t, sys, &log, st)
}
