package pingpong_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/examples/misra/pingpong"
	"github.com/tokenmc/tokenmc/traces"
)

// TestFuzzFindsMutant runs `go test -fuzz FuzzNoIncrement -fuzztime 10s`
// and expects the fuzzer to find the mutant's violation, write its trace
// and report it; the trace replays. It compiles and fuzzes for up to half
// a minute, so it runs only with TOKENMC_FUZZ=1. The input Go saves under
// testdata/fuzz/FuzzNoIncrement is removed afterwards.
func TestFuzzFindsMutant(t *testing.T) {
	if os.Getenv("TOKENMC_FUZZ") == "" {
		t.Skip("set TOKENMC_FUZZ=1 to run go test -fuzz on the mutant (about 30 s)")
	}
	corpus := filepath.Join("testdata", "fuzz", "FuzzNoIncrement")
	if _, err := os.Stat(corpus); err == nil {
		t.Fatalf("%s exists: remove it first, it would fail at once", corpus)
	}
	defer func() {
		_ = os.RemoveAll(corpus)
		_ = os.Remove(filepath.Join("testdata", "fuzz")) // only if empty
		_ = os.Remove("testdata")
	}()
	trace := filepath.Join(t.TempDir(), "fuzz.trace.json")
	cmd := exec.Command("go", "test", "-run", "^$", "-fuzz", "^FuzzNoIncrement$", "-fuzztime", "10s", ".")
	cmd.Env = append(os.Environ(), "TOKENMC_FUZZ_MUTANT=1", "TOKENMC_FUZZ_TRACE="+trace)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("go test -fuzz: %v, %s\n%s", err, time.Since(start).Round(time.Millisecond), lastLines(string(out), 12))
	if err == nil {
		t.Fatal("the fuzzer did not find the mutant's violation within 10 s")
	}
	if !strings.Contains(string(out), "violated after") || !strings.Contains(string(out), "trace written to "+trace) {
		t.Fatal("the failure does not report the violation and its trace")
	}
	tr, err := traces.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	sys, props := build(t, pingpong.NoIncrement, 3, 1, 1)
	if r, err := traces.Replay(sys, props, tr); err != nil || !r.OK {
		t.Errorf("the fuzzer's trace does not replay: %+v %v", r, err)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
