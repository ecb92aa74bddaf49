package page

import (
	"net/url"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestParseObserved: pasted lines with units, separators and labels.
func TestParseObserved(t *testing.T) {
	cases := []struct {
		name, text string
		want       []estimator.ObservedPoint
	}{
		{"comma and GiB", "64902, 88.271 GiB, cold forward", []estimator.ObservedPoint{{Rows: 64902, PeakBytes: 94780264546, Label: "cold forward"}}},
		{"spaces, bytes, no label", "33706 88240000000", []estimator.ObservedPoint{{Rows: 33706, PeakBytes: 88240000000}}},
		{"spaces with a unit word", "33706 82.182 GiB warm child", []estimator.ObservedPoint{{Rows: 33706, PeakBytes: 88242250580, Label: "warm child"}}},
		{"grouped rows, label with commas", "64,902, 80 GB, cold: whole forward, 64,902 rows", []estimator.ObservedPoint{{Rows: 64902, PeakBytes: 80e9, Label: "cold: whole forward, 64,902 rows"}}},
		{"bare commas", "64902,94780217856,cold", []estimator.ObservedPoint{{Rows: 64902, PeakBytes: 94780217856, Label: "cold"}}},
		{"tabs", "64k\t1.5TiB\ta label", []estimator.ObservedPoint{{Rows: 64000, PeakBytes: 1649267441664, Label: "a label"}}},
		{"blank and comment lines", "# rows, peak\n\n10 100\r\n\n20 200 late\n", []estimator.ObservedPoint{{Rows: 10, PeakBytes: 100}, {Rows: 20, PeakBytes: 200, Label: "late"}}},
		{"CSV with quotes", "rows,peak_bytes,label\n64902,94780217856,\"cold, whole\"\n33706,82.182 GiB,\n", []estimator.ObservedPoint{{Rows: 64902, PeakBytes: 94780217856, Label: "cold, whole"}, {Rows: 33706, PeakBytes: 88242250580}}},
		{"quoted label in a line", `5, 9, "  spaced ""q"" "`, []estimator.ObservedPoint{{Rows: 5, PeakBytes: 9, Label: `  spaced "q" `}}},
		{"empty", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := ParseObserved(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("point %d: got %+v, want %+v", i, got[i], tc.want[i])
				}
			}
			// What the box shows reads back as the same points.
			back, _, err := ParseObserved(FormatObserved(got))
			if err != nil || len(back) != len(got) {
				t.Fatalf("FormatObserved %q read back as %+v, %v", FormatObserved(got), back, err)
			}
			for i := range back {
				if back[i] != got[i] {
					t.Errorf("formatted point %d read back as %+v, want %+v", i, back[i], got[i])
				}
			}
		})
	}
}

// TestParseObservedErrors: a line that does not parse is named by its
// line number, with the reason.
func TestParseObservedErrors(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"fraction of a byte", "10 100\n\n20, 1.5 B, x", []string{"line 3", "peak", "whole number"}},
		{"rows not a number", "abc 100", []string{"line 1", "rows"}},
		{"one field", "10 100\n64902", []string{"line 2", "needs rows and a peak"}},
		{"two bad lines", "x 1\n1 y", []string{"line 1", "line 2"}},
		{"CSV too many fields", "rows,peak_bytes,label\n1,2,a,b", []string{"line 2", "4 fields"}},
		{"CSV bad peak", "rows,peak_bytes,label\n1,2\n3,zz,c", []string{"line 3", "peak"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pts, _, err := ParseObserved(tc.text)
			if err == nil {
				t.Fatalf("no error, points %+v", pts)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if pts != nil {
				t.Errorf("points %+v returned with the error", pts)
			}
		})
	}
}

// TestSetObservedKeepsText: out-of-range points are refused naming the
// line and point; the text stays and the config keeps its points; a good
// text replaces them.
func TestSetObservedKeepsText(t *testing.T) {
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
	if estimator.MarshalConfigString(back.Cfg) != estimator.MarshalConfigString(s.Cfg) || len(back.Errs) != 0 {
		t.Errorf("restored %+v, errors %v", back.Cfg.Observed, back.Errs)
	}
	if back.ObservedText() != FormatObserved(s.Cfg.Observed) {
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
