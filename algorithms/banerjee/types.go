package banerjee

import (
	"fmt"
	"strconv"
)

// noProcess stands for "no process" in Proc.Prev and Msg.From.
const noProcess = -1

// Role is what a process does for the algorithm besides being a client.
type Role uint8

// Roles of algorithms.md §6.1 (Collecting2 only in banerjee/literal).
const (
	None        Role = iota // neither arbiter nor forwarding: incoming requests are dropped
	Collecting              // the arbiter: collects requests into Q
	Forwarding              // the previous arbiter: forwards requests to Arb
	Collecting2             // literal only: Figure 1's second collection phase after an empty one
)

// String names the role as in traces.
func (r Role) String() string {
	switch r {
	case None:
		return "None"
	case Collecting:
		return "Collecting"
	case Forwarding:
		return "Forwarding"
	case Collecting2:
		return "Collecting2"
	}
	return "Role(" + strconv.Itoa(int(r)) + ")"
}

// MarshalText renders the role by name in trace files.
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText is the inverse of MarshalText.
func (r *Role) UnmarshalText(b []byte) error {
	for _, x := range []Role{None, Collecting, Forwarding, Collecting2} {
		if x.String() == string(b) {
			*r = x
			return nil
		}
	}
	return fmt.Errorf("banerjee: unknown role %q", b)
}

// Proc is the local state of one process. The client phase and the request
// count are kept by the protocol layer. Fields a variant does not use stay
// zero and are not encoded; fields that are meaningless in the current role
// (the collected list of a non-arbiter, the token data of a non-holder) are
// cleared, so that equal states encode to equal bytes.
type Proc struct {
	Arb   int   `json:"arb"`          // the process believed to be the arbiter (paper: ARBITER)
	Role  Role  `json:"role"`         // None, Collecting, Forwarding (Collecting2: literal)
	Q     []int `json:"q,omitempty"`  // requests collected while Collecting (ids, no duplicates)
	QN    []int `json:"qn,omitempty"` // banerjee-seq: the sequence number of each entry of Q
	Has   bool  `json:"has"`          // holds the token
	TQ    []int `json:"tq,omitempty"` // the token's Q-list while Has (head = this process)
	Round int   `json:"round"`        // newest round seen (repair A4); always 0 in the literal reading

	// banerjee-seq
	SN int   `json:"sn,omitempty"` // number of the current request (1, 2, ...)
	L  []int `json:"l,omitempty"`  // token: last granted request number of each process, while Has

	// banerjee-sf
	Cnt   int   `json:"cnt,omitempty"`   // token: NEW-ARBITER broadcasts since the last monitor visit, while Has
	Win   int   `json:"win,omitempty"`   // banerjee-sf/adaptive-eq token: size of the last scheduled Q-list (the period), while Has
	Miss  int   `json:"miss,omitempty"`  // consecutive accepted NEW-ARBITERs without this process while Waiting
	Resub bool  `json:"resub,omitempty"` // a resubmission to the monitor is outstanding
	S     []int `json:"s,omitempty"`     // monitor: stored requests (ascending ids)

	// banerjee-rec
	Epoch int   `json:"epoch,omitempty"`   // newest token epoch known (number*N + creator)
	Sched []int `json:"sched,omitempty"`   // Q-list of the last accepted NEW-ARBITER naming or containing this process
	Prev  int   `json:"prev"`              // the sender of that NEW-ARBITER (the previous arbiter); -1 none
	Susp  bool  `json:"susp,omitempty"`    // token hand-over suspended by an ENQUIRY until RESUME/INVALIDATE
	Warn  bool  `json:"warn,omitempty"`    // a WARNING is outstanding (at most one per schedule)
	Mon   []int `json:"mon,omitempty"`     // the list this process launched last; it watches the tail (its successor) until a newer round
	Crash bool  `json:"crashed,omitempty"` // crashed (crash-stop): takes no step, messages to it are discarded
	Rep   []int `json:"rep,omitempty"`     // arbiter enquiring: reply of each process (0 none, 1 waiting, 2 had, 3 have, 4 not asked); empty when not enquiring
	Had   bool  `json:"had,omitempty"`     // held the token for its schedule Sched (kept across a new request until a newer schedule names it): an ENQUIRY is answered HAD
}

// Kind is the kind of a message.
type Kind uint8

// Message kinds.
const (
	REQUEST Kind = iota
	PRIVILEGE
	NEWARBITER
	WARNING
	ENQUIRY
	REPLY
	RESUME
	INVALIDATE
)

var kindNames = [...]string{"REQUEST", "PRIVILEGE", "NEW-ARBITER", "WARNING", "ENQUIRY", "REPLY", "RESUME", "INVALIDATE"}

// String returns the paper's name of the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Msg is a message in transit. Which fields are meaningful depends on Kind
// (see FormatMsg); the others are zero.
type Msg struct {
	Kind  Kind  `json:"kind"`
	From  int   `json:"from"`            // sender (rec messages, and NEW-ARBITER in banerjee-rec); -1 when not recorded
	To    int   `json:"to"`              // receiver
	J     int   `json:"j"`               // REQUEST: requester; NEW-ARBITER: the new arbiter; REPLY: status
	Q     []int `json:"q,omitempty"`     // PRIVILEGE and NEW-ARBITER: the Q-list
	Round int   `json:"round,omitempty"` // PRIVILEGE and NEW-ARBITER: round number
	N     int   `json:"n,omitempty"`     // banerjee-seq REQUEST: request number
	L     []int `json:"l,omitempty"`     // banerjee-seq PRIVILEGE: last granted numbers
	F     int   `json:"f,omitempty"`     // banerjee-sf REQUEST: times forwarded
	Cnt   int   `json:"cnt,omitempty"`   // banerjee-sf PRIVILEGE: broadcast counter
	Win   int   `json:"win,omitempty"`   // banerjee-sf/adaptive-eq PRIVILEGE: size of the last Q-list
	Via   bool  `json:"via,omitempty"`   // banerjee-sf PRIVILEGE: routed to the monitor outside the Q order
	Epoch int   `json:"epoch,omitempty"` // banerjee-rec PRIVILEGE/INVALIDATE: token epoch
}
