// Package bench holds the Promela models of the SPIN side-by-side
// benchmark (run.sh) and this test, which checks them against tokenmc: an
// independent check of the project's semantics.
package bench

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/model"
)

// reachable counts the distinct reachable states of sys by a plain
// breadth-first search over its encoded states (no fingerprints, no
// workers: independent of package explore).
func reachable(sys model.System) int {
	w := sys.NewWorker()
	seen := map[string]bool{}
	var queue []string
	w.Initial(func(s []byte) bool {
		if !seen[string(s)] {
			seen[string(s)] = true
			queue = append(queue, string(s))
		}
		return true
	})
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		w.Successors([]byte(s), func(_ *model.Transition, next []byte) bool {
			if !seen[string(next)] {
				seen[string(next)] = true
				queue = append(queue, string(next))
			}
			return true
		})
	}
	return len(seen)
}

var storedRE = regexp.MustCompile(`(?m)^\s*(\d+) states, stored`)

// spinStates generates, compiles and runs the SPIN verifier of a Promela
// model with the benchmark's flags and returns the states it stores.
func spinStates(t *testing.T, pml string, defines ...string) int {
	t.Helper()
	dir := t.TempDir()
	abs, err := filepath.Abs(pml)
	if err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out)
	}
	run("spin", append(append([]string{}, defines...), "-a", abs)...)
	run("gcc", "-O0", "-w", "-DSAFETY", "-DNOREDUCE", "-o", "pan", "pan.c") // -O0: compiles in a third of the time
	out := run("./pan", "-m100000", "-w20")
	m := storedRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no state count in SPIN's output:\n%s", out)
	}
	n, _ := strconv.Atoi(m[1])
	if regexp.MustCompile(`errors: [1-9]`).MatchString(out) {
		t.Fatalf("SPIN reports errors:\n%s", out)
	}
	return n
}

// TestSpinCountsMatch: SPIN stores exactly as many states for the Promela
// models as tokenmc's models have reachable states, on the configurations
// that take seconds, and both equal the counts fixed in the reference
// semantics. Skipped when spin or gcc is missing (CI installs them).
func TestSpinCountsMatch(t *testing.T) {
	for _, tool := range []string{"spin", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (apt-get install -y spin gcc): the Promela models are not checked", tool)
		}
	}
	for _, c := range []struct {
		pml     string
		defines []string
		algo    string
		params  map[string]int
		want    int // semantics.md
	}{
		{"sk.pml", []string{"-DN=2", "-DR=1"}, "suzuki-kasami", map[string]int{"n": 2, "r": 1}, 21},
		{"sk.pml", []string{"-DN=3", "-DR=1"}, "suzuki-kasami", map[string]int{"n": 3, "r": 1}, 726},
		{"sk.pml", []string{"-DN=2", "-DR=2"}, "suzuki-kasami", map[string]int{"n": 2, "r": 2}, 83},
		{"sk.pml", []string{"-DN=2", "-DR=3"}, "suzuki-kasami", map[string]int{"n": 2, "r": 3}, 234},
		{"sk.pml", []string{"-DN=3", "-DR=2"}, "suzuki-kasami", map[string]int{"n": 3, "r": 2}, 58973},
		{"torus.pml", []string{"-DD=2", "-DR=1"}, "torus/literal", map[string]int{"n": 4, "r": 1}, 58868},
	} {
		name := fmt.Sprintf("%s %v", c.algo, c.params)
		a, v, err := algorithms.Lookup(c.algo)
		if err != nil {
			t.Fatal(err)
		}
		sys, _, err := a.Build(v.Name, c.params)
		if err != nil {
			t.Fatal(err)
		}
		got, spin := reachable(sys), spinStates(t, c.pml, c.defines...)
		if got != c.want || spin != c.want {
			t.Errorf("%s: tokenmc %d states, SPIN %d, semantics.md %d", name, got, spin, c.want)
		}
	}
}
