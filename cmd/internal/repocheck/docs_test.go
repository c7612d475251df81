package repocheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	// mdLink is a markdown link or image: [text](target) or ![alt](target).
	mdLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	// codeSpan is a backquoted span on one line.
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	// lineSuffix is a ":line" or ":line:col" after a cited file.
	lineSuffix = regexp.MustCompile(`(:\d+)+$`)
)

// docFiles returns README.md and every markdown file under docs/, relative
// to the repository's root.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// topDirs are the repository's top-level entries: a backquoted span that
// starts with one of them and a "/" cites a repository path.
func topDirs(t *testing.T) map[string]bool {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			dirs[e.Name()] = true
		}
	}
	dirs[".ci"] = true
	return dirs
}

// citedPath returns the repository path a backquoted span cites, if it
// looks like one: a single word (no spaces) that starts with a top-level
// directory and a "/", or a markdown file name; placeholders (NAME, *, <,
// ...) and option values are not paths. outside reports a path that
// points out of the repository (../shared, shared/design).
func citedPath(span string, dirs map[string]bool) (p string, outside bool) {
	span = strings.TrimSpace(span)
	if span == "" || strings.ContainsAny(span, " \t*<>{}$=|,") || strings.Contains(span, "...") || strings.HasPrefix(span, "-") {
		return "", false
	}
	span = lineSuffix.ReplaceAllString(span, "")
	span = strings.TrimPrefix(span, "./")
	if strings.HasPrefix(span, "../shared") || strings.HasPrefix(span, "shared/") {
		return span, true
	}
	first, _, slash := strings.Cut(span, "/")
	if slash && dirs[first] {
		for _, seg := range strings.Split(span, "/") {
			if seg != "" && strings.ToUpper(seg) == seg && strings.ContainsAny(seg, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && !strings.Contains(seg, ".") {
				return "", false // a placeholder: algorithms/NAME/testdata
			}
		}
		return strings.TrimSuffix(span, "/"), false
	}
	if !slash && strings.HasSuffix(span, ".md") && strings.ToUpper(span) != span {
		return span, false
	}
	return "", false
}

// Every relative link of README.md and docs/**/*.md, and every repository
// path they cite in backquotes, exists; none points outside the
// repository.
func TestDocLinks(t *testing.T) {
	dirs := topDirs(t)
	files := docFiles(t)
	if len(files) < 5 {
		t.Fatalf("found only %v; is the root right?", files)
	}
	for _, f := range files {
		text, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(f)
		for _, m := range mdLink.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			p := filepath.Clean(filepath.Join(dir, target))
			if strings.HasPrefix(p, "..") {
				t.Errorf("%s: link %s points outside the repository", f, m[1])
				continue
			}
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				t.Errorf("%s: link %s: %s does not exist", f, m[1], p)
			}
		}
		for _, m := range codeSpan.FindAllStringSubmatch(string(text), -1) {
			p, outside := citedPath(m[1], dirs)
			switch {
			case outside:
				t.Errorf("%s: `%s` is outside the repository (users have only the repository)", f, m[1])
			case p == "":
			case strings.Contains(p, "/"):
				if _, err := os.Stat(filepath.Join(root, p)); err != nil {
					t.Errorf("%s: `%s` is not a path of the repository", f, m[1])
				}
			default: // a markdown file name: beside the file, or at the root
				_, err1 := os.Stat(filepath.Join(root, dir, p))
				_, err2 := os.Stat(filepath.Join(root, p))
				if err1 != nil && err2 != nil {
					t.Errorf("%s: `%s` is neither beside it nor at the repository's root", f, m[1])
				}
			}
		}
	}
}

// The path heuristics: what counts as a cited path, and what does not.
func TestCitedPath(t *testing.T) {
	dirs := map[string]bool{"algorithms": true, "docs": true, "model": true}
	for _, c := range []struct {
		span, want string
		outside    bool
	}{
		{"algorithms/crosscheck_test.go", "algorithms/crosscheck_test.go", false},
		{"model/protocol/local.go:120", "model/protocol/local.go", false},
		{"docs/notes/", "docs/notes", false},
		{"style.md", "style.md", false},
		{"../shared/seeds/003.txt", "../shared/seeds/003.txt", true},
		{"shared/design/notes.md", "shared/design/notes.md", true},
		{"algorithms/NAME/testdata", "", false},
		{"go test ./...", "", false},
		{"--trace-out", "", false},
		{"suzuki-kasami/keep-copy", "", false},
		{"ALGO.PROPERTY.trace.json", "", false},
		{"README.md", "README.md", false},
	} {
		p, outside := citedPath(c.span, dirs)
		if p != c.want || outside != c.outside {
			t.Errorf("citedPath(%q) = %q, %v; want %q, %v", c.span, p, outside, c.want, c.outside)
		}
	}
}
