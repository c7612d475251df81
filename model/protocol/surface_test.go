package protocol_test

import (
	"reflect"
	"testing"

	"github.com/tokenmc/tokenmc/model/protocol"
)

// Protocol keeps what every model names at its top level and its optional
// fields in embedded groups (issue 22: at most 14 top-level fields), and
// the groups' fields are promoted, so p.Guard or p.Faults select them as
// before the grouping.
func TestProtocolFieldsGrouped(t *testing.T) {
	typ := reflect.TypeOf(protocol.Protocol[int, int]{})
	if n := typ.NumField(); n > 14 {
		t.Errorf("Protocol has %d top-level fields, want at most 14: put an optional field into Options, Hooks or Format", n)
	}
	for group, fields := range map[string][]string{
		"Codec":   {"EncodeProc", "DecodeProc", "EncodeMsg", "DecodeMsg", "To", "From"},
		"Options": {"Cyclic", "Groups", "Faults", "Timers", "GME", "Capacity", "Nondeterministic", "Params"},
		"Hooks":   {"InitialMessages", "TimerEnabled", "CanLose", "HoldsToken", "CarriesToken", "Guard", "Normalize"},
		"Format":  {"FormatMsg", "FormatProc", "TimerNames"},
	} {
		g, ok := typ.FieldByName(group)
		if !ok || !g.Anonymous {
			t.Errorf("Protocol has no embedded %s", group)
			continue
		}
		for _, name := range fields {
			f, ok := typ.FieldByName(name)
			if !ok || len(f.Index) != 2 || f.Index[0] != g.Index[0] {
				t.Errorf("Protocol.%s is not promoted from %s", name, group)
			}
		}
	}
}
