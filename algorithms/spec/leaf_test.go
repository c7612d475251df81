package spec_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The description types are a leaf: a user's model that imports spec
// links none of the built-in algorithms and not their registry. The test
// asks the go command for spec's whole dependency closure, so an indirect
// import (spec -> x -> algorithms/lelann) fails it too.
func TestLeafLinksNoBuiltinAlgorithm(t *testing.T) {
	const module = "github.com/tokenmc/tokenmc"
	gocmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := exec.LookPath(gocmd); err != nil {
		gocmd = "go"
	}
	out, err := exec.Command(gocmd, "list", "-deps", module+"/algorithms/spec").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 || deps[len(deps)-1] != module+"/algorithms/spec" {
		t.Fatalf("go list -deps printed no closure ending in the package itself:\n%s", out)
	}
	// what spec may use under algorithms/: itself and the name suggester
	allowed := map[string]bool{module + "/algorithms/spec": true, module + "/algorithms/suggest": true}
	for _, d := range deps {
		if (d == module+"/algorithms" || strings.HasPrefix(d, module+"/algorithms/")) && !allowed[d] {
			t.Errorf("algorithms/spec depends on %s: the description types must not link the built-in algorithms or their registry", d)
		}
	}
}
