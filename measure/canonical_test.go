package measure

import (
	"testing"
)

// TestCanonicalStrings: strings are escaped as Python's json.dumps does
// with ensure_ascii (the expected text is Python 3.11's output).
func TestCanonicalStrings(t *testing.T) {
	t.Parallel()
	v := &jsonValue{kind: jObject, obj: map[string]*jsonValue{"k": {kind: jString, str: "é😀\x7f\"\\\n\t/<"}}}
	got, err := canonical(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"k":"\u00e9\ud83d\ude00\u007f\"\\\n\t/<"}` + "\n"; string(got) != want {
		t.Errorf("got %s want %s", got, want)
	}
}
