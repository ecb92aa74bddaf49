package measure

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestImports: measure imports the standard library, the estimator and
// gopickle only (doc.go), checked with go list -deps.
func TestImports(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if p, err := exec.LookPath("go"); err == nil {
		goTool = p
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	allowed := map[string]bool{"headroom/measure": true, "headroom/estimator": true,
		"github.com/nlpodyssey/gopickle/pickle": true, "github.com/nlpodyssey/gopickle/types": true}
	for _, line := range strings.Fields(string(out)) {
		if !allowed[line] {
			t.Errorf("measure depends on %s (doc.go allows the standard library, the estimator and gopickle)", line)
		}
	}
}

// TestCanonicalStrings: strings are escaped as Python's json.dumps does
// with ensure_ascii (the expected text is Python 3.11's output).
func TestCanonicalStrings(t *testing.T) {
	v := &jsonValue{kind: jObject, obj: map[string]*jsonValue{"k": {kind: jString, str: "é😀\x7f\"\\\n\t/<"}}}
	got, err := canonical(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"k":"\u00e9\ud83d\ude00\u007f\"\\\n\t/<"}` + "\n"; string(got) != want {
		t.Errorf("got %s want %s", got, want)
	}
}
