package urlquery

import (
	"headroom/estimator"
	"net/url"
	"strings"
	"testing"
)

// TestQueryObservedRoundTrip: points, labels with "~", spaces, commas,
// non-ASCII or none, come back from a link as they were, in their order.
func TestQueryObservedRoundTrip(t *testing.T) {
	t.Parallel()
	c := estimator.Default()
	c.Observed = []estimator.ObservedPoint{
		{Rows: 64902, PeakBytes: 94780217856, Label: "cold: whole forward, 64,902 rows (88.271 GiB)"},
		{Rows: 33706, PeakBytes: 88242250580},
		{Rows: 1, PeakBytes: estimator.MaxObservedPeakBytes, Label: "a~b~c ünïcode & = ?"},
		{Rows: estimator.MaxObservedRows, PeakBytes: 1, Label: strings.Repeat("x", estimator.MaxObservedLabel)},
	}
	q := Encode(c)
	if got := q[ObservedKey]; len(got) != 4 || got[1] != "33706~88242250580" {
		t.Fatalf("obs values %q", got)
	}
	back, errs := Decode(q)
	if len(errs) > 0 {
		t.Fatalf("errors %v for %s", errs, q.Encode())
	}
	if string(estimator.MarshalConfig(back)) != string(estimator.MarshalConfig(c)) {
		t.Errorf("round trip through %s:\n%s\nwant\n%s", q.Encode(), estimator.MarshalConfig(back), estimator.MarshalConfig(c))
	}
	// Through the address bar's text too.
	parsed, err := url.ParseQuery(q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if back, _ := Decode(parsed); string(estimator.MarshalConfig(back)) != string(estimator.MarshalConfig(c)) {
		t.Errorf("round trip through the encoded text %s", q.Encode())
	}
}

// TestQueryObservedLinksUnchanged: a config without points writes no obs
// key, so today's links are what they were.
func TestQueryObservedLinksUnchanged(t *testing.T) {
	t.Parallel()
	c := estimator.Default()
	c.Request.Rows = 100000
	if got := Encode(c).Encode(); got != "rows=100000" {
		t.Errorf("encoded %q", got)
	}
	c.Observed = []estimator.ObservedPoint{}
	if got := Encode(c).Encode(); got != "rows=100000" {
		t.Errorf("with an empty list, encoded %q", got)
	}
}

// TestQueryObservedBad: a bad point is reported by its place in the link
// and left out; the others and the rest of the config are kept.
func TestQueryObservedBad(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("y", estimator.MaxObservedLabel+1)
	cases := []struct {
		name, value, field string
	}{
		{"no separator", "64902", "observed[1]"},
		{"rows not a number", "64k~100", "observed[1].rows"},
		{"peak not a number", "10~1.5", "observed[1].peak_bytes"},
		{"rows zero", "0~100", "observed[1].rows"},
		{"rows too many", "2147483648~100", "observed[1].rows"},
		{"peak too large", "10~1125899906842625", "observed[1].peak_bytes"},
		{"peak negative", "10~-1", "observed[1].peak_bytes"},
		{"label too long", "10~100~" + long, "observed[1].label"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := url.Values{"rows": {"1000"}, ObservedKey: {"5~500~good", tc.value, "7~700"}}
			c, errs := Decode(q)
			if len(errs) != 1 || errs[0].Field != tc.field {
				t.Fatalf("errors %v, want one on %s", errs, tc.field)
			}
			if c.Request.Rows != 1000 || len(c.Observed) != 2 || c.Observed[0].Label != "good" || c.Observed[1].Rows != 7 {
				t.Errorf("kept rows %d, points %+v", c.Request.Rows, c.Observed)
			}
		})
	}
	t.Run("more than 64", func(t *testing.T) {
		var vals []string
		for i := range estimator.MaxObserved + 3 {
			vals = append(vals, strings.Repeat("1", 1+i%3)+"~100")
		}
		c, errs := Decode(url.Values{ObservedKey: vals})
		if len(errs) != 1 || errs[0].Field != "observed" || !strings.Contains(errs[0].Message, "at most 64") {
			t.Fatalf("errors %v", errs)
		}
		if len(c.Observed) != estimator.MaxObserved {
			t.Errorf("kept %d points, want %d", len(c.Observed), estimator.MaxObserved)
		}
	})
}
