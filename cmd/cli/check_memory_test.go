package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckMemoryFlagsBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		word string
	}{
		{[]string{"--memory", "lots"}, "--memory"},
		{[]string{"--memory", "16XB"}, "unknown unit"},
		{[]string{"--memory", "1MiB"}, "too small"},
		{[]string{"--bitstate", "12"}, "too small"},
		{[]string{"--bitstate", "1MiB", "--exact"}, "exclude"},
		{[]string{"--spill-above", "-3"}, "--spill-above"},
		{[]string{"--workdir", "/nonexistent/dir"}, "no such directory"},
	} {
		r := runCLI(t, append([]string{"check", "--algo", "suzuki-kasami"}, c.args...)...)
		r.wantCode(t, 2)
		r.wantOneLineError(t, c.word)
	}
}

// TestCheckMemoryReport: the summary line and --json give the measured
// peak RSS; spilling to a work directory changes no count.
func TestCheckMemoryReport(t *testing.T) {
	dir := t.TempDir()
	mem, _ := check(t, 0, "--algo", "suzuki-kasami", "--n", "3", "--r", "2", "--spill-above", "0")
	spill, _ := check(t, 0, "--algo", "suzuki-kasami", "--n", "3", "--r", "2", "--spill-above", "1KiB", "--workdir", dir, "--memory", "4GiB")
	if mem.States != 58973 || spill.States != mem.States || spill.Transitions != mem.Transitions || spill.Depth != mem.Depth {
		t.Errorf("spilled run %d/%d/%d, in memory %d/%d/%d, want 58973 states both", spill.States, spill.Transitions, spill.Depth,
			mem.States, mem.Transitions, mem.Depth)
	}
	if spill.SpilledBytes == 0 || mem.SpilledBytes != 0 {
		t.Errorf("spilled bytes %d (spill) and %d (in memory)", spill.SpilledBytes, mem.SpilledBytes)
	}
	if spill.MemoryBudgetBytes != 4<<30 || spill.PeakRSSBytes <= 0 ||
		spill.RSSBytesPerState != float64(spill.PeakRSSBytes)/float64(spill.States) {
		t.Errorf("memory fields %d %d %v", spill.MemoryBudgetBytes, spill.PeakRSSBytes, spill.RSSBytesPerState)
	}
	r := runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "3", "--r", "1", "--verbose")
	r.wantCode(t, 0)
	if !strings.Contains(r.stdout, "memory: peak RSS ") || !strings.Contains(r.stdout, "bytes/state (whole process)") {
		t.Errorf("no peak RSS line in the --verbose summary:\n%s", r.stdout)
	}
	// ... and none without --verbose (issue 25: the summary is not telemetry)
	r = runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "3", "--r", "1")
	r.wantCode(t, 0)
	if strings.Contains(r.stdout, "peak RSS") || strings.Contains(r.stdout, "bytes/state") || strings.Contains(r.stdout, "budget") {
		t.Errorf("memory figures in the summary without --verbose:\n%s", r.stdout)
	}
}

func TestCheckBitstateVerdict(t *testing.T) {
	rep, r := check(t, 0, "--algo", "suzuki-kasami", "--n", "3", "--r", "1", "--bitstate", "1MiB")
	if rep.Verdict != "ok-partial" || rep.Mode != "bitstate" || rep.Bitstate == nil || rep.Bitstate.K != 3 || rep.Bitstate.Bits != 8<<20 {
		t.Fatalf("bitstate: %s %s %+v\n%s", rep.Verdict, rep.Mode, rep.Bitstate, r.stdout)
	}
	if rep.States != 726 || rep.Bitstate.Stored != 726 || rep.Bitstate.HashFactor < 100 {
		t.Errorf("bitstate counts: %d states, %+v", rep.States, rep.Bitstate)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		algo string
		prop string
		len  int
	}{{"suzuki-kasami/keep-copy", "single-token", 2}, {"suzuki-kasami/send-in-cs", "mutex", 4}} {
		rep, _ := check(t, 1, "--algo", c.algo, "--bitstate", "1MiB", "--trace-out", dir+"/t.json")
		if rep.Violation == nil || rep.Violation.Property != c.prop || rep.Violation.Length != c.len {
			t.Errorf("%s with bitstate: %+v, want %s in %d steps", c.algo, rep.Violation, c.prop, c.len)
		}
	}
	text := runCLI(t, "check", "--algo", "suzuki-kasami", "--bitstate", "1MiB")
	text.wantCode(t, 0)
	if !strings.Contains(text.stdout, "verdict: ok-partial") || !strings.Contains(text.stdout, "hash factor") {
		t.Errorf("bitstate summary:\n%s", text.stdout)
	}
}

func TestCheckJSONProgressLines(t *testing.T) {
	r := runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "4", "--r", "1", "--json", "--progress", "1ms")
	r.wantCode(t, 0)
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if len(lines) == 0 || lines[0] == "" {
		t.Fatal("no progress on stderr")
	}
	for _, l := range lines {
		var p map[string]any
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatalf("progress line is not JSON: %q", l)
		}
		for _, k := range []string{"states", "rss_bytes", "spilled_bytes", "depth"} {
			if _, ok := p[k]; !ok {
				t.Errorf("progress line lacks %q: %s", k, l)
			}
		}
	}
}

// TestCheckResume: a run that checkpoints at every block leaves a
// checkpoint; 'check --resume DIR' alone takes the search from it and ends
// with the counts of a plain run; another search's options are refused.
func TestCheckResume(t *testing.T) {
	dir := t.TempDir()
	plain, _ := check(t, 0, "--algo", "suzuki-kasami", "--n", "3", "--r", "2")
	check(t, 0, "--algo", "suzuki-kasami", "--n", "3", "--r", "2", "--checkpoint", dir, "--checkpoint-every", "1ns")
	resumed, _ := check(t, 0, "--resume", dir)
	if resumed.Algorithm != "suzuki-kasami" || resumed.States != plain.States || resumed.Transitions != plain.Transitions ||
		resumed.Depth != plain.Depth || resumed.Verdict != "ok" {
		t.Errorf("resumed: %s %s %d/%d/%d, want ok %d/%d/%d", resumed.Algorithm, resumed.Verdict, resumed.States,
			resumed.Transitions, resumed.Depth, plain.States, plain.Transitions, plain.Depth)
	}
	r := runCLI(t, "check", "--resume", dir, "--props", "mutex")
	r.wantCode(t, 2)
	r.wantOneLineError(t, "another search")
	r = runCLI(t, "check", "--resume", t.TempDir())
	r.wantCode(t, 2)
	r.wantOneLineError(t, "no checkpoint")
}
