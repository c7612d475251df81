package cli

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// This file holds --channel-capacity K (design notes §10.2): a transition
// whose sends would put more than K messages on one channel (ordered pair
// sender -> receiver) is disabled, states blocked only by that are
// capacity-blocked rather than deadlocked, and the search is an
// under-approximation of the unbounded system.

const capacityFlagDoc = "bound every channel (sender -> receiver) to `K` messages in transit: a transition whose sends exceed it is disabled, states blocked only by that are reported as capacity-blocked, not as deadlocks, and the search is an under-approximation (0: unbounded; safety only)"

// addCapacityFlag defines --channel-capacity on fs.
func addCapacityFlag(fs *flag.FlagSet) *int {
	return fs.Int("channel-capacity", 0, capacityFlagDoc)
}

// applyCapacity returns sys with every channel bounded to k (sys itself
// for k == 0), or a one-line bad-input error when k is negative or the
// algorithm cannot bound its channels.
func applyCapacity(sys model.System, name string, k int) (model.System, error) {
	if k < 0 {
		return nil, badInput("--channel-capacity %d is negative; give 0 (unbounded) or a bound K >= 1", k)
	}
	if k == 0 {
		return sys, nil
	}
	c, ok := sys.(protosys.Capacitated)
	if !ok {
		return nil, badInput("%s does not support --channel-capacity: it is not built on the protocol layer", name)
	}
	capped, err := c.WithCapacity(k)
	if err != nil {
		return nil, badInput("--channel-capacity: %v", err)
	}
	return capped, nil
}

// refuseCapacityLiveness is the one-line refusal of liveness properties
// under a channel capacity (explore.CheckLiveness refuses them too).
func refuseCapacityLiveness(k int, liveness []string) error {
	if k > 0 && len(liveness) > 0 {
		return badInput("--channel-capacity %d cannot be combined with %s: a process blocked only by the bound would look starved or deadlocked; check liveness without --channel-capacity", k, strings.Join(liveness, ", "))
	}
	return nil
}

// refuseCapacitySymmetry is the one-line refusal of --symmetry with a
// channel capacity: the quotient's workers (explore/symmetry) do not pass
// on which states are capacity-blocked, so they would look deadlocked.
func refuseCapacitySymmetry(k int, symmetry bool) error {
	if k > 0 && symmetry {
		return badInput("--channel-capacity %d cannot be combined with --symmetry yet: the reduced search does not tell capacity-blocked states from deadlocks; drop one of the two", k)
	}
	return nil
}

// capacityOptions returns the trace options that record capacity k (nil
// for 0), added to opts (which may be nil).
func capacityOptions(opts map[string]string, k int) map[string]string {
	if k == 0 {
		return opts
	}
	if opts == nil {
		opts = map[string]string{}
	}
	opts[capacityOption] = strconv.Itoa(k)
	return opts
}

// traceCapacity returns the channel capacity a trace's options record (0
// if none), or a bad-input error for a malformed value.
func traceCapacity(opts map[string]string) (int, error) {
	v, ok := opts[capacityOption]
	if !ok {
		return 0, nil
	}
	k, err := strconv.Atoi(v)
	if err != nil || k < 0 {
		return 0, badInput("the trace's option %s is %q; want an integer >= 0", capacityOption, v)
	}
	return k, nil
}

// capacityLine is the summary line of a search under a channel capacity
// ("" without one).
func capacityLine(rep *checkReport) string {
	if rep.ChannelCapacity == 0 {
		return ""
	}
	blocked := int64(0)
	if rep.CapacityBlocked != nil {
		blocked = *rep.CapacityBlocked
	}
	return fmt.Sprintf("channel capacity %d: under-approximation (a transition that would put more than %d messages on one channel is disabled); %d capacity-blocked states (not deadlocks)",
		rep.ChannelCapacity, rep.ChannelCapacity, blocked)
}

// capacityOption is the key under which a trace records the channel
// capacity of the system it was found on (traces.Trace.Options).
const capacityOption = "channel-capacity"
