package cli

import (
	"encoding/json"
	"headroom/estimator"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recipeTable is the README's table of ART's two open changes: per
// recipe, the first row that splits and the first that refuses under
// ART's code and the seeds' reading, each without and with the change,
// as the sweep command gives them.
func recipeTable(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, recipe := range []struct{ name, file string }{
		{"row state", "recipe-row-state"},
		{"input gradient", "recipe-input-gradient"},
	} {
		var first [2][4]string // split, refuse x (art base, art cand, seeds base, seeds cand)
		for pi, profile := range []string{"art", "seeds"} {
			code, out, errOut := runCmd(t, "", "sweep", "-config", examplePath(recipe.file+"-"+profile+".json"),
				"-axis", "rows", "-from", "1", "-to", "2000000")
			if code != 0 {
				t.Fatalf("%s %s: exit %d, %s", recipe.file, profile, code, errOut)
			}
			var sw estimator.SweepResult
			if err := json.Unmarshal([]byte(out), &sw); err != nil {
				t.Fatal(err)
			}
			for ri, flips := range []estimator.Flips{sw.Baseline, sw.Candidate} {
				for _, f := range flips.Flips {
					switch f.ToDecision {
					case estimator.Split:
						first[0][2*pi+ri] = estimator.Group(f.First)
					case estimator.Refuse:
						if first[1][2*pi+ri] == "" {
							first[1][2*pi+ri] = estimator.Group(f.First)
						}
					}
				}
			}
		}
		for i, what := range []string{"starts to split", "starts to refuse"} {
			b.WriteString("| " + recipe.name + ": " + what + " | " + strings.Join(first[i][:], " | ") + " |\n")
		}
	}
	return b.String()
}

// TestReadmeRecipeFigures: the README's figures of the two recipes are
// the commands' own.
func TestReadmeRecipeFigures(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	table := recipeTable(t)
	if !strings.Contains(string(readme), table) {
		t.Errorf("README.md lacks the recipes' table:\n%s", table)
	}
	for _, c := range []struct{ file, key, rev, want string }{
		{"recipe-input-gradient-art.json", "required_bytes", "baseline", "49,426,185,204"},
		{"recipe-input-gradient-art.json", "required_bytes", "candidate", "35,682,329,997"},
	} {
		_, out, _ := runCmd(t, "", "estimate", "-config", examplePath(c.file))
		var res estimator.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		o := res.Baseline
		if c.rev == "candidate" {
			o = res.Candidate
		}
		got := estimator.Group(int64(o.RequiredBytes))
		if got != c.want || !strings.Contains(string(readme), c.want) {
			t.Errorf("%s %s: %s, the README says %s", c.file, c.rev, got, c.want)
		}
	}
	if !strings.Contains(string(readme), "ART charges 12,760,252,416 bytes of\nboundary gradients") {
		t.Error("README.md lacks B at 64,902 rows")
	}
}
