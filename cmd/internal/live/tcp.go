package live

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// The TCP wire format: each packet is a frame, a 4-byte big-endian length
// followed by that many bytes of JSON (a packet). A frame longer than
// maxFrame, or one that does not decode to a valid packet for its
// receiver, is refused.
const (
	maxFrame     = 1 << 20
	writeTimeout = 2 * time.Second
)

// ErrPeerLost is wrapped by Run's error when a TCP connection that carried
// messages between two processes breaks (reset, closed, a write that
// fails or hangs): the run stops at once and returns the log so far.
var ErrPeerLost = errors.New("tcp transport: a peer connection was lost")

// Test hooks: called with each listener address and each connection made.
var (
	listenHook func(addrs []string)
	dialHook   func(from, to int, c net.Conn)
)

// writeFrame writes one frame.
func writeFrame(w io.Writer, payload []byte) error {
	b := make([]byte, 4, 4+len(payload))
	binary.BigEndian.PutUint32(b, uint32(len(payload)))
	_, err := w.Write(append(b, payload...))
	return err
}

// errFrame is a framing violation: the connection cannot be read further.
type errFrame struct{ msg string }

func (e *errFrame) Error() string { return e.msg }

// readFrame reads one frame, refusing lengths over maxFrame before
// allocating.
func readFrame(r io.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n == 0 || n > maxFrame {
		return nil, &errFrame{fmt.Sprintf("a frame of %d bytes (frames are 1..%d bytes)", n, maxFrame)}
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, &errFrame{fmt.Sprintf("a frame cut after %d bytes: %v", len(b), err)}
		}
		return nil, err
	}
	return b, nil
}

// decodePacket decodes and validates a packet for receiver i: known
// fields only, a sender in 0..n-1, a vector clock of n non-negative
// entries, a message id, and message bytes that decode to a message
// addressed to i. It returns what is wrong, or "".
func decodePacket(b []byte, i, n int, lw protosys.LocalWorker) (pk packet, why string) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pk); err != nil {
		return pk, fmt.Sprintf("not a JSON packet: %v", err)
	}
	if dec.More() {
		return pk, "more than one JSON value in the frame"
	}
	if pk.From < 0 || pk.From >= n {
		return pk, fmt.Sprintf("sender %d is not a process (0..%d)", pk.From, n-1)
	}
	if len(pk.VC) != n {
		return pk, fmt.Sprintf("a vector clock of %d entries; want %d", len(pk.VC), n)
	}
	for _, v := range pk.VC {
		if v < 0 {
			return pk, fmt.Sprintf("a negative vector clock entry %d", v)
		}
	}
	if pk.Lamport < 0 {
		return pk, fmt.Sprintf("a negative Lamport time %d", pk.Lamport)
	}
	if pk.MID == "" || len(pk.MID) > 64 {
		return pk, "a message id that is empty or longer than 64 bytes"
	}
	if len(pk.Msg) == 0 {
		return pk, "no message"
	}
	to, why := decodeMsg(lw, pk.Msg)
	if why != "" {
		return pk, why
	}
	if to != i {
		return pk, fmt.Sprintf("a message for P%d delivered to P%d", to, i)
	}
	return pk, ""
}

// decodeMsg runs the model's decoder on msg, turning a panic on malformed
// bytes into an explanation.
func decodeMsg(lw protosys.LocalWorker, msg []byte) (to int, why string) {
	defer func() {
		if p := recover(); p != nil {
			why = fmt.Sprintf("message bytes the model cannot decode (%v)", p)
		}
	}()
	to = lw.To(msg)
	lw.FormatMsg(msg)
	lw.CarriesToken(msg)
	return to, ""
}

// startTCP gives every process a listener on 127.0.0.1 and makes rn.send
// write framed packets over one connection per ordered pair.
func (rn *run) startTCP() (func(), error) {
	lns := make([]net.Listener, rn.n)
	addrs := make([]string, rn.n)
	for i := range rn.n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			for _, l := range lns[:i] {
				l.Close()
			}
			return nil, fmt.Errorf("tcp transport: %v", err)
		}
		lns[i], addrs[i] = ln, ln.Addr().String()
	}
	if listenHook != nil {
		listenHook(addrs)
	}
	var connMu sync.Mutex
	var all []net.Conn
	track := func(c net.Conn) bool {
		connMu.Lock()
		defer connMu.Unlock()
		if rn.stopping() {
			c.Close()
			return false
		}
		all = append(all, c)
		return true
	}
	for i, ln := range lns {
		rn.wg.Add(1)
		go func() {
			defer rn.wg.Done()
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				if !track(c) {
					return
				}
				rn.wg.Add(1)
				go func() {
					defer rn.wg.Done()
					rn.receive(i, c)
				}()
			}
		}()
	}
	// One connection per ordered pair, each with its own lock, so that a
	// slow dial or write between two processes delays no other pair.
	type pair struct{ from, to int }
	type pairConn struct {
		mu sync.Mutex
		c  net.Conn
	}
	conns := map[pair]*pairConn{}
	var mapMu sync.Mutex
	rn.send = func(to int, pk packet) {
		if rn.stopping() {
			return
		}
		k := pair{pk.From, to}
		mapMu.Lock()
		pc := conns[k]
		if pc == nil {
			pc = &pairConn{}
			conns[k] = pc
		}
		mapMu.Unlock()
		pc.mu.Lock()
		defer pc.mu.Unlock()
		if rn.stopping() {
			return
		}
		if pc.c == nil {
			c, err := net.DialTimeout("tcp", addrs[to], writeTimeout)
			if err != nil {
				if !rn.stopping() {
					rn.fail(fmt.Errorf("%w: P%d cannot connect to P%d: %v", ErrPeerLost, pk.From, to, err))
				}
				return
			}
			if !track(c) {
				return
			}
			pc.c = c
			if dialHook != nil {
				dialHook(pk.From, to, c)
			}
		}
		b, err := json.Marshal(pk)
		if err != nil {
			rn.fail(fmt.Errorf("tcp transport: encoding a packet: %v", err))
			return
		}
		pc.c.SetWriteDeadline(time.Now().Add(writeTimeout))
		if err := writeFrame(pc.c, b); err != nil && !rn.stopping() {
			rn.fail(fmt.Errorf("%w: P%d's connection to P%d: %v", ErrPeerLost, pk.From, to, err))
		}
	}
	return func() {
		for _, ln := range lns {
			ln.Close()
		}
		connMu.Lock()
		for _, c := range all {
			c.Close()
		}
		connMu.Unlock()
	}, nil
}

// receive reads the frames of one accepted connection to process i. The
// first valid packet fixes the connection's sender. A packet that is not
// valid is reported and dropped; on a connection that has not carried a
// valid packet (not a peer) or one that breaks the framing, the
// connection is closed too. A peer connection that breaks ends the run.
func (rn *run) receive(i int, c net.Conn) {
	lw := rn.ls.NewLocalWorker()
	from := -1
	r := bufio.NewReader(c)
	peer := func() string {
		if from < 0 {
			return fmt.Sprintf("an unknown connection from %s", c.RemoteAddr())
		}
		return fmt.Sprintf("P%d's connection from P%d", i, from)
	}
	for {
		b, err := readFrame(r)
		if err != nil {
			if rn.stopping() {
				return
			}
			var fe *errFrame
			switch {
			case from >= 0:
				rn.fail(fmt.Errorf("%w: %s: %v", ErrPeerLost, peer(), err))
			case errors.As(err, &fe):
				rn.warn("P%d closed %s: %v", i, peer(), err)
			}
			c.Close()
			return
		}
		pk, why := decodePacket(b, i, rn.n, lw)
		if why == "" && from >= 0 && pk.From != from {
			why = fmt.Sprintf("sender %d on a connection that carried P%d's messages", pk.From, from)
		}
		if why != "" {
			rn.warn("P%d dropped a packet on %s: %s", i, peer(), why)
			if from < 0 {
				c.Close()
				return
			}
			continue
		}
		from = pk.From
		select {
		case rn.inbox[i] <- pk:
		case <-rn.stop:
			return
		}
	}
}
