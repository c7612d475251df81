package outfile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/cmd/internal/outfile"
)

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReplaceIsAtomicAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.trace.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := outfile.Create(p, outfile.Replace)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	if got := read(t, p); got != "old" {
		t.Fatalf("before Commit the destination reads %q; want the old content", got)
	}
	name, err := f.Commit()
	if err != nil || name != p {
		t.Fatalf("Commit = %q, %v", name, err)
	}
	if got := read(t, p); got != "new" {
		t.Fatalf("got %q", got)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("directory holds %d entries; want only the file", len(ents))
	}
}

func TestNumberedKeepsExistingFilesAndSymlinks(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sk.mutex.trace.json")
	target := filepath.Join(dir, "precious")
	os.WriteFile(target, []byte("keep me"), 0o644)
	if err := os.Symlink(target, p); err != nil {
		t.Skip("no symlinks:", err)
	}
	os.WriteFile(filepath.Join(dir, "sk.mutex.1.trace.json"), []byte("one"), 0o644)
	name, err := outfile.WriteFile(p, outfile.Numbered, []byte("new"))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "sk.mutex.2.trace.json"); name != want {
		t.Fatalf("name = %s; want %s", name, want)
	}
	if read(t, target) != "keep me" || read(t, name) != "new" {
		t.Fatal("the symlink was followed or the new file is wrong")
	}
	// With the name free, Numbered uses it.
	p2 := filepath.Join(dir, "fresh.log.jsonl")
	if name, err := outfile.WriteFile(p2, outfile.Numbered, []byte("a")); err != nil || name != p2 {
		t.Fatalf("WriteFile = %s, %v; want %s", name, err, p2)
	}
}

// create starts the file path under p and abandons it: what a caller does
// to check, before long work, that an output file can be written.
func create(path string, p outfile.Policy) error {
	f, err := outfile.Create(path, p)
	if err == nil {
		f.Abort()
	}
	return err
}

// TestCreateChecks: Create fails at once, saying why, where the file
// cannot be written, and Abort leaves nothing behind.
func TestCreateChecks(t *testing.T) {
	dir := t.TempDir()
	if err := create(filepath.Join(dir, "a.json"), outfile.Replace); err != nil {
		t.Fatal(err)
	}
	err := create(filepath.Join(dir, "missing", "a.json"), outfile.Replace)
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing directory: %v", err)
	}
	if err := create(dir, outfile.Replace); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("a directory as the file: %v", err)
	}
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o555)
	if os.Getuid() != 0 {
		if err := create(filepath.Join(ro, "a.json"), outfile.Replace); err == nil || !strings.Contains(err.Error(), "not writable") {
			t.Fatalf("read-only directory: %v", err)
		}
	}
	// A symbolic link to a file in a missing directory: Replace would
	// replace the link itself (its directory exists), Through the file it
	// points to, which cannot be created.
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(filepath.Join(dir, "missing", "b.json"), link); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	if err := create(link, outfile.Replace); err != nil {
		t.Errorf("the link under Replace: %v", err)
	}
	if err := create(link, outfile.Through); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("the link under Through: %v; want the missing directory", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 { // ro and the link
		t.Errorf("Abort left files behind: %v", ents)
	}
}

func TestNumberedName(t *testing.T) {
	for in, want := range map[string]string{
		"a.mutex.trace.json": "a.mutex.3.trace.json",
		"sk.log.jsonl":       "sk.3.log.jsonl",
		"out.svg":            "out.3.svg",
		"noext":              "noext.3",
	} {
		if got := outfile.NumberedName(in, 3); got != want {
			t.Errorf("NumberedName(%q) = %q; want %q", in, got, want)
		}
	}
}

// Through follows a symbolic link at the path, also a chain of relative
// links and a link to a file that does not exist yet: the file it points
// to is replaced, the links stay links, no temporary file is left, and
// Commit returns the path given. Replace, for comparison, replaces the
// link itself.
func TestThroughWritesThroughSymlinks(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "docs")
	os.Mkdir(sub, 0o755)
	results := filepath.Join(sub, "results.md")
	os.WriteFile(results, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.md")
	chain := filepath.Join(dir, "chain.md")
	dangling := filepath.Join(dir, "new.md")
	if err := os.Symlink(filepath.Join("docs", "results.md"), link); err != nil {
		t.Skip("no symlinks:", err)
	}
	os.Symlink("link.md", chain)
	os.Symlink(filepath.Join("docs", "later.md"), dangling)
	isLink := func(p string) bool {
		fi, err := os.Lstat(p)
		return err == nil && fi.Mode()&os.ModeSymlink != 0
	}
	for k, p := range []string{link, chain} {
		want := fmt.Sprintf("new %d", k)
		name, err := outfile.WriteFile(p, outfile.Through, []byte(want))
		if err != nil || name != p {
			t.Fatalf("WriteFile(%s) = %s, %v; want %s", p, name, err, p)
		}
		if read(t, results) != want || !isLink(link) || !isLink(chain) {
			t.Fatalf("through %s: results.md holds %q (want %q), or a link was replaced", p, read(t, results), want)
		}
	}
	if _, err := outfile.WriteFile(dangling, outfile.Through, []byte("created")); err != nil || read(t, filepath.Join(sub, "later.md")) != "created" || !isLink(dangling) {
		t.Fatalf("a link to nothing: %v", err)
	}
	if got := outfile.Target(chain); got != results {
		t.Errorf("Target(chain) = %s, want %s", got, results)
	}
	if got := outfile.Target(results); got != results {
		t.Errorf("Target of a plain file = %s", got)
	}
	if _, err := outfile.WriteFile(link, outfile.Replace, []byte("replaced")); err != nil || isLink(link) || read(t, results) != "new 1" {
		t.Fatalf("Replace: %v, link still a link: %v, results.md %q", err, isLink(link), read(t, results))
	}
	for _, d := range []string{dir, sub} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("temporary file %s left in %s", e.Name(), d)
			}
		}
	}
}
