package eventlog

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// The alternatives of a Nondeterministic protocol's handler
// (protocol.Ctx.Choose: "append the waiting ids in any order"). A full
// log does not say which alternative a process took; its effects do. The
// checker tries every alternative of a step and keeps those whose effects
// are the logged ones. When several match and yet leave the process or
// the network in different states, the log does not determine the
// behaviour: the checker does not pick one, it stops with Result.Undecided
// and says what would make the log checkable (messages logged in full, or
// the partial log's search, which tries every alternative).

// fireAlternatives is fire for a step whose handler has k > 1
// alternatives: base is the step prepared by fire (the label, the
// consumed message), ev its event.
func (c *Checker) fireAlternatives(p int, st Step, ev protosys.LocalEvent, k int, base fired) fired {
	var first fired // the first alternative's outcome, reported when none matches
	var match []fired
	var which []string
	for ch := range k {
		f := base
		f.label = fmt.Sprintf("%s (alternative %d of %d)", base.label, ch+1, k)
		ev.Choice = ch
		c.tryAlternative(p, st, ev, &f)
		if ch == 0 {
			first = f
		}
		if f.why == "" {
			match = append(match, f)
			which = append(which, fmt.Sprint(ch+1))
		}
	}
	switch {
	case len(match) == 0:
		first.why += fmt.Sprintf("; none of the step's other %d alternatives produces the logged effects either", k-1)
		return first
	case len(match) == 1:
		return match[0]
	}
	for _, f := range match[1:] {
		if !sameOutcome(&match[0].res, &f.res) {
			a := base
			a.ambiguous = true
			a.why = fmt.Sprintf("%d of the %d alternatives of the model's step %s (alternatives %s) produce the logged effects but leave P%d or the messages in transit in different states, and the log does not say which one P%d took; "+
				"log every message in full (the model's rendering, or a structured message with all its fields) so that the effects tell the alternatives apart, "+
				"or declare the log partial (header \"observed\": {\"seq_counts_all\": true}): its search tries every alternative",
				len(match), k, base.label, strings.Join(which, ", "), p, p)
			return a
		}
	}
	return match[0] // the alternatives that match are the same step
}

// sameOutcome reports whether two results of one step leave the process
// in the same state and send the same messages (in any order).
func sameOutcome(a, b *protosys.LocalResult) bool {
	if a.Next.Phase != b.Next.Phase || a.Next.Made != b.Next.Made || a.Next.Group != b.Next.Group ||
		!bytes.Equal(a.Next.Local, b.Next.Local) || a.Entered != b.Entered || a.Flags != b.Flags || len(a.Sent) != len(b.Sent) {
		return false
	}
	x, y := slices.Clone(a.Sent), slices.Clone(b.Sent)
	slices.SortFunc(x, bytes.Compare)
	slices.SortFunc(y, bytes.Compare)
	for i := range x {
		if !bytes.Equal(x[i], y[i]) {
			return false
		}
	}
	return true
}
