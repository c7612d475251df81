package explore

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
)

// wideSys has one initial state with n successors (distinct 4-byte states)
// and nothing after them.
func wideSys(n int) *funcSys {
	succs := make([]edge, n)
	for i := range succs {
		succs[i].to = binary.LittleEndian.AppendUint32([]byte{1}, uint32(i))
	}
	return &funcSys{name: "wide", init: [][]byte{{0}}, succ: func(s []byte) []edge {
		if s[0] == 0 {
			return succs
		}
		return nil
	}}
}

// A state with more transitions than the links can number is an error of
// the breadth-first searches, not a crash; depth-first search explores it,
// and the most a link can number (65,536) still works.
func TestTooManyTransitions(t *testing.T) {
	ctx := context.Background()
	for _, workers := range []int{1, 2} {
		res, err := Check(ctx, wideSys(maxAction+2), Options{Workers: workers})
		if err == nil || res != nil || !strings.Contains(err.Error(), "more than 65536 transitions") || !strings.Contains(err.Error(), "--dfs") {
			t.Fatalf("workers=%d: result %v, error %v; want the too-many-transitions error", workers, res, err)
		}
	}
	res, err := Check(ctx, wideSys(maxAction+1), Options{Workers: 2})
	if err != nil || res.Verdict != OK || res.States != maxAction+2 || res.Transitions != maxAction+1 {
		t.Fatalf("65,536 transitions: %v, %+v", err, res)
	}
	res, err = Check(ctx, wideSys(maxAction+2), Options{DFS: true})
	if err != nil || res.Verdict != OK || res.States != maxAction+3 || res.Transitions != maxAction+2 {
		t.Fatalf("dfs: %v, %+v", err, res)
	}
	lres, err := CheckLiveness(ctx, wideSys(maxAction+2), LivenessOptions{Starvation: true})
	if err == nil || lres != nil || !strings.Contains(err.Error(), "more than 65536 transitions") {
		t.Fatalf("liveness: result %v, error %v; want the too-many-transitions error", lres, err)
	}
}
