package estimator

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestStandardLibraryOnly: estimator imports only the standard library
// and its own internal packages (which go list -deps follows), checked with go list -deps as the Makefile would.
func TestStandardLibraryOnly(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if p, err := exec.LookPath("go"); err == nil {
		goTool = p
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	self := false
	for _, line := range strings.Fields(string(out)) {
		if strings.HasPrefix(line, "headroom/estimator/internal/") {
			continue // the estimator's own parts, under the same rule
		}
		if line == "headroom/estimator" {
			self = true
			continue
		}
		t.Errorf("estimator depends on %s, which is not in the standard library", line)
	}
	if !self {
		t.Errorf("go list did not list the package itself; output %q", out)
	}
}
