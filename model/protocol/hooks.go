package protocol

import "github.com/tokenmc/tokenmc/model"

// Action is a candidate action of a state, as Protocol.Guard sees it: the
// guard of a whole-state oracle (see Protocol.Guard, and the package
// example of Protocol with a guard).
type Action[M any] struct {
	Kind model.ActionKind
	Proc int // acting process: the requester, the timer's owner, the receiver of a Deliver or Lose
	Arg  int // the group of a Request, the timer of a Timer; 0 otherwise
	Msg  *M  // the message of a Deliver or Lose (one of its copies); nil otherwise
}
