package drsgme

import "github.com/tokenmc/tokenmc/model/protocol"

// This file holds the items a variant is made of: the literal items of
// algorithms.md §7.7 (Appendix A as printed, D1..D15), the extended
// problem of §VII, D11's other readings of the regeneration test, the
// request-order history of drs-gme/fcfs and the mutants of §7.8. Each item
// replaces the steps of the repaired handler set (drsgme.go) that it
// changes; a variant is the repaired set with its items applied in order.

// item is one reading choice: it replaces steps of pr's handler set.
type item func(pr *proto)

// variantItems gives every variant's items; the default has none.
var variantItems = map[string][]item{
	Default:            nil,
	Literal:            {litSession, litRelay, litHIAddSelf, litHIStateR, litStart, litFollowers, litNoLN, litNoAbsorb, litGen},
	LiteralR1:          {litRelay, litHIAddSelf, litHIStateR, litStart, litFollowers, litNoLN, litNoAbsorb, litGen},
	Ext:                {ext},
	PassBeforeComplete: {passBeforeComplete},
	AdmitAnyGroup:      {admitAnyGroup},
	KeepToken:          {keepToken},
	NoRSAdd:            {noRSAdd},
	AcceptAnyToken:     {acceptAnyToken},
	RegenLT:            {regenLT},
	FCFS:               {fcfs},
	LiteralD2:          {litRelay},
	LiteralD4:          {litHIStateR},
	LiteralD6:          {litStart},
	LiteralD7:          {litFollowers},
	LiteralD9:          {litNoAbsorb},
	RegenEmpty:         {regenEmpty},
}

// ext is extended GME (§VII): a request value is a non-empty group set
// (the layer's argument a is the set a+1); a holder admits only while
// token.queue is empty, also in EC; an admitted or accepted process leaves
// the other entries of its set; the queue holds at most M entries.
func ext(pr *proto) {
	pr.groups = func(m int) int { return 1<<m - 1 } // every non-empty subset
	pr.set = func(x int) Set { return Set(x) }
	pr.argOf = func(group int) int { return group + 1 }
	pr.enter = func(c *ctx, g int) { c.EnterGroup(g) }
	pr.unqueue = (*Token).remove
	pr.admitAhead = func(*Proc) bool { return false }
	pr.maxEntries = func(_, m int) int { return m }
	pr.formatArg = formatSetArg
}

// litSession is D1: the session grows only in Event 1 case HI, acc_i is
// not kept, and a token is valid iff old_token.session < session.
func litSession(pr *proto) {
	pr.valid = func(p *Proc, t *Token) bool { return p.Old.Session < t.Session }
	pr.bump = func(*Token) {}
	pr.accepted = func(*Proc, *Token) {}
}

// litRelay is D2: Event 2 case R as printed, "Add i to RS_i; send request
// to P_i": the request is lost (the send to oneself is dropped).
func litRelay(pr *proto) {
	pr.relay = func(c *ctx, _ int) { c.Self.RS |= bit(c.ID) }
}

// litHIAddSelf is D3: Event 2 case HI adds i (not j) to RS_i and does not
// recompute it.
func litHIAddSelf(pr *proto) {
	pr.rsAfterHI = func(c *ctx, _ *Token) { c.Self.RS |= bit(c.ID) }
}

// litHIStateR is D4: Event 2 case HI sets state R (not N) when it passes
// the token.
func litHIStateR(pr *proto) {
	pr.serveHI = func(c *ctx, j, sn, x int) {
		p := c.Self
		pr.addReq(p.Tok, j, sn, x)
		p.St = R // D4
		pr.pass(c, true)
	}
}

// litStart is D6: start (Event 3) and is_complete (Event 10) admit
// whatever the request number, and Event 3 has no guard at all.
func litStart(pr *proto) {
	pr.start = func(c *ctx, from, g, _ int) {
		p := c.Self
		p.Captain = from
		if p.St.holds() {
			p.Tok = nil
		}
		p.St = EF
		pr.enter(c, g)
	}
	pr.sameRequest = func(*Proc, int, int) bool { return true }
	pr.stillWith = func(*Proc, int, int, int) bool { return true }
}

// litFollowers is D7: follower_i is a set of ids (recorded with request
// number 0), while Event 2 always counts an admission.
func litFollowers(pr *proto) {
	pr.folSN = func(int) int { return 0 }
	pr.admitted = func(*Proc, int, int) bool { return false }
}

// litNoLN is D8: the token has no LN, so stale requests are served again.
func litNoLN(pr *proto) {
	pr.served = func(*Token, int, int) bool { return false }
	pr.grant = func(*Token, int, int) {}
	pr.grantFront = func(*Token, Entry) {}
}

// litNoAbsorb is D9: a new captain forgets the requests it recorded while
// R.
func litNoAbsorb(pr *proto) {
	pr.absorb = func(*ctx, *Token) {}
}

// litGen is D12 and D13: Event 8 cases EC, HI and HS as printed.
func litGen(pr *proto) {
	pr.genHolder = pr.genLiteral
}

// genLiteral is Event 8 cases EC, HI and HS as printed (D12, D13).
func (pr *proto) genLiteral(c *ctx, j, sn, x int) {
	p, i := c.Self, c.ID
	t := p.Tok
	match := pr.matches(t, x)
	switch p.St {
	case EC:
		if match {
			send(c, Msg{Kind: START, To: j, X: t.Type, SN: sn})
			if !p.hasFol(j, 0) {
				t.Followers++
				p.addFol(j, 0)
			}
			return
		}
		pr.addReq(t, j, sn, x)
	case HI:
		// D12: the request goes into old_token (then overwritten), the token
		// goes to j without j's entry, and i stays HI with the token. Repair
		// R1 (literal-r1) gives the sent token its session + 1, as in pass()
		// and the regeneration; the copy i keeps is unchanged.
		p.RS |= bit(j)
		p.Old = t.cloneIn(p.scratch())
		sent := t.clone()
		pr.bump(&sent)
		c.Send(Msg{Kind: TOKEN, From: i, To: j, T: &sent})
	case HS:
		if match && len(t.Queue) == 0 {
			send(c, Msg{Kind: START, To: j, X: t.Type, SN: sn})
			if !p.hasFol(j, 0) {
				t.Followers++ // D13: j is not added to follower_i
			}
			return
		}
		pr.addReq(t, j, sn, x)
	}
}

// litE5HI is D15: Event 5's HI branch keeps token.type and old_token
// (drs-gme.md's enumerator).
func litE5HI(pr *proto) {
	pr.idleHolder = func(*Proc, *Token) {}
}

// regenLT is D11 read as the proof reads it: regenerate only if
// session < old_token.session.
func regenLT(pr *proto) {
	pr.regenerates = func(p *Proc, s int) bool { return s < p.Old.Session && len(p.Old.Queue) > 0 }
}

// regenEmpty is D11's other side (drs-gme.md E12): the <= test without
// R9's non-empty old queue.
func regenEmpty(pr *proto) {
	pr.regenerates = func(p *Proc, s int) bool { return s <= p.Old.Session }
}

// fcfs adds the request-order history and its property (fcfs.go).
func fcfs(pr *proto) {
	pr.finish = func(p *protocol.Protocol[Proc, Msg]) { withFCFS(p) }
}

// passBeforeComplete (mutant): Event 4 passes the token on exit while
// followers are still in their CS.
func passBeforeComplete(pr *proto) {
	pr.exitCaptain = func(c *ctx) {
		p := c.Self
		if len(p.Tok.Queue) > 0 {
			p.St = N
			pr.pass(c, false)
			return
		}
		pr.exitCaptainR(c)
	}
}

// admitAnyGroup (mutant): the captain admits a follower whatever group it
// asked for, with a START for that group.
func admitAnyGroup(pr *proto) {
	pr.admits = func(t *Token, _ int) bool { return t.Type >= 0 }
	pr.startGroup = func(_ *Token, x int) int { return minGroup(pr.set(x)) }
}

// keepToken (mutant): an idle holder passing the token keeps a copy and
// stays HI.
func keepToken(pr *proto) {
	pr.serveHI = func(c *ctx, j, sn, x int) {
		p := c.Self
		pr.addReq(p.Tok, j, sn, x)
		keep := p.Tok.clone()
		keep.Queue = []Entry{}
		pr.pass(c, true)
		p.St = HI
		p.Tok = &keep
	}
}

// noRSAdd (mutant): an idle holder passing the token leaves RS_i as it
// was (empty for a holder).
func noRSAdd(pr *proto) {
	pr.rsAfterHI = func(*ctx, *Token) {}
}

// acceptAnyToken (mutant): Event 6 without the session test.
func acceptAnyToken(pr *proto) {
	pr.acceptsToken = func(*Proc, *Token) bool { return true }
}
