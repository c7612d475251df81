package repocheck

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/tokenmc/tokenmc"

// root is the repository's root, from this package's directory.
const root = "../../.."

// layers says which packages of the module production code (non-_test
// files) of a package may import, by the package's path relative to the
// module; the longest matching prefix decides. An entry "p/" matches p's
// subpackages, "p" p itself; an allowed entry ending in "/" allows every
// package under it. The standard library and the other modules are not
// restricted here.
//
// The direction: model (the contract) <- model/protocol <- algorithms;
// invariants over model; traces over model and invariants, never explore
// nor algorithms; explore over model, invariants and traces, never
// algorithms; test kits beside what they test; cmd on top.
var layers = []struct {
	pkg     string
	allowed []string
}{
	{"model", nil},
	{"model/facts", nil},
	// The model layer's OS leaves (files opened safely, the process's
	// memory and size flags): the standard library only, for every layer
	// above. The module has no root internal/: a package there is covered
	// by no rule and fails TestLayering.
	{"model/safefile", nil},
	{"model/sysmem", nil},
	{"model/protocol", []string{"model", "model/protocol/protosys"}},
	// What the protocol layer's systems offer tokenmc's own packages
	// beyond model.System (per-process stepping, the channel bound), and
	// the stepper that catches a model's panics.
	{"model/protocol/protosys", []string{"model"}},
	{"model/protocol/modelstep", []string{"model", "model/protocol"}},
	{"invariants", []string{"model"}},
	{"traces", []string{"model", "model/safefile", "model/protocol", "model/protocol/protosys", "model/protocol/modelstep", "invariants", "traces/"}},
	{"traces/", []string{"model", "model/safefile", "model/protocol", "model/protocol/protosys", "model/protocol/modelstep", "invariants", "traces", "traces/"}},
	{"explore", []string{"model", "model/safefile", "model/sysmem", "model/facts", "model/protocol", "model/protocol/protosys", "model/protocol/modelstep", "invariants", "explore/"}},
	{"explore/", []string{"model", "model/safefile", "model/sysmem", "model/facts", "model/protocol", "model/protocol/protosys", "model/protocol/modelstep", "invariants", "traces", "traces/", "explore", "explore/"}},
	{"algorithms", []string{"model", "model/facts", "model/protocol", "invariants", "algorithms/"}},
	// The description types, a leaf a user's model imports without the
	// built-in algorithms (algorithms/spec's own test checks the closure).
	{"algorithms/spec", []string{"model", "model/facts", "algorithms/suggest"}},
	{"algorithms/", []string{"model", "model/facts", "model/protocol", "invariants", "algorithms/"}},
	// The algorithms' test kit, imported only by their tests, checks them
	// with the explorer and replays their traces.
	{"algorithms/internal/algotest", []string{"model", "model/protocol", "model/protocol/modelstep", "invariants", "explore", "explore/", "traces", "traces/", "algorithms/internal/"}},
	{"cmd/", []string{""}},
	{"examples/", []string{""}},
	{"bench", []string{""}},
}

// allowedImport reports whether production code of package pkg may
// import package imp (both relative to the module), and the rule that
// decided ("" when no rule covers pkg).
func allowedImport(pkg, imp string) (bool, string) {
	best := -1
	for k, l := range layers {
		match := pkg == l.pkg || (strings.HasSuffix(l.pkg, "/") && strings.HasPrefix(pkg, l.pkg))
		if match && (best < 0 || len(l.pkg) > len(layers[best].pkg)) {
			best = k
		}
	}
	if best < 0 {
		return false, ""
	}
	l := layers[best]
	for _, a := range l.allowed {
		if a == "" || imp == a || (strings.HasSuffix(a, "/") && strings.HasPrefix(imp, a)) {
			return true, l.pkg
		}
	}
	return false, l.pkg
}

// productionImports returns, for every package directory of the module
// (relative to it), the module's packages its non-test files import.
func productionImports(t *testing.T) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(rel)
		if _, ok := pkgs[dir]; !ok {
			pkgs[dir] = nil
		}
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			if imp == module || strings.HasPrefix(imp, module+"/") {
				rel := strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
				if !slices.Contains(pkgs[dir], rel) {
					pkgs[dir] = append(pkgs[dir], rel)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// Production code keeps the layers: every import of a module package from
// a non-test file is one its layer allows, and every package is covered
// by a rule.
func TestLayering(t *testing.T) {
	pkgs := productionImports(t)
	if len(pkgs) < 20 || pkgs["model"] == nil && pkgs["explore"] == nil {
		t.Fatalf("found %d packages under %s; is the root right?", len(pkgs), root)
	}
	dirs := make([]string, 0, len(pkgs))
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		for _, imp := range pkgs[d] {
			ok, rule := allowedImport(d, imp)
			switch {
			case rule == "":
				t.Errorf("%s: no layering rule covers this package; add it to layers (layers_test.go)", d)
			case !ok:
				t.Errorf("%s imports %s, which its layer (%q) does not allow", d, imp, rule)
			}
		}
	}
}

// The table says what the layering promises: the imports the issue named
// as breaks are refused, the intended ones allowed.
func TestLayerRules(t *testing.T) {
	for _, c := range []struct {
		pkg, imp string
		want     bool
	}{
		{"traces", "explore", false},
		{"traces", "explore/simulate", false},
		{"traces/eventlog", "algorithms", false},
		{"explore/measure", "algorithms", false},
		{"explore", "algorithms/torus", false},
		{"model", "invariants", false},
		{"model/protocol", "explore", false},
		{"invariants", "traces", false},
		{"algorithms/torus", "explore", false},
		{"algorithms", "traces", false},
		{"explore/measure", "model/facts", true},
		{"explore/modeltest", "traces", true},
		{"cmd/internal/webui", "cmd/internal/chart", true},
		{"cmd/internal/outfile", "model", true},
		{"algorithms", "model/facts", true},
		{"algorithms/drsgme", "invariants", true},
		{"algorithms/internal/algotest", "explore", true},
		{"cmd/cli", "algorithms", true},
		{"examples/misra", "cmd/cli", true},
		{"algorithms/spec", "algorithms/lelann", false},
		{"algorithms/spec", "algorithms", false},
		{"algorithms/spec", "model/facts", true},
		{"model/sysmem", "model", false},
		{"model/safefile", "model", false},
		{"model", "model/safefile", false},
		{"traces", "model/safefile", true},
		{"explore", "model/sysmem", true},
		{"explore/modeltest", "model/safefile", true},
		{"cmd/cli", "model/sysmem", true},
	} {
		if got, _ := allowedImport(c.pkg, c.imp); got != c.want {
			t.Errorf("%s importing %s: allowed %v, want %v", c.pkg, c.imp, got, c.want)
		}
	}
	if _, rule := allowedImport(path.Join("newroot", "x"), "model"); rule != "" {
		t.Errorf("a package under an unknown root is covered by %q", rule)
	}
	// The top-level layout is fixed: a package in a root internal/ is
	// covered by no rule, so TestLayering reports it.
	if _, rule := allowedImport("internal/sysmem", "model"); rule != "" {
		t.Errorf("a package under the root internal/ is covered by %q", rule)
	}
}

// topLevel are the directories of the repository's fixed layout that may
// hold Go packages (README.md and docs/ describe it); the module's own
// go.mod sits at the root beside them, which holds no package.
var topLevel = []string{"model", "explore", "invariants", "algorithms", "traces", "cmd", "examples", "bench"}

// Every Go package lives under one of the fixed top-level directories: no
// package at the root, and no new top-level directory (a root internal/
// included: code that several layers share is public under model/, or
// belongs to the one layer that uses it).
func TestTopLevelLayout(t *testing.T) {
	for d := range productionImports(t) {
		top, _, _ := strings.Cut(d, "/")
		if !slices.Contains(topLevel, top) {
			t.Errorf("package %s lives outside the fixed top-level layout (%s)", d, strings.Join(topLevel, ", "))
		}
	}
}
