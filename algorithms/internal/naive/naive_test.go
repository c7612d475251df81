package naive

import (
	"os"
	"testing"
	"time"
)

// Suzuki-Kasami, N = 2, R = 1, enumerated by hand from semantics.md §2.
//
// Notation: Pi[phase made RN (has LN Q)], phases I/W/C, then the network.
// Only the token holder shows LN and Q. "d" is the BFS distance, "out" the
// number of enabled actions.
//
//	S0  P0[I 0 00 has 00 []] P1[I 0 00]            {}              d0 out2: Req0->S1, Req1->S2
//	S1  P0[C 1 00 has 00 []] P1[I 0 00]            {}              d1 out2: Exit0->S3, Req1->S4
//	S2  P0[I 0 00 has 00 []] P1[W 1 01]            {REQ(1,0,1)}    d1 out2: Req0->S4, Dlv REQ->S5
//	S3  P0[I 1 00 has 00 []] P1[I 0 00]            {}              d2 out1: Req1->S6
//	S4  P0[C 1 00 has 00 []] P1[W 1 01]            {REQ(1,0,1)}    d2 out2: Exit0->S6, Dlv REQ->S7
//	S5  P0[I 0 01]           P1[W 1 01]            {TOK(1,00,[])}  d2 out2: Req0->S8, Dlv TOK->S9
//	S6  P0[I 1 00 has 00 []] P1[W 1 01]            {REQ(1,0,1)}    d3 out1: Dlv REQ (idle holder sends)->S10
//	S7  P0[C 1 01 has 00 []] P1[W 1 01]            {}              d3 out1: Exit0 (Q=[1], pop)->S10
//	S8  P0[W 1 11]           P1[W 1 01]            {TOK(1,00,[]), REQ(0,1,1)}
//	                                                                d3 out2: Dlv TOK->S11, Dlv REQ->S12
//	S9  P0[I 0 01]           P1[C 1 01 has 00 []]  {}              d3 out2: Req0->S11, Exit1->S13
//	S10 P0[I 1 01]           P1[W 1 01]            {TOK(1,00,[])}  d4 out1: Dlv TOK->S14
//	S11 P0[W 1 11]           P1[C 1 01 has 00 []]  {REQ(0,1,1)}    d4 out2: Exit1->S15, Dlv REQ->S16
//	S12 P0[W 1 11]           P1[W 1 11]            {TOK(1,00,[])}  d4 out1: Dlv TOK->S16
//	S13 P0[I 0 01]           P1[I 1 01 has 01 []]  {}              d4 out1: Req0->S15
//	S14 P0[I 1 01]           P1[C 1 01 has 00 []]  {}              d5 out1: Exit1->S17
//	S15 P0[W 1 11]           P1[I 1 01 has 01 []]  {REQ(0,1,1)}    d5 out1: Dlv REQ (idle holder sends)->S18
//	S16 P0[W 1 11]           P1[C 1 11 has 00 []]  {}              d5 out1: Exit1 (Q=[0], pop)->S18
//	S17 P0[I 1 01]           P1[I 1 01 has 01 []]  {}              d6 out0 (normal termination)
//	S18 P0[W 1 11]           P1[I 1 11]            {TOK(0,01,[])}  d6 out1: Dlv TOK->S19
//	S19 P0[C 1 11 has 01 []] P1[I 1 11]            {}              d7 out1: Exit0->S20
//	S20 P0[I 1 11 has 11 []] P1[I 1 11]            {}              d8 out0 (normal termination)
//
// 21 states; transitions 2+2+2+1+2+2+1+1+2+2+1+2+1+1+1+1+1+0+1+1+0 = 27;
// depth 8.
func TestSuzukiKasamiN2R1ByHand(t *testing.T) {
	got := SuzukiKasami(2, 1)
	t.Logf("SK N=2 R=1: %+v", got)
	if want := (Counts{States: 21, Transitions: 27, Depth: 8}); got != want {
		t.Fatalf("SK N=2 R=1 = %+v, hand count %+v", got, want)
	}
	m, s, d := SuzukiKasamiCheck(2, 1)
	if !m || !s || !d {
		t.Fatalf("SK N=2 R=1 verdicts mutex=%v single-token=%v no-deadlock=%v", m, s, d)
	}
}

func TestSuzukiKasamiSmallVerdicts(t *testing.T) {
	for _, c := range []struct{ n, r int }{{3, 1}, {2, 2}} {
		got := SuzukiKasami(c.n, c.r)
		m, s, d := SuzukiKasamiCheck(c.n, c.r)
		t.Logf("SK N=%d R=%d: %+v mutex=%v single-token=%v no-deadlock=%v", c.n, c.r, got, m, s, d)
		if !m || !s || !d {
			t.Errorf("SK N=%d R=%d: a property fails", c.n, c.r)
		}
		if got.States <= 21 || got.Transitions < got.States-1 {
			t.Errorf("SK N=%d R=%d: implausible counts %+v", c.n, c.r, got)
		}
	}
}

// With R = 0 (outside the models' R >= 1, used only as a hand-checkable
// sanity test of the token's movement) nobody requests and only the token
// moves. d = 2, literal (TE = CE = 2), from TOKEN(0,1,0,F):
// P0: rc=2=CE -> TOKEN(1,2,-1,T); P1: rc=1, empty -> TOKEN(3,1,0,F);
// P3: rc=2=CE -> TOKEN(2,2,-1,T); P2: rc=1, empty -> TOKEN(0,1,0,F).
// A 4-cycle: 4 states, 4 transitions, depth 3.
// Repaired (TE = CE = 3): TOKEN(0,1,0,F) -> (2,2,0,F) -> (3,3,-1,T) ->
// (1,1,0,F) -> (3,2,0,F) -> (2,3,-1,T) -> (0,1,0,F): a 6-cycle (d(d+1) moves),
// 6 states, 6 transitions, depth 5.
func TestTorusIdleTokenByHand(t *testing.T) {
	if got, want := Torus(2, 0, 2, 2), (Counts{4, 4, 3}); got != want {
		t.Errorf("literal d=2 R=0 = %+v, want %+v", got, want)
	}
	if got, want := Torus(2, 0, 3, 3), (Counts{6, 6, 5}); got != want {
		t.Errorf("repaired d=2 R=0 = %+v, want %+v", got, want)
	}
}

// The figures predicted in docs/notes/torus.md ("Claims").
func TestTorusD2R1Predictions(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("heavy (the d=2 torus enumerated by the naive BFS; TestTorusIdleTokenByHand and the packages' cross-checks stay): set TOKENMC_HEAVY=1")
	}
	for _, c := range []struct {
		name   string
		te, ce int
		want   Counts
	}{
		{"literal", 2, 2, Counts{States: 58868, Transitions: 199790, Depth: 39}},
		{"repaired", 3, 3, Counts{States: 88608, Transitions: 305348, Depth: 31}},
	} {
		start := time.Now()
		got := Torus(2, 1, c.te, c.ce)
		t.Logf("torus %s d=2 R=1: %+v (%v)", c.name, got, time.Since(start))
		if got != c.want {
			t.Errorf("torus %s d=2 R=1 = %+v, torus.md predicts %+v", c.name, got, c.want)
		}
		if testing.Short() {
			continue
		}
		m, s, d := TorusCheck(2, 1, c.te, c.ce)
		t.Logf("torus %s d=2 R=1: mutex=%v single-token=%v no-deadlock=%v", c.name, m, s, d)
		if !m || !s || !d {
			t.Errorf("torus %s d=2 R=1: a property fails", c.name)
		}
	}
}

// TestBigReport runs the larger configurations and logs their counts,
// verdicts and times (one enumeration each). It can take minutes and
// gigabytes, so it runs only when the environment variable NAIVE_BIG is set
// (and never with -short): NAIVE_BIG=1 runs the default list, NAIVE_BIG=name
// runs one configuration by name.
func TestBigReport(t *testing.T) {
	if testing.Short() || os.Getenv("NAIVE_BIG") == "" {
		t.Skip("set NAIVE_BIG=1 (or NAIVE_BIG=name) to run the large configurations")
	}
	type result struct {
		c       Counts
		m, s, d bool
	}
	sk := func(n, r int) func() result {
		return func() result {
			c, m, s, d := suzukiKasami(n, r)
			return result{c, m, s, d}
		}
	}
	tor := func(d, r, te, ce int) func() result {
		return func() result {
			c, m, s, dl := torus(d, r, te, ce)
			return result{c, m, s, dl}
		}
	}
	runs := []struct {
		name      string
		dflt      bool
		enumerate func() result
	}{
		{"sk-2-1", true, sk(2, 1)},
		{"sk-3-1", true, sk(3, 1)},
		{"sk-4-1", true, sk(4, 1)},
		{"sk-2-2", true, sk(2, 2)},
		{"sk-3-2", true, sk(3, 2)},
		{"torus-lit-2-1", true, tor(2, 1, 2, 2)},
		{"torus-rep-2-1", true, tor(2, 1, 3, 3)},
		{"torus-lit-2-2", false, tor(2, 2, 2, 2)},
		{"torus-rep-2-2", false, tor(2, 2, 3, 3)},
	}
	only := os.Getenv("NAIVE_BIG")
	for _, r := range runs {
		if !(only == r.name || only == "1" && r.dflt) {
			continue
		}
		start := time.Now()
		x := r.enumerate()
		t.Logf("%-14s states=%d transitions=%d depth=%d mutex=%v single-token=%v no-deadlock=%v time=%v",
			r.name, x.c.States, x.c.Transitions, x.c.Depth, x.m, x.s, x.d, time.Since(start).Round(time.Millisecond))
	}
}
