package page

import (
	"testing"
)

// TestApplyRoutes: an edit reaches its feature's reducer by the feature
// it says, not by its key: a field's key sent to the map view changes no
// field, and neither does a dismissal or a gesture's end.
func TestApplyRoutes(t *testing.T) {
	t.Parallel()
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	s := New()
	s.Apply(Edit{Kind: EditText, Key: "rows", Text: "1234"}, list)
	if s.Cfg.Request.Rows != 1234 || s.Text("rows") != "1234" {
		t.Fatalf("a field's edit: rows %d, text %q", s.Cfg.Request.Rows, s.Text("rows"))
	}
	before := s.Query(list).Encode()
	for _, e := range []Edit{
		{For: ForMap, Kind: EditText, Key: "rows", Text: "99"},
		{Kind: EditDismiss},
		{Kind: EditSettle, Key: "rows"},
	} {
		s.Apply(e, list)
		if got := s.Query(list).Encode(); got != before {
			t.Errorf("%v edit of %s: the address went from ?%s to ?%s", e.Kind, e.Key, before, got)
		}
	}
	s.Apply(Edit{For: ForCompare, Kind: EditMenu, Key: KeyComparePreset, Text: ComparisonGPU}, list)
	if s.Cfg.Baseline == nil {
		t.Error("the Compare control's edit left no baseline of the page's own")
	}
	s.Apply(Edit{For: ForTerms, Kind: EditTermAdd}, list)
	s.Apply(TermEdit("bytes", 0, "2 * D"), list)
	if len(s.Terms) != 1 || s.Terms[0].Typed.Bytes != "2 * D" {
		t.Errorf("a term's edit: terms %+v", s.Terms)
	}
	s.Apply(Edit{For: ForObserved, Kind: EditObserved, Text: "1000 80GiB"}, list)
	if len(s.Cfg.Observed) != 1 {
		t.Errorf("the observed panel's edit: %d points", len(s.Cfg.Observed))
	}
}

// TestEditKindString names every kind, and a kind out of range.
func TestEditKindString(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for k := EditText; k <= EditMapClick; k++ {
		n := k.String()
		if n == "" || seen[n] {
			t.Errorf("kind %d: name %q empty or taken", k, n)
		}
		seen[n] = true
	}
	if got := EditKind(200).String(); got != "edit kind 200" {
		t.Errorf("kind 200: %q", got)
	}
}
