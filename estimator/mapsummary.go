package estimator

import (
	"strconv"
	"strings"
)

// Segment is a range of y, both ends included, with one decision.
type Segment struct {
	From, To int64
	Decision Decision
}

// AppendSegments appends the revision's decisions along y over [from, to]
// as segments, in increasing y: Start up to the first flip's Last, then
// each flip's ToDecision from its First.
func (r *MapRevision) AppendSegments(dst []Segment, from, to int64) []Segment {
	d, y := r.Start, from
	for _, f := range r.Flips {
		dst = append(dst, Segment{From: y, To: f.Last, Decision: d})
		d, y = f.ToDecision, f.First
	}
	return append(dst, Segment{From: y, To: to, Decision: d})
}

// Difference is a range of y, both ends included, where the revisions
// decide differently.
type Difference struct {
	From, To            int64
	Baseline, Candidate Decision
}

// AppendDifferences appends the ranges of y over [from, to] where the
// column's revisions decide differently, adjacent ranges of the same pair
// of decisions merged, in increasing y.
func (c *MapColumn) AppendDifferences(dst []Difference, from, to int64) []Difference {
	var buf [2][16]Segment
	a := c.Baseline.AppendSegments(buf[0][:0], from, to)
	b := c.Candidate.AppendSegments(buf[1][:0], from, to)
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].From, b[j].From), min(a[i].To, b[j].To)
		if lo <= hi && a[i].Decision != b[j].Decision {
			n := len(dst)
			if n > 0 && dst[n-1].To == lo-1 && dst[n-1].Baseline == a[i].Decision && dst[n-1].Candidate == b[j].Decision {
				dst[n-1].To = hi
			} else {
				dst = append(dst, Difference{From: lo, To: hi, Baseline: a[i].Decision, Candidate: b[j].Decision})
			}
		}
		if a[i].To < b[j].To {
			i++
		} else {
			j++
		}
	}
	return dst
}

// differing is the number of integers y in [from, to] where the column's
// revisions decide differently.
func (c *MapColumn) differing(from, to int64) float64 {
	var buf [16]Difference
	n := 0.0
	for _, d := range c.AppendDifferences(buf[:0], from, to) {
		n += float64(d.To-d.From) + 1
	}
	return n
}

// ColumnWidths returns how many integers x each column stands for: the
// integers of [x.From, x.To] nearest it, a tie going to the lower column.
// Column i stands for x from the end of column i-1's share up to
// floor((X(i) + X(i+1)) / 2); the widths add up to x.To - x.From + 1.
func (r *MapResult) ColumnWidths() []int64 {
	cols := r.Columns
	w := make([]int64, len(cols))
	lo := r.X.From
	for i := range cols {
		hi := r.X.To
		if i+1 < len(cols) {
			a, b := cols[i].X, cols[i+1].X
			hi = a + (b-a)/2
		}
		w[i] = hi - lo + 1
		lo = hi + 1
	}
	return w
}

// DifferFraction is the share of the plane where the candidate decides
// otherwise than the baseline: of the integer points (x, y) of
// [x.From, x.To] x [y.From, y.To], each x taking the decisions of the
// column nearest it (ColumnWidths), the fraction where the two revisions'
// decisions differ. So columns count in proportion to their spacing, and
// y in proportion to length, exact to the integer along y; points invalid
// for both revisions count as agreeing.
func (r *MapResult) DifferFraction() float64 {
	if len(r.Columns) == 0 {
		return 0
	}
	width := float64(r.X.To-r.X.From) + 1
	height := float64(r.Y.To-r.Y.From) + 1
	sum := 0.0
	for i, w := range r.ColumnWidths() {
		sum += float64(w) / width * (r.Columns[i].differing(r.Y.From, r.Y.To) / height)
	}
	return min(sum, 1)
}

// maxSummaryRanges is how many ranges of y the summary names.
const maxSummaryRanges = 3

// Summary is one sentence on where the candidate decides otherwise, for
// the page beside the map and the map's picture: the share of the plane
// (DifferFraction, with one decimal), then the ranges of y where it
// differs in one column: the column nearest current (the config's x)
// when it differs there, else the column that differs over the most y
// (the first on a tie). For example: "The candidate differs on 7.3 % of
// this plane: at rows 302,362 it splits where the baseline admits for
// in_use_bytes 52,316,487,680..61,388,963,839 bytes (48.723..57.173 GiB)."
func (r *MapResult) Summary(current int64) string {
	frac := r.DifferFraction()
	if frac == 0 {
		return "The candidate decides as the baseline everywhere on this plane."
	}
	best, most := -1, 0.0
	for i := range r.Columns {
		if n := r.Columns[i].differing(r.Y.From, r.Y.To); n > most {
			best, most = i, n
		}
	}
	if near := r.ColumnAt(current); near >= 0 && r.Columns[near].differing(r.Y.From, r.Y.To) > 0 {
		best = near
	}
	var b strings.Builder
	b.WriteString("The candidate differs on ")
	b.WriteString(percent(frac))
	b.WriteString(" of this plane: at ")
	b.WriteString(axisValueText(r.X.Axis, r.Columns[best].X))
	b.WriteString(" it ")
	diffs := r.Columns[best].AppendDifferences(nil, r.Y.From, r.Y.To)
	for i, d := range diffs {
		if i == maxSummaryRanges {
			b.WriteString(", and differs over " + strconv.Itoa(len(diffs)-i) + " more ranges")
			break
		}
		switch {
		case i == 0:
		case len(diffs) == 2:
			b.WriteString(", and ")
		case i == len(diffs)-1:
			b.WriteString("; and ")
		default:
			b.WriteString("; ")
		}
		b.WriteString(decisionVerb[d.Candidate] + " where the baseline " + decisionVerb[d.Baseline] + " for ")
		b.WriteString(rangeText(r.Y.Axis, d.From, d.To))
	}
	b.WriteString(".")
	return b.String()
}

// ColumnAt is the column whose share of x (ColumnWidths) holds x, or -1
// when x is outside the map: the column a pointer at x shows.
func (r *MapResult) ColumnAt(x int64) int {
	if x < r.X.From || x > r.X.To {
		return -1
	}
	lo := r.X.From
	for i, w := range r.ColumnWidths() {
		if x < lo+w {
			return i
		}
		lo += w
	}
	return -1
}

var decisionVerb = [...]string{Admit: "admits", Split: "splits", Refuse: "refuses", Invalid: "is invalid"}

// percent writes a fraction in (0, 1] as a percentage with one decimal,
// never rounding a difference away ("less than 0.1 %") or into the whole
// plane ("more than 99.9 %").
func percent(f float64) string {
	switch {
	case f < 0.001:
		return "less than 0.1 %"
	case f < 1 && f > 0.999:
		return "more than 99.9 %"
	}
	return strconv.FormatFloat(f*100, 'f', 1, 64) + " %"
}

// byteAxis reports whether an axis counts bytes, written in GiB beside the
// exact count.
func byteAxis(axis string) bool { return axis == "capacity_bytes" || axis == "in_use_bytes" }

func axisValueText(axis string, v int64) string {
	if byteAxis(axis) {
		return axis + " " + Group(v) + " bytes (" + Bytes(v).GiBString() + " GiB)"
	}
	return axis + " " + Group(v)
}

func rangeText(axis string, from, to int64) string {
	if from == to {
		return axisValueText(axis, from)
	}
	if byteAxis(axis) {
		return axis + " " + Group(from) + ".." + Group(to) + " bytes (" + Bytes(from).GiBString() + ".." + Bytes(to).GiBString() + " GiB)"
	}
	return axis + " " + Group(from) + ".." + Group(to)
}
