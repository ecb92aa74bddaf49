package ui

import (
	"strings"

	"headroom/app/chart"
	"headroom/estimator"
)

// segment is a stretch [from, to] of the axis with one decision.
type segment struct {
	from, to int64
	d        estimator.Decision
	msg      string // why the config is invalid there
}

// segments cuts [from, to] at the flips. first is the decision at from.
func segments(from, to int64, first estimator.Decision, firstMsg string, flips []estimator.Flip) []segment {
	out := []segment{{from: from, d: first, msg: firstMsg}}
	for _, f := range flips {
		out[len(out)-1].to = f.Last
		out = append(out, segment{from: f.First, d: f.ToDecision})
		if f.ToDecision == estimator.Invalid {
			out[len(out)-1].msg = f.Message
		}
	}
	out[len(out)-1].to = to
	return out
}

// revisionSegments are revision rev's segments of a sweep.
func revisionSegments(in chart.Input, rev estimator.Revision) []segment {
	flips := in.Baseline
	if rev == estimator.CandidateRev {
		flips = in.Candidate
	}
	first, msg := estimator.Invalid, ""
	if len(flips) > 0 {
		first = flips[0].FromDecision
		if first == estimator.Invalid {
			msg = flips[0].Message
		}
	} else if len(in.Points) > 0 {
		if p := in.Points[0]; p.Error != "" {
			msg = p.Error
		} else {
			first = p.Rev[rev].Decision
		}
	}
	return segments(in.From, in.To, first, msg, flips)
}

// axisText writes values of the swept axis in the sentences.
type axisText struct {
	key string // the axis: a field key
	seq int64  // sequence_rows, to count rows in sequences beside them
}

// rich reports whether a value of the axis is written with its unit in
// full, each time (estimator.Field.FormatValue): bytes with GiB beside
// them, the request's rows with the sequences they make.
func (a axisText) rich() bool {
	f, ok := estimator.FieldByKey(a.key)
	return ok && (f.Unit() == estimator.ByteUnit || a.key == "rows" || a.key == "projected_rows" || a.key == "target_rows")
}

// value writes x in full: "150,754,820,096 bytes (140.402 GiB)",
// "64,902 rows (15.845 sequences)".
func (a axisText) value(x int64) string {
	f, _ := estimator.FieldByKey(a.key)
	var c estimator.Config
	c.Request.SequenceRows = a.seq
	return f.FormatValue(x, &c)
}

// unit is the unit a value of the axis is read in, or "" when the value
// is better named by the axis ("vocab_size 41,233").
func (a axisText) unit() string {
	switch a.key {
	case "sequence_rows":
		return "rows per sequence"
	case "chunk_rows":
		return "chunk rows"
	}
	return ""
}

// amount writes x for the first mention along the axis: "41,233 rows (10.066
// sequences)", "vocab_size 41,233".
func (a axisText) amount(x int64) string {
	if a.rich() {
		return a.value(x)
	}
	if u := a.unit(); u != "" {
		return estimator.Group(x) + " " + u
	}
	return a.key + " " + estimator.Group(x)
}

// later writes x for a later mention: in full on a rich axis, else the
// number alone.
func (a axisText) later(x int64) string {
	if a.rich() {
		return a.value(x)
	}
	return estimator.Group(x)
}

// span writes a stretch of the axis: "between 41,234 and 52,100 chunk
// rows", "between hidden_size 6 and 10", and on a rich axis each end in
// full.
func (a axisText) span(before string, x int64, join string, y int64) string {
	if a.rich() {
		return before + a.value(x) + join + a.value(y)
	}
	if u := a.unit(); u != "" {
		return before + estimator.Group(x) + join + estimator.Group(y) + " " + u
	}
	return before + a.key + " " + estimator.Group(x) + join + estimator.Group(y)
}

var verbs = map[estimator.Decision][2]string{ // present, past
	estimator.Admit:   {"admits", "admitted"},
	estimator.Split:   {"splits", "split"},
	estimator.Refuse:  {"refuses", "refused"},
	estimator.Invalid: {"is invalid", "was invalid"},
}

// describeFlips says where one revision's decision changes along the
// axis: "admits up to 41,233 rows, splits up to 288,000, refuses beyond".
func describeFlips(axis axisText, segs []segment) string {
	if len(segs) == 1 {
		s := segs[0]
		text := verbs[s.d][0] + " over the whole range, " + axis.span("", s.from, " to ", s.to)
		if s.msg != "" {
			text += " (" + s.msg + ")"
		}
		return text
	}
	parts := make([]string, len(segs))
	for i, s := range segs {
		switch {
		case i == len(segs)-1:
			parts[i] = verbs[s.d][0] + " beyond"
		case i == 0:
			parts[i] = verbs[s.d][0] + " up to " + axis.amount(s.to)
		default:
			parts[i] = verbs[s.d][0] + " up to " + axis.later(s.to)
		}
		if s.msg != "" {
			parts[i] += " (" + s.msg + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// describeChangeNamed says, in one sentence, where the candidate decides
// otherwise than the baseline, the revisions named as n: "between 41,234
// and 52,100 rows the candidate splits where the baseline admitted"
// (defaultNames), or "between 227,374 and 403,170 rows H200 admits where
// H100 80GB split" when two setups are compared.
func describeChangeNamed(axis axisText, base, cand []segment, n revNames) string {
	type band struct {
		from, to int64
		b, c     estimator.Decision
	}
	var bands []band
	i, j := 0, 0
	for i < len(base) && j < len(cand) {
		lo := max(base[i].from, cand[j].from)
		hi := min(base[i].to, cand[j].to)
		if b, c := base[i].d, cand[j].d; b != c && lo <= hi {
			if n := len(bands); n > 0 && bands[n-1].to+1 == lo && bands[n-1].b == b && bands[n-1].c == c {
				bands[n-1].to = hi
			} else {
				bands = append(bands, band{lo, hi, b, c})
			}
		}
		if base[i].to < cand[j].to {
			i++
		} else {
			j++
		}
	}
	if len(bands) == 0 {
		return n.phrase(1) + " decides as " + n.phrase(0) + " over the whole range, " +
			axis.span("", base[0].from, " to ", base[len(base)-1].to)
	}
	parts := make([]string, len(bands))
	for k, b := range bands {
		where := axis.span("between ", b.from, " and ", b.to)
		if b.from == b.to {
			where = "at " + axis.amount(b.from)
		}
		parts[k] = where + " " + n.phrase(1) + " " + verbs[b.c][0] + " where " + n.phrase(0) + " " + verbs[b.b][1]
	}
	return strings.Join(parts, "; ")
}

// flipNotes are the sentences the decision panel shows about a sweep
// (the chart's sweep cache keeps them with it: describeSweep is its
// Describe).
type flipNotes struct {
	Baseline, Candidate, Change string
}

// describeSweep writes the panel's sentences about a sweep.
// sequenceRows counts the rows of the rows axes in sequences.
func describeSweep(in chart.Input, sequenceRows int64) flipNotes {
	axis := axisText{key: in.Axis.Key, seq: sequenceRows}
	base, cand := revisionSegments(in, 0), revisionSegments(in, 1)
	return flipNotes{
		Baseline:  describeFlips(axis, base),
		Candidate: describeFlips(axis, cand),
		Change:    describeChangeNamed(axis, base, cand, namesOf(in)),
	}
}

// namesOf are the revisions' names a sweep carries (chart.Input.Names),
// "baseline" and "candidate" when it carries none.
func namesOf(in chart.Input) revNames {
	if in.Names[0] == "" || in.Names[1] == "" {
		return defaultNames
	}
	return revNames{Base: in.Names[0], Cand: in.Names[1], Setups: true}
}
