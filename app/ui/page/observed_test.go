package page

import (
	"net/url"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestSetObservedKeepsText: out-of-range points are refused naming the
// line and point; the text stays and the config keeps its points; a good
// text replaces them.
func TestSetObservedKeepsText(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("z", 65)
	var many strings.Builder
	for i := range 65 {
		many.WriteString(estimator.Group(int64(i+1)) + " 1000\n")
	}
	cases := []struct {
		name, text string
		want       []string
	}{
		{"rows zero", "5 100\n0 100", []string{"line 2 (point 2) rows", "1..2,147,483,647"}},
		{"peak too large", "5 2PiB", []string{"line 1 (point 1) peak_bytes"}},
		{"label too long", "5 100 " + long, []string{"line 1 (point 1) label", "at most 64 bytes"}},
		{"more than 64", many.String(), []string{"observed", "at most 64 points, got 65"}},
		{"does not parse", "5 100\n6 six", []string{"line 2"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			s.SetObserved("7, 1 GiB, kept")
			if len(s.Cfg.Observed) != 1 || s.Errs[KeyObserved] != "" {
				t.Fatalf("good text: %+v %q", s.Cfg.Observed, s.Errs[KeyObserved])
			}
			s.SetObserved(tc.text)
			s.Validate()
			for _, w := range tc.want {
				if !strings.Contains(s.Errs[KeyObserved], w) {
					t.Errorf("message %q does not say %q", s.Errs[KeyObserved], w)
				}
			}
			if s.ObservedText() != tc.text {
				t.Errorf("the box shows %q, want the text as typed", s.ObservedText())
			}
			if len(s.Cfg.Observed) != 1 || s.Cfg.Observed[0].Label != "kept" {
				t.Errorf("points %+v, want the last good ones", s.Cfg.Observed)
			}
			// The text in error is in the link, and a reload shows it again.
			q := s.Query(nil)
			if q.Get(KeyObserved) != tc.text {
				t.Errorf("link keeps %q", q.Get(KeyObserved))
			}
			back := Decode(q, nil)
			if back.ObservedText() != tc.text || back.Errs[KeyObserved] != s.Errs[KeyObserved] || len(back.Cfg.Observed) != 1 {
				t.Errorf("reloaded: text %q, message %q, points %+v", back.ObservedText(), back.Errs[KeyObserved], back.Cfg.Observed)
			}
		})
	}
}

// TestObservedURLRoundTrip: the points are in the link, compact, and a
// fresh page restores them; a link without points is as it was.
func TestObservedURLRoundTrip(t *testing.T) {
	t.Parallel()
	s := New()
	before := s.Query(nil).Encode()
	s.SetObserved("64902, 94780217856, cold: whole forward, 64,902 rows\n33706 82.182 GiB warm")
	s.Validate()
	if s.Errs[KeyObserved] != "" {
		t.Fatal(s.Errs[KeyObserved])
	}
	q := s.Query(nil)
	want := "obs=64902~94780217856~cold%3A+whole+forward%2C+64%2C902+rows&obs=33706~88242250580~warm"
	if got := q.Encode(); got != want {
		t.Errorf("link %q, want %q", got, want)
	}
	parsed, _ := url.ParseQuery(q.Encode())
	back := Decode(parsed, nil)
	if string(estimator.MarshalConfig(back.Cfg)) != string(estimator.MarshalConfig(s.Cfg)) || len(back.Errs) != 0 {
		t.Errorf("restored %+v, errors %v", back.Cfg.Observed, back.Errs)
	}
	if back.ObservedText() != estimator.FormatObserved(s.Cfg.Observed) {
		t.Errorf("box %q", back.ObservedText())
	}
	if before != "" {
		t.Errorf("default page's link %q", before)
	}
	// A bad point of a hand-edited link is marked in the panel, the rest kept.
	bad := Decode(url.Values{"obs": {"5~100~ok", "0~100"}, "rows": {"1000"}}, nil)
	if len(bad.Cfg.Observed) != 1 || bad.Cfg.Request.Rows != 1000 || !strings.Contains(bad.Errs[KeyObserved], "observed[1].rows") {
		t.Errorf("points %+v, rows %d, message %q", bad.Cfg.Observed, bad.Cfg.Request.Rows, bad.Errs[KeyObserved])
	}
}

// TestObservedLinkFlood: a link with thousands of bad obs values (issue
// 28: 5,000 "obs=~" took the server 5.6 s and answered 1.13 MB) gets one
// message naming the first few and counting the rest, in proportion to
// nothing but that count.
func TestObservedLinkFlood(t *testing.T) {
	t.Parallel()
	vals := make([]string, 5000)
	for i := range vals {
		vals[i] = "~"
	}
	vals[4000] = "5~100~kept"
	s := Decode(url.Values{"obs": vals}, nil)
	msg := s.Errs[KeyObserved]
	if len(s.Cfg.Observed) != 1 {
		t.Errorf("kept %d points, want the one good one", len(s.Cfg.Observed))
	}
	for _, want := range []string{"observed[0].rows", "observed[0].peak_bytes", "observed[1].rows",
		"and 9,995 more errors", "4,999 of the link's points were left out"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q: %q", want, msg)
		}
	}
	if strings.Contains(msg, "observed[1].peak_bytes") || len(msg) > 500 {
		t.Errorf("message of %d bytes names more than the first three errors: %q", len(msg), msg)
	}
	one := Decode(url.Values{"obs": {"5~100~ok", "0~100"}}, nil)
	if got := one.Errs[KeyObserved]; !strings.HasSuffix(got, "; it was left out") || strings.Count(got, "the link's point") != 1 {
		t.Errorf("one bad point: %q", got)
	}
}
