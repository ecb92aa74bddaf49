// Package headroom holds the repository's own checks: the layers of the
// packages (deps_test.go) and the references of the sources and docs
// (refs_test.go). It has no code of its own.
package headroom

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outsideRef matches a reference a clone cannot follow: the design folder
// the contract came from, or a path on the machine it was written on.
// The contract is docs/model.md; sources cite it as docs/model.md §N.
var outsideRef = regexp.MustCompile(`\.\./shared\b|\bshared/design\b|\bdesign/estimator\.md\b|/work/(?:shared|notes|main)\b`)

// bareSection matches a citation of the contract by number alone,
// "section 8" (also across a comment's line break), which a reader of the
// repository cannot place: the contract is cited as docs/model.md §N. A
// longer number (the HTML standard's "section 13.2.5") is another
// document's.
var bareSection = regexp.MustCompile(`(?m)\b[Ss]ection(?: |\n[ \t]*(?://[ \t]*)?)(?:1[0-4]|[1-9])(?:\.\d+)?\.?(?:[^.\d]|$)`)

// mdLink matches the target of a Markdown link or image: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^()\s]+)\)`)

// sourceFiles lists the repository's .go and .md files, slash-separated
// and relative to the root, leaving out what the build makes or fetches
// (bin, node_modules, dot folders). third_party is another project's and
// keeps its own references.
func sourceFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(name, ".") || name == "bin" || name == "node_modules" || name == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".md") {
			files = append(files, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestNoReferenceOutsideRepository: no source or doc names a path a clone
// does not have, and every relative Markdown link resolves to a file or
// folder inside the repository.
func TestNoReferenceOutsideRepository(t *testing.T) {
	files := sourceFiles(t)
	checkedGo, checkedMd, links := 0, 0, 0
	for _, f := range files {
		b, err := os.ReadFile(filepath.FromSlash(f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "refs_test.go" {
			continue // the patterns above name what they look for
		}
		if strings.HasSuffix(f, ".go") {
			checkedGo++
		} else {
			checkedMd++
		}
		for _, m := range bareSection.FindAllIndex(b, -1) {
			line := 1 + strings.Count(string(b[:m[0]]), "\n")
			t.Errorf("%s:%d: %q cites the contract by number alone; write docs/model.md §N", f, line, strings.TrimSpace(string(b[m[0]:m[1]])))
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := outsideRef.FindString(line); m != "" {
				t.Errorf("%s:%d: %q refers outside the repository (cite docs/model.md §N): %s", f, i+1, m, strings.TrimSpace(line))
			}
			if !strings.HasSuffix(f, ".md") {
				continue
			}
			for _, sm := range mdLink.FindAllStringSubmatch(line, -1) {
				target := sm[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				links++
				target, _, _ = strings.Cut(target, "#")
				resolved := path.Join(path.Dir(f), target)
				if resolved == ".." || strings.HasPrefix(resolved, "../") || path.IsAbs(target) {
					t.Errorf("%s:%d: link %q leaves the repository", f, i+1, sm[1])
					continue
				}
				if _, err := os.Stat(filepath.FromSlash(resolved)); err != nil {
					t.Errorf("%s:%d: link %q: %v", f, i+1, sm[1], err)
				}
			}
		}
	}
	// Guard against a walk that found nothing (a moved root, a wrong
	// filter): the repository has the contract, the estimator and links.
	if checkedGo < 100 || checkedMd < 3 || links < 3 {
		t.Errorf("checked %d .go and %d .md files, %d links: the walk missed the repository", checkedGo, checkedMd, links)
	}
}

// TestOutsideRefPattern: the pattern catches the forms the old comments
// used and lets the contract's own citation through.
func TestOutsideRefPattern(t *testing.T) {
	for _, bad := range []string{
		"// The model is the one specified in shared/design/estimator.md.",
		"see ../shared/design/presets.md",
		"// the reference figures of design/estimator.md section 7",
		"(/work/shared/design/estimator.md)",
	} {
		if !outsideRef.MatchString(bad) {
			t.Errorf("not caught: %q", bad)
		}
	}
	for _, bad := range []string{"// the admission ladder of section 4.", "(section\n\t// 12)", "Section 11: a baseline", "section 13.4"} {
		if !bareSection.MatchString(bad) {
			t.Errorf("a bare section not caught: %q", bad)
		}
	}
	for _, good := range []string{"the HTML standard's tokenizer (section 13.2.5)", "docs/model.md §4", "sections of the page"} {
		if bareSection.MatchString(good) {
			t.Errorf("caught, but it is not the contract's: %q", good)
		}
	}
	for _, good := range []string{
		"// decide runs the admission ladder of docs/model.md §4",
		"// shared expert width, read by the resident count",
		"a design question, not a shortcut",
	} {
		if outsideRef.MatchString(good) {
			t.Errorf("caught, but it stays inside: %q", good)
		}
	}
}
