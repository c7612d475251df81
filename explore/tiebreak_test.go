package explore

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

// fan is a three-level tree: the root [0] has successors [1 i] for i in
// 0..299 (five chunks of the frontier and more), each [1 i] has the
// successors [2 i j] for j in 0..2, which are terminal. A level-2 state's
// place in the frontier is 3i+j. badSteps marks the steps [1 i] -> [2 i j]
// given as {i, j}.
func fan(badSteps ...[2]int) *funcSys {
	return &funcSys{
		name: "fan",
		init: [][]byte{{0}},
		succ: func(s []byte) []edge {
			switch s[0] {
			case 0:
				out := make([]edge, 300)
				for i := range out {
					out[i] = edge{to: []byte{1, byte(i >> 8), byte(i)}}
				}
				return out
			case 1:
				var out []edge
				i := int(s[1])<<8 | int(s[2])
				for j := range 3 {
					out = append(out, edge{to: []byte{2, s[1], s[2], byte(j)}, bad: slices.Contains(badSteps, [2]int{i, j})})
				}
				return out
			}
			return nil
		},
	}
}

func fanPath(i, j int) [][]byte {
	return [][]byte{{0}, {1, byte(i >> 8), byte(i)}, {2, byte(i >> 8), byte(i), byte(j)}}
}

// level2 returns an invariant violated by the level-2 states {i, j}.
func level2(states ...[2]int) model.Property {
	return stateIs("level-2", func(s []byte) bool {
		return len(s) == 4 && slices.Contains(states, [2]int{int(s[1])<<8 | int(s[2]), int(s[3])})
	})
}

// Of several violations of equal length, the breadth-first search reports
// the one met first in the sequential order of the search: violations
// found while expanding a level (bad steps out of it) before those of the
// next level's states; among bad steps, the lowest frontier place of the
// source, then the lowest transition index; among states, the lowest
// frontier place. The violations sit in different chunks of the frontier,
// so parallel workers meet them in any order; the report must be the same
// for 1, 2 and 4 workers.
func TestEquallyShortViolationsPinned(t *testing.T) {
	cases := []struct {
		name  string
		sys   *funcSys
		props []model.Property
		prop  string
		path  [][]byte
	}{
		{"states of one level", fan(), []model.Property{level2([2]int{250, 0}, [2]int{130, 2}, [2]int{40, 1}, [2]int{40, 2})},
			"level-2", fanPath(40, 1)},
		{"bad steps of one level", fan([2]int{200, 2}, [2]int{90, 1}, [2]int{21, 0}, [2]int{20, 2}), []model.Property{badStep},
			"bad-step", fanPath(20, 2)},
		{"bad steps before states of the next level", fan([2]int{200, 2}, [2]int{90, 1}),
			[]model.Property{level2([2]int{3, 0}), badStep}, "bad-step", fanPath(90, 1)},
		{"terminal states", fan(), []model.Property{terminalIs("terminal", func(s []byte) bool {
			return len(s) == 4 && (s[2] == 77 || s[2] == 250) && s[3] == 2
		})}, "terminal", fanPath(77, 2)},
	}
	for _, c := range cases {
		for _, workers := range []int{1, 2, 4} {
			r := mustCheck(t, c.sys, Options{Workers: workers, Properties: c.props})
			if r.Verdict != Violated || r.Violation.Property.Name != c.prop {
				t.Errorf("%s, workers=%d: %s, want a violation of %s", c.name, workers, r.Verdict, c.prop)
				continue
			}
			if got := r.Violation.Path; !slices.EqualFunc(got, c.path, bytes.Equal) {
				t.Errorf("%s, workers=%d: path %v, want %v", c.name, workers, fmt.Sprint(got), fmt.Sprint(c.path))
			}
		}
	}
}
