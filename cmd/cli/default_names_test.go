package cli

import (
	"os"
	"testing"
)

// simulate's default trace name is defaultFile's, pinned here
// literally: ALGO.PROPERTY.sim.trace.json with "/" as "_".
func TestSimulateDefaultTraceName(t *testing.T) {
	t.Chdir(t.TempDir())
	r := runCLI(t, "simulate", "--algo", "suzuki-kasami/send-in-cs", "--n", "3", "--runs", "200", "--seed", "1", "--progress", "0")
	r.wantCode(t, exitViolation)
	if _, err := os.Stat("suzuki-kasami_send-in-cs.mutex.sim.trace.json"); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	runCLI(t, "replay", "--quiet", "suzuki-kasami_send-in-cs.mutex.sim.trace.json").wantCode(t, exitOK)
}
