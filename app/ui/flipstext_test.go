package ui

import (
	"testing"

	"headroom/app/chart"
	"headroom/estimator"
)

func flip(from, to estimator.Decision, last int64) estimator.Flip {
	return estimator.Flip{FromDecision: from, ToDecision: to, Last: last, First: last + 1}
}

func TestDescribeFlips(t *testing.T) {
	const A, S, R, I = estimator.Admit, estimator.Split, estimator.Refuse, estimator.Invalid
	for _, tc := range []struct {
		axis  string
		first estimator.Decision
		flips []estimator.Flip
		want  string
	}{
		{"rows", A, []estimator.Flip{flip(A, S, 41233), flip(S, R, 288000)},
			"admits up to 41,233 rows (10.067 sequences), splits up to 288,000 rows (70.312 sequences), refuses up to the range's end, 1,000,000 rows (244.141 sequences)"},
		{"rows", A, nil, "admits over the whole range, 1 row (0.000 sequences) to 1,000,000 rows (244.141 sequences)"},
		{"vocab_size", S, []estimator.Flip{flip(S, R, 99999)}, "splits up to vocab_size 99,999, refuses up to the range's end, 1,000,000"},
		{"capacity_bytes", R, []estimator.Flip{flip(R, A, 80_000_000_000)}, "refuses up to 80,000,000,000 bytes (74.506 GiB), admits up to the range's end, 1,000,000 bytes (0.001 GiB)"},
		{"in_use_bytes", A, []estimator.Flip{{FromDecision: A, ToDecision: I, Last: 10, First: 11, Message: "too much"}},
			"admits up to 10 bytes (0.000 GiB), is invalid up to the range's end, 1,000,000 bytes (0.001 GiB) (too much)"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			segs := segments(1, 1_000_000, tc.first, "", tc.flips)
			if got := describeFlips(axisText{key: tc.axis, seq: 4096}, segs); got != tc.want {
				t.Errorf("describeFlips(%s, %v)\n got %q\nwant %q", tc.axis, tc.flips, got, tc.want)
			}
		})
	}
}

func TestDescribeChange(t *testing.T) {
	const A, S, R = estimator.Admit, estimator.Split, estimator.Refuse
	seg := func(flips ...estimator.Flip) []segment {
		first := A
		if len(flips) > 0 {
			first = flips[0].FromDecision
		}
		return segments(1, 1_000_000, first, "", flips)
	}
	for _, tc := range []struct {
		axis       string
		base, cand []segment
		want       string
	}{
		{"rows", seg(flip(A, S, 52100)), seg(flip(A, S, 41233)),
			"between 41,234 rows (10.067 sequences) and 52,100 rows (12.720 sequences) the candidate splits where the baseline admitted"},
		{"rows", seg(flip(A, S, 100), flip(S, R, 500)), seg(flip(A, S, 90), flip(S, R, 400)),
			"between 91 rows (0.022 sequences) and 100 rows (0.024 sequences) the candidate splits where the baseline admitted; between 401 rows (0.098 sequences) and 500 rows (0.122 sequences) the candidate refuses where the baseline split"},
		{"rows", seg(flip(A, S, 100)), seg(flip(A, S, 100)),
			"the candidate decides as the baseline over the whole range, 1 row (0.000 sequences) to 1,000,000 rows (244.141 sequences)"},
		{"vocab_size", seg(), seg(flip(A, S, 999_999)),
			"at vocab_size 1,000,000 the candidate splits where the baseline admitted"},
		{"chunk_rows", seg(flip(A, S, 10)), seg(flip(A, S, 20)),
			"between 11 and 20 chunk rows the candidate admits where the baseline split"},
		{"hidden_size", seg(flip(A, S, 10)), seg(flip(A, S, 5)),
			"between hidden_size 6 and 10 the candidate splits where the baseline admitted"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if got := describeChangeNamed(axisText{key: tc.axis, seq: 4096}, tc.base, tc.cand, defaultNames); got != tc.want {
				t.Errorf("describeChangeNamed\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestRevisionSegmentsFirstDecision(t *testing.T) {
	f, _ := estimator.FieldByKey("rows")
	in := chart.Input{Axis: f, From: 1, To: 10, Points: []estimator.Point{{X: 1, Error: "bad"}}}
	segs := revisionSegments(in, 0)
	if len(segs) != 1 || segs[0].d != estimator.Invalid || segs[0].msg != "bad" {
		t.Errorf("an invalid first point: %+v", segs)
	}
	in.Points[0].Error = ""
	in.Points[0].Rev[1].Decision = estimator.Refuse
	if segs := revisionSegments(in, 1); segs[0].d != estimator.Refuse {
		t.Errorf("first decision %v, want the first point's", segs[0].d)
	}
}
