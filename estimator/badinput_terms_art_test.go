package estimator

import (
	"strings"
	"testing"
)

// TestBadTermInputsArt: docs/model.md §8's bad-input rows under the art
// profile (§13.13). A row about the JSON's shape, a name or a revision
// reads as under the seeds; a row about the expression names the place
// too ("terms[0] (x): place head: ..."); the unknown variable lists art's
// variables; a place art lacks says so; and "head" is not one of art's
// alternatives, so a stage may take that name there.
func TestBadTermInputsArt(t *testing.T) {
	artVars := strings.Join(ArtTermVariables(), ", ")
	override := map[string]string{
		"unknown variable":     "terms[0] (router_fp32): place head: unknown variable \"Q\"; known: " + artVars,
		"name used twice":      "terms[1] (copy): place \"fc2\": profile art has no such part of its price; places under art: " + strings.Join(ArtTermPlaces, ", "),
		"stage named head":     "",
		"stage named retained": "terms[0] (retained): a term with place stage cannot be named \"retained\", the name of a stage of ART's price; choose another name",
		"unknown place":        "terms[0] (x): place \"heads\": profile art has no such part of its price; places under art: " + strings.Join(ArtTermPlaces, ", "),
	}
	expression := []string{"power", "remainder", "shift", "comparison", "other call", "float", "string", "division by zero",
		"ceil by zero", "division of a negative", "negative result", "overflow", "more than 256 bytes", "empty bytes", "syntax error"}
	for _, tt := range badTermInputs {
		t.Run(tt.name, func(t *testing.T) {
			want, ok := override[tt.name]
			if !ok {
				want = tt.msg
				for _, e := range expression {
					if e == tt.name {
						head, rest, _ := strings.Cut(tt.msg, ": ")
						want = head + ": place head: " + rest
					}
				}
			}
			js := strings.Replace(tt.json, `{"terms":`, `{"profile": "art", "terms":`, 1)
			_, err := DecodeConfig([]byte(js))
			if want == "" {
				if err != nil {
					t.Fatalf("valid under art, got %v", err)
				}
				return
			}
			if err == nil || err.Error() != want {
				t.Fatalf("decoder: %v\nwant     %s", err, want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("more than one line")
			}
		})
	}
}
