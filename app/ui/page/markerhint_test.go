package page

import (
	"net/url"
	"strings"
	"testing"
)

// TestMarkerHint: rows dragged past a typed range left the marker off the
// chart with no word; the page says where the value is and what brings
// it in, and says nothing when the marker is on the chart.
func TestMarkerHint(t *testing.T) {
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	s := Decode(url.Values{"from": {"1"}, "to": {"100000"}}, list)
	if h := s.MarkerHint(); h != "" {
		t.Errorf("rows %d inside 1..100,000: %q", s.Cfg.Request.Rows, h)
	}
	s.Apply(Edit{Kind: EditText, Key: "rows", Text: "150000"}, list)
	if h := s.MarkerHint(); h != "rows 150,000 is past the chart's end, 100,000, so its marker is off the chart; Fit range brings it in." {
		t.Errorf("rows 150,000: %q", h)
	}
	s.Apply(Edit{Kind: EditText, Key: KeyFrom, Text: "200000"}, list)
	s.Apply(Edit{Kind: EditText, Key: KeyTo, Text: "300000"}, list)
	if h := s.MarkerHint(); !strings.HasPrefix(h, "rows 150,000 is before the chart's start, 200,000") {
		t.Errorf("rows 150,000 in 200,000..300,000: %q", h)
	}
	s.Apply(Edit{Kind: EditFit}, list)
	if h := s.MarkerHint(); h != "" {
		t.Errorf("after Fit range: %q (range %d..%d)", h, s.From, s.To)
	}
}
