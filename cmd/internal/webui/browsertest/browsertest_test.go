package browsertest

import (
	"fmt"
	"strings"
	"testing"
)

// recorder stands in for a test to see whether Binary skips or fails it.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Fatal(args ...any)         { r.fatal = fmt.Sprint(args...) }
func (r *recorder) Skip(args ...any)          { r.skip = fmt.Sprint(args...) }
func (r *recorder) Fatalf(f string, a ...any) { r.fatal = fmt.Sprintf(f, a...) }

// Without a browser on PATH the browser tests are skipped locally but
// fail in CI (CI=true), so that CI cannot pass without running them.
func TestBinaryMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, c := range []struct {
		ci         string
		fail, skip bool
	}{{"true", true, false}, {"", false, true}, {"false", false, true}} {
		t.Setenv("CI", c.ci)
		r := &recorder{TB: t}
		if got := Binary(r); got != "" {
			t.Fatalf("found %q on an empty PATH", got)
		}
		if (r.fatal != "") != c.fail || (r.skip != "") != c.skip {
			t.Errorf("CI=%q: fatal %q, skip %q", c.ci, r.fatal, r.skip)
		}
		if c.fail && !strings.Contains(r.fatal, "CI=true") {
			t.Errorf("the failure does not say why: %q", r.fatal)
		}
	}
}
