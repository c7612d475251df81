package eventlog_test

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// simulateLog writes a full log of a random run of Suzuki-Kasami with n
// processes, of at least events events, stepping the model's local
// handlers in a random order (messages delivered in any order) and
// keeping vector clocks as an implementation would.
func simulateLog(tb testing.TB, n, events int, seed uint64) []byte {
	a, v, _ := algorithms.Lookup("suzuki-kasami")
	params := map[string]int{"n": n, "r": 100000}
	sys, _, err := a.BuildSim(v.Name, params)
	if err != nil {
		tb.Fatal(err)
	}
	lw := sys.(protosys.LocalSystem).NewLocalWorker()
	rng := rand.New(rand.NewPCG(seed, 1))
	type inflight struct {
		msg  []byte
		mid  string
		from int
		vc   []int
	}
	locals := make([]protosys.LocalState, n)
	vcs := make([][]int, n)
	sent := make([]int, n)
	for p := range n {
		locals[p] = lw.InitialLocal(p)
		vcs[p] = make([]int, n)
	}
	var net []inflight
	var out []eventlog.Event
	emit := func(p int, e eventlog.Event) {
		vcs[p][p]++
		e.P, e.Seq, e.VC, e.TNs = p, vcs[p][p], append([]int(nil), vcs[p]...), int64(len(out))
		out = append(out, e)
	}
	for len(out) < events {
		p := rng.IntN(n)
		var ev protosys.LocalEvent
		var rcv *inflight
		switch {
		case locals[p].Phase == model.InCS:
			ev = protosys.LocalEvent{Kind: model.Exit}
		default:
			var mine []int
			for k := range net {
				if lw.To(net[k].msg) == p {
					mine = append(mine, k)
				}
			}
			if locals[p].Phase == model.Idle && (len(mine) == 0 || rng.IntN(4) == 0) {
				ev = protosys.LocalEvent{Kind: model.Request}
			} else if len(mine) > 0 {
				k := mine[rng.IntN(len(mine))]
				m := net[k]
				rcv = &m
				net = append(net[:k], net[k+1:]...)
				ev = protosys.LocalEvent{Kind: model.Deliver, Msg: m.msg}
			} else {
				continue
			}
		}
		res, err := lw.Step(p, locals[p], ev)
		if err != nil {
			tb.Fatal(err)
		}
		locals[p] = res.Next
		switch ev.Kind {
		case model.Request:
			emit(p, eventlog.Event{Kind: eventlog.KindRequest})
		case model.Exit:
			emit(p, eventlog.Event{Kind: eventlog.KindExit})
		case model.Deliver:
			for q := range n {
				vcs[p][q] = max(vcs[p][q], rcv.vc[q])
			}
			from := rcv.from
			emit(p, eventlog.Event{Kind: eventlog.KindReceive, Msg: lw.FormatMsg(rcv.msg), MID: rcv.mid, From: &from})
		}
		for _, m := range res.Sent {
			sent[p]++
			to := lw.To(m)
			mid := fmt.Sprintf("%d.%d", p, sent[p])
			emit(p, eventlog.Event{Kind: eventlog.KindSend, Msg: lw.FormatMsg(m), MID: mid, To: &to})
			net = append(net, inflight{m, mid, p, out[len(out)-1].VC})
		}
		if res.Entered {
			emit(p, eventlog.Event{Kind: eventlog.KindEnter})
		}
	}
	var buf bytes.Buffer
	h := eventlog.Header{Algorithm: "suzuki-kasami", Params: params}
	if err := eventlog.Write(&buf, h, out); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func TestSimulatedLogValidates(t *testing.T) {
	data := simulateLog(t, 4, 5000, 1)
	l, err := eventlog.Read(bytes.NewReader(data), "sim.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	a, v, _ := algorithms.Lookup("suzuki-kasami")
	sys, _, _ := a.BuildSim(v.Name, l.Header.Params)
	if res := eventlog.Validate(sys, l, eventlog.Options{}); !res.OK {
		t.Fatalf("%v: %s", res.Failed, res.Reason)
	}
}

// BenchmarkValidateStream reads and validates a full log of Suzuki-Kasami
// with 8 processes as 'tokenmc validate' does (streaming through a
// Checker), and reports events per second. The log is generated in
// memory first by a random run of the model's handlers (simulateLog);
// 'tokenmc validate' of a file measures memory (docs/eventlog.md).
//
//	go test ./traces/eventlog -run '^$' -bench ValidateStream -benchtime 1x -events 1000000
func BenchmarkValidateStream(b *testing.B) {
	data := simulateLog(b, 8, *benchEvents, 7)
	b.ResetTimer()
	var events int
	for range b.N {
		events = checkStream(b, data, eventlog.Options{}, nil)
	}
	b.StopTimer()
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(float64(len(data))/float64(events), "bytes/event")
}

var benchEvents = flag.Int("events", 100000, "events in the log of BenchmarkValidateStream")

// BenchmarkValidateRelaxed compares, on one full log of Suzuki-Kasami
// with 8 processes (simulateLog, or -log FILE, e.g. written by 'tokenmc
// run'), the check of atomically logged steps (Options.Atomic: today's
// check) with the default check, in which effects may be logged late;
// and the default check on a log of the same size whose effects are
// logged late (concurrentLog). It reports events per second and the
// live heap the check holds beyond the logs' bytes (sampled after a
// garbage collection every 100,000 events, untimed; in MB).
//
//	go test ./traces/eventlog -run '^$' -bench ValidateRelaxed -benchtime 1x -events 1000000
func BenchmarkValidateRelaxed(b *testing.B) {
	var data []byte
	if *benchLog != "" {
		var err error
		if data, err = os.ReadFile(*benchLog); err != nil {
			b.Fatal(err)
		}
	} else {
		data = simulateLog(b, 8, *benchEvents, 7)
	}
	late := concurrentLog(b, "suzuki-kasami", 8, *benchEvents, *benchEvents, rand.New(rand.NewPCG(7, 7)), true)
	for _, c := range []struct {
		name string
		data []byte
		opts eventlog.Options
	}{
		{"atomic-log/atomic-check", data, eventlog.Options{Atomic: true}},
		{"atomic-log/relaxed-check", data, eventlog.Options{}},
		{"late-effects-log/relaxed-check", late, eventlog.Options{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var events int
			var peak uint64
			for range b.N {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				base := ms.HeapAlloc
				events = checkStream(b, c.data, c.opts, func(events int) {
					if events%100000 == 0 { // the live heap, untimed
						b.StopTimer()
						runtime.GC()
						runtime.ReadMemStats(&ms)
						if ms.HeapAlloc > base {
							peak = max(peak, ms.HeapAlloc-base)
						}
						b.StartTimer()
					}
				})
			}
			b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(events), "events")
			b.ReportMetric(float64(peak)/1e6, "heap-MB")
		})
	}
}

var benchLog = flag.String("log", "", "BenchmarkValidateRelaxed: validate this full log instead of a generated one")

// checkStream reads data and checks it with a Checker as 'tokenmc
// validate' does, calling each (if set) after every event; it returns the
// number of events.
func checkStream(b *testing.B, data []byte, opts eventlog.Options, each func(events int)) int {
	rd := eventlog.NewReader(bytes.NewReader(data), "bench.jsonl")
	h, err := rd.Header()
	if err != nil {
		b.Fatal(err)
	}
	a, v, _ := algorithms.Lookup(h.Algorithm)
	sys, _, _ := a.BuildSim(v.Name, h.Params)
	c, err := eventlog.NewChecker(sys, h, opts)
	if err != nil {
		b.Fatal(err)
	}
	c.VCGiven = true
	events := 0
	for {
		e, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		events++
		c.Add(e)
		if each != nil {
			each(events)
		}
	}
	if res := c.Finish(); !res.OK {
		b.Fatalf("%v: %s", res.Failed, res.Reason)
	}
	return events
}
