package cli

import (
	"strings"
	"testing"
)

// TestEstimateConfigRepeatedKey: estimate -config refuses a key given
// twice, naming it, where it once took the last silently.
func TestEstimateConfigRepeatedKey(t *testing.T) {
	code, out, errOut := runCmd(t, `{"request": {"rows": 5000, "rows": 9000}}`, "estimate", "-config", "-")
	if code != 2 || out != "" || !strings.Contains(errOut, `has the key "rows" twice`) {
		t.Errorf("exit %d, stdout %.80q, stderr %q", code, out, errOut)
	}
}
