package cli

import (
	"runtime"
	"runtime/debug"
)

// version is the release, set at link time with
// -ldflags "-X github.com/tokenmc/tokenmc/cmd/cli.version=v1.2.3"; empty
// in a development build.
var version = ""

// versionText is what 'tokenmc --version' prints: the release (or the
// module version 'go install' recorded, or "devel"), the commit when the
// build recorded one, and the Go version.
func versionText(prog string) string {
	v, rev := version, ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = " commit " + s.Value[:12]
			}
		}
	}
	if v == "" {
		v = "devel"
	}
	return prog + " " + v + rev + " (" + runtime.Version() + ")"
}
