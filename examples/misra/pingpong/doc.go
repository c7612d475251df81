// Package pingpong models Misra's ping-pong algorithm for detecting and
// regenerating a lost token on a ring (J. Misra, "Detecting termination
// of distributed computations using markers", Proc. 2nd ACM Symposium on
// Principles of Distributed Computing (PODC), 1983; the ping-pong scheme
// for the loss of a token): two tokens, ping (the privilege of the
// critical section) and pong, circulate on the ring P0 -> P1 -> ... ->
// P(N-1) -> P0, carrying numbers nbping = -nbpong. Each process remembers
// in m the number of the last token that left it. A process that receives
// ping carrying m has not seen pong since ping's last visit: pong is lost,
// and it regenerates pong (and symmetrically for ping). When pong reaches
// the process that holds ping (in its critical section) the tokens meet
// and pong overtakes ping; both numbers then move away from zero
// (nbping+1, nbpong-1), so that a stale m never matches again.
//
// It is the worked example of a user's own algorithm (README, "Check your
// own algorithm"): written with tokenmc's public API only, checked by
// `go run ./examples/misra check --algo misra`.
//
// Modelling decisions:
//
//   - Ring links are FIFO, as Misra assumes: a token is delivered only
//     after the tokens sent before it on the same link (a sequence number
//     modulo 3 per link and Protocol.Guard; exact for up to three tokens
//     on a link). Without it, ping can overtake pong inside a link, and
//     the published algorithm itself regenerates a second pong (4 steps
//     at N=3).
//   - A process forwards a token as soon as it receives it, except ping
//     at a Waiting process, which enters its critical section and passes
//     ping on when it exits.
//   - The loss of a token is a Lose fault (budget --faults, default 1).
//     With two, both tokens can be lost at once, which the algorithm does
//     not claim to survive: no-deadlock fails after 5 steps at N=3.
//   - The numbers grow forever while the tokens circulate, so
//     Protocol.Normalize renames them (ping 1, pong -1, m to 1, -1, or 0
//     for "neither"). It is exact when at most one ping and one pong exist:
//     the algorithm only tests m for equality with the number of an
//     arriving token, and numbers only move away from zero, so an m equal
//     to neither never matches again. Other states keep their numbers;
//     they violate one-ping or one-pong, where a search stops.
//
// The mutant misra/no-increment forgets the increment when the tokens
// meet: pong lapping the process that holds ping looks like a lost ping.
package pingpong
