package pingpong

import "github.com/tokenmc/tokenmc/model"

// normalize renames a state (Protocol.Normalize) so that the state space
// is finite:
//
//   - sequence numbers: each sender's Out becomes 1 (so the newest token
//     on a link reads seq=0) and the tokens on its link keep their
//     distance to it (the Guard compares only those);
//   - numbers: when at most one ping and one pong exist, carrying c and -c
//     (c > 0), ping becomes 1, pong -1, and each m becomes 1 if it is c,
//     -1 if it is -c, else 0. The algorithm only tests m for equality
//     with the numbers of arriving tokens, and numbers only move away from
//     zero, so an m that matches neither never matches again. Any other
//     state (two pings, say: a violation) keeps its numbers.
func normalize(_ []model.Phase, procs []Proc, msgs []Msg) {
	n := len(procs)
	for k := range msgs {
		m := &msgs[k]
		m.Seq = (m.Seq - procs[(m.To+n-1)%n].Out + 4) % 3
	}
	c, pings, pongs := 0, 0, 0
	for i := range procs {
		procs[i].Out = 1
		if procs[i].Ping {
			pings, c = pings+1, procs[i].Nb
		}
	}
	for _, m := range msgs {
		if m.Pong {
			pongs++
		} else {
			pings, c = pings+1, m.Nb
		}
	}
	for _, m := range msgs {
		if m.Pong && pings == 0 {
			c = -m.Nb
		}
	}
	if pings > 1 || pongs > 1 || c <= 0 {
		return
	}
	for _, m := range msgs {
		if m.Pong && m.Nb != -c {
			return
		}
	}
	for i := range procs {
		if m := procs[i].M; m > c || m < -c {
			return // not reachable: m holds a past number
		}
	}
	for i := range procs {
		p := &procs[i]
		switch p.M {
		case c:
			p.M = 1
		case -c:
			p.M = -1
		default:
			p.M = 0
		}
		if p.Ping {
			p.Nb = 1
		}
	}
	for k := range msgs {
		msgs[k].Nb = 1
		if msgs[k].Pong {
			msgs[k].Nb = -1
		}
	}
}
