package ui

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"headroom/app/chart"
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
			s := newPageState()
			s.setObserved("7, 1 GiB, kept")
			if len(s.cfg.Observed) != 1 || s.errs[keyObserved] != "" {
				t.Fatalf("good text: %+v %q", s.cfg.Observed, s.errs[keyObserved])
			}
			s.setObserved(tc.text)
			s.validate()
			for _, w := range tc.want {
				if !strings.Contains(s.errs[keyObserved], w) {
					t.Errorf("message %q does not say %q", s.errs[keyObserved], w)
				}
			}
			if s.observedText() != tc.text {
				t.Errorf("the box shows %q, want the text as typed", s.observedText())
			}
			if len(s.cfg.Observed) != 1 || s.cfg.Observed[0].Label != "kept" {
				t.Errorf("points %+v, want the last good ones", s.cfg.Observed)
			}
			// The text in error is in the link, and a reload shows it again.
			q := s.query(nil)
			if q.Get(keyObserved) != tc.text {
				t.Errorf("link keeps %q", q.Get(keyObserved))
			}
			back := decodePage(q, nil)
			if back.observedText() != tc.text || back.errs[keyObserved] != s.errs[keyObserved] || len(back.cfg.Observed) != 1 {
				t.Errorf("reloaded: text %q, message %q, points %+v", back.observedText(), back.errs[keyObserved], back.cfg.Observed)
			}
		})
	}
}

// TestObservedURLRoundTrip: the points are in the link, compact, and a
// fresh page restores them; a link without points is as it was.
func TestObservedURLRoundTrip(t *testing.T) {
	s := newPageState()
	before := s.query(nil).Encode()
	s.setObserved("64902, 94780217856, cold: whole forward, 64,902 rows\n33706 82.182 GiB warm")
	s.validate()
	if s.errs[keyObserved] != "" {
		t.Fatal(s.errs[keyObserved])
	}
	q := s.query(nil)
	want := "obs=64902~94780217856~cold%3A+whole+forward%2C+64%2C902+rows&obs=33706~88242250580~warm"
	if got := q.Encode(); got != want {
		t.Errorf("link %q, want %q", got, want)
	}
	parsed, _ := url.ParseQuery(q.Encode())
	back := decodePage(parsed, nil)
	if estimator.MarshalConfigString(back.cfg) != estimator.MarshalConfigString(s.cfg) || len(back.errs) != 0 {
		t.Errorf("restored %+v, errors %v", back.cfg.Observed, back.errs)
	}
	if back.observedText() != FormatObserved(s.cfg.Observed) {
		t.Errorf("box %q", back.observedText())
	}
	if before != "" {
		t.Errorf("default page's link %q", before)
	}
	// A bad point of a hand-edited link is marked in the panel, the rest kept.
	bad := decodePage(url.Values{"obs": {"5~100~ok", "0~100"}, "rows": {"1000"}}, nil)
	if len(bad.cfg.Observed) != 1 || bad.cfg.Request.Rows != 1000 || !strings.Contains(bad.errs[keyObserved], "observed[1].rows") {
		t.Errorf("points %+v, rows %d, message %q", bad.cfg.Observed, bad.cfg.Request.Rows, bad.errs[keyObserved])
	}
}

// TestObservedViewWarningAndSentence: the table is the estimate's, a peak
// below in_use_bytes is kept with a warning beside it, and the sentence
// carries the fit's numbers.
func TestObservedViewWarningAndSentence(t *testing.T) {
	s := newPageState()
	s.cfg.Budget.InUseBytes = 40 << 30
	s.setObserved("64902, 94780217856, cold\n1000, 30 GiB, below")
	s.validate()
	if !s.valid || s.errs[keyObserved] != "" {
		t.Fatalf("errors %v", s.errs)
	}
	sh := shownState{ready: true, result: s.result, config: s.cfg}
	v := observedViewOf(&s, &sh, "rows")
	res, err := estimator.Estimate(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Rows) != 2 {
		t.Fatalf("rows %+v", v.Rows)
	}
	for i, r := range v.Rows {
		o := res.Observed[i]
		if r.Predicted != [2]int64{int64(o.Baseline.PredictedBytes), int64(o.Candidate.PredictedBytes)} ||
			r.Residual != [2]int64{int64(o.Baseline.ResidualBytes), int64(o.Candidate.ResidualBytes)} {
			t.Errorf("row %d %+v, estimate %+v", i, r, o)
		}
	}
	if v.Rows[0].Warning != "" || !strings.Contains(v.Rows[1].Warning, "below the memory in use (in_use_bytes 42,949,672,960 bytes)") {
		t.Errorf("warnings %q, %q", v.Rows[0].Warning, v.Rows[1].Warning)
	}
	if v.Summary != ObservedSentence(res.Fit, 2) || !strings.HasPrefix(v.Summary, "The candidate is within ") {
		t.Errorf("sentence %q", v.Summary)
	}
}

// TestObservedSentence: the sentence from hand-written fits.
func TestObservedSentence(t *testing.T) {
	cases := []struct {
		name   string
		fit    estimator.Fit
		points int
		want   string
	}{
		{"the spec's example", estimator.Fit{
			Baseline:  estimator.RevisionFit{ErrorPercentBefore: 17.24, ErrorPercentAfter: 2.0},
			Candidate: estimator.RevisionFit{ErrorPercentBefore: 3.06, ErrorPercentAfter: 0.4}}, 4,
			"The candidate is within 3.1 % of the measurements, the baseline within 17.2 %; after a fitted static and per-row correction, 0.4 % and 2.0 %."},
		{"two points, tiny error", estimator.Fit{
			Baseline:  estimator.RevisionFit{ErrorPercentBefore: 5, ErrorPercentAfter: 0},
			Candidate: estimator.RevisionFit{ErrorPercentBefore: 0.01, ErrorPercentAfter: 1e-9}}, 2,
			"The candidate is within 0.1 % of the measurements, the baseline within 5.0 %; after a fitted static and per-row correction, < 0.1 % and 0.0 %. Two points fit exactly (unless their rows are equal) and prove nothing on their own."},
		{"one point", estimator.Fit{}, 1,
			"The candidate is within 0.0 % of the measurements, the baseline within 0.0 %; after a fitted static and per-row correction, 0.0 % and 0.0 %. One point fits exactly and proves nothing on its own."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ObservedSentence(&tc.fit, tc.points); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
	if ObservedSentence(nil, 0) != "" {
		t.Error("a sentence without points")
	}
}

// TestObservedExportImport: the JSON export carries the points (config
// and result), and importing it restores them.
func TestObservedExportImport(t *testing.T) {
	s := newPageState()
	s.setObserved("64902, 94780217856, cold\n33706, 82.182 GiB, warm")
	s.validate()
	data, err := exportJSON(s.cfg, PageView{Axis: s.axis, From: s.from, To: s.to}, chart.Input{})
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Config struct {
			Observed []estimator.ObservedPoint `json:"observed"`
		} `json:"config"`
		Result struct {
			Observed []json.RawMessage `json:"observed"`
			Fit      *estimator.Fit    `json:"fit"`
		} `json:"result"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Config.Observed) != 2 || f.Config.Observed[1].PeakBytes != 88242250580 || len(f.Result.Observed) != 2 || f.Result.Fit == nil {
		t.Fatalf("export %s", data)
	}
	imp, err := ImportJSON(estimator.Default(), data)
	if err != nil {
		t.Fatal(err)
	}
	fresh := newPageState()
	next, err := fresh.withImport(imp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if estimator.MarshalConfigString(next.cfg) != estimator.MarshalConfigString(s.cfg) {
		t.Errorf("imported points %+v, want %+v", next.cfg.Observed, s.cfg.Observed)
	}
}

// TestBelowInUse: the warning names the in-use bytes the peak is below,
// each revision's when a baseline of its own has other in-use bytes.
func TestBelowInUse(t *testing.T) {
	cases := []struct {
		name  string
		peak  int64
		inUse [2]int64
		want  string
	}{
		{"above", 100, [2]int64{50, 50}, ""},
		{"equal is not below", 50, [2]int64{50, 50}, ""},
		{"below both, same", 10, [2]int64{50, 50}, "below the memory in use (in_use_bytes 50 bytes)"},
		{"below both, own baseline", 10, [2]int64{60, 50}, "below the memory in use (in_use_bytes 60 bytes for the baseline, 50 bytes for the candidate)"},
		{"below the baseline's only", 55, [2]int64{60, 50}, "below the baseline's memory in use (in_use_bytes 60 bytes)"},
		{"below the candidate's only", 55, [2]int64{50, 1000}, "below the candidate's memory in use (in_use_bytes 1,000 bytes)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := belowInUse(tc.peak, tc.inUse); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
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
	s := decodePage(url.Values{"obs": vals}, nil)
	msg := s.errs[keyObserved]
	if len(s.cfg.Observed) != 1 {
		t.Errorf("kept %d points, want the one good one", len(s.cfg.Observed))
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
	one := decodePage(url.Values{"obs": {"5~100~ok", "0~100"}}, nil)
	if got := one.errs[keyObserved]; !strings.HasSuffix(got, "; it was left out") || strings.Count(got, "the link's point") != 1 {
		t.Errorf("one bad point: %q", got)
	}
}
