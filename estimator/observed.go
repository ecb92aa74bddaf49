package estimator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Limits of the observed points (docs/model.md §12).
const (
	MaxObserved          = 64
	MaxObservedRows      = 1<<31 - 1
	MaxObservedPeakBytes = 1 << 50
	MaxObservedLabel     = 64 // bytes of UTF-8
)

// ObservedPoint is one measured peak: one forward of one piece of Rows
// rows (for a split request, the child's rows) reached PeakBytes allocated,
// counting what was already in use. Label says which run it was.
type ObservedPoint struct {
	Rows      int64  `json:"rows"`
	PeakBytes int64  `json:"peak_bytes"`
	Label     string `json:"label"`
}

// ObservedResult is one point of a result: the point and what each
// revision predicts for it.
type ObservedResult struct {
	Rows      int64      `json:"rows"`
	PeakBytes Bytes      `json:"peak_bytes"`
	Label     string     `json:"label"`
	Baseline  Prediction `json:"baseline"`
	Candidate Prediction `json:"candidate"`
}

// Prediction is one revision's predicted peak for a point, and the
// measurement less it (positive: the revision predicted too little).
type Prediction struct {
	PredictedBytes Bytes `json:"predicted_bytes"`
	ResidualBytes  Bytes `json:"residual_bytes"`
}

// Fit is the least-squares correction of each revision.
type Fit struct {
	Baseline  RevisionFit `json:"baseline"`
	Candidate RevisionFit `json:"candidate"`
}

// RevisionFit is the line residual ~ static + per_row x rows fitted to one
// revision's residuals, each coefficient rounded to the nearest integer
// (halves away from zero), and the largest error in percent of the
// measured peak before and after subtracting that line.
//
// The percents are float64: each is the float64 nearest the exact rational
// |residual| x 100 / peak_bytes of the point where that rational is
// largest (the maximum is taken exactly; one rounding in all, so a
// relative error below 2^-53). JSON writes them as encoding/json does:
// the shortest decimal that reads back as the same float64, in exponent
// form below 1e-6 (3.2, 16.98234512345678, 0, 5e-7).
type RevisionFit struct {
	StaticBytes        Bytes   `json:"static_bytes"`
	PerRowBytes        Bytes   `json:"per_row_bytes"`
	ErrorPercentBefore float64 `json:"error_percent_before"`
	ErrorPercentAfter  float64 `json:"error_percent_after"`
}

// ObservedField names a field of point i as errors do,
// "observed[3].peak_bytes" (key "" names the point, "observed[3]").
func ObservedField(i int, key string) string {
	if key == "" {
		return "observed[" + strconv.Itoa(i) + "]"
	}
	return "observed[" + strconv.Itoa(i) + "]." + key
}

// CheckObserved validates the points' ranges, naming each bad one by
// ObservedField; Resolve calls it, so a Config built in Go is checked as
// a decoded one is.
func CheckObserved(points []ObservedPoint) ErrorList {
	var errs ErrorList
	if len(points) > MaxObserved {
		return ErrorList{{Field: "observed", Message: "must hold at most " + Group(MaxObserved) + " points, got " + Group(int64(len(points)))}}
	}
	for i, p := range points {
		if p.Rows < 1 || p.Rows > MaxObservedRows {
			errs = append(errs, &Error{Field: ObservedField(i, "rows"), Message: intAllowed(1, MaxObservedRows) + ", got " + Group(p.Rows)})
		}
		if p.PeakBytes < 1 || p.PeakBytes > MaxObservedPeakBytes {
			errs = append(errs, &Error{Field: ObservedField(i, "peak_bytes"), Message: intAllowed(1, MaxObservedPeakBytes) + ", got " + Group(p.PeakBytes)})
		}
		if len(p.Label) > MaxObservedLabel {
			errs = append(errs, &Error{Field: ObservedField(i, "label"), Message: "must be at most " + Group(MaxObservedLabel) + " bytes, got " + Group(int64(len(p.Label)))})
		}
	}
	return errs
}

func intAllowed(lo, hi int64) string { return "must be an integer in " + Group(lo) + ".." + Group(hi) }

// observedKeys are the keys of a point object, sorted.
var observedKeys = []string{"label", "peak_bytes", "rows"}

// decodeObserved reads the "observed" array strictly: each point an object
// with the keys rows and peak_bytes (required, JSON integers) and label
// (optional, a JSON string; "" when omitted). null reads as no points.
// Ranges are left to CheckObserved.
func decodeObserved(raw json.RawMessage, errs *ErrorList) []ObservedPoint {
	objs, ok := objectList(raw, "observed", `points {"rows": n, "peak_bytes": B, "label": "..."}`, MaxObserved, "points", ObservedField, errs)
	if !ok {
		return nil
	}
	points := make([]ObservedPoint, len(objs))
	eachObjectKey(objs, []string{"rows", "peak_bytes"}, ObservedField, errs, func(i int, key string, v json.RawMessage) {
		switch key {
		case "rows":
			points[i].Rows = decodeInt(ObservedField(i, key), intAllowed(1, MaxObservedRows), v, errs)
		case "peak_bytes":
			points[i].PeakBytes = decodeInt(ObservedField(i, key), intAllowed(1, MaxObservedPeakBytes), v, errs)
		case "label":
			if err := json.Unmarshal(v, &points[i].Label); err != nil || bytes.TrimSpace(v)[0] != '"' {
				*errs = append(*errs, &Error{Field: ObservedField(i, key), Message: "must be a JSON string, got " + clip(string(bytes.TrimSpace(v)))})
			}
		default:
			field := ObservedField(i, key)
			if key == "" || !printable(key) {
				field = namedKey(ObservedField(i, ""), key)
			}
			*errs = append(*errs, &Error{Field: field, Message: "is not a field of an observed point; allowed here: " + strings.Join(observedKeys, ", ")})
		}
	})
	return points
}

// decodeInt reads a JSON integer as decodeValue does an integer field.
func decodeInt(field, allowed string, raw json.RawMessage, errs *ErrorList) int64 {
	s := string(bytes.TrimSpace(raw))
	if s == "" || !(s[0] == '-' || isDigit(s[0])) {
		*errs = append(*errs, &Error{Field: field, Message: allowed + ", got " + clip(s)})
		return 0
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		*errs = append(*errs, &Error{Field: field, Message: numberProblem(s) + "; " + allowed + ", got " + clip(s)})
		return 0
	}
	return v
}

// revisionPricer prices the pieces of one revision: the evaluator of that
// revision's resolved config and the variant it runs. Every prediction of
// docs/model.md §12 goes through it, so the piece code is the one the decisions
// use (terms included, once they are priced in assemble).
type revisionPricer struct {
	e *evaluator
	v variant
}

// revisionPricers returns the baseline's and the candidate's pricers, in
// the order of Point.Rev. Without a baseline of its own both price the
// candidate's config (the baseline with the changes off); with one, each
// revision prices its own resolved config, its own in_use_bytes included.
func (rv *Revisions) revisionPricers() [2]revisionPricer {
	if !rv.Own {
		e := newEvaluator(&rv.Rev[1])
		return [2]revisionPricer{{e, rv.variant(0)}, {e, rv.variant(1)}}
	}
	return [2]revisionPricer{
		{newEvaluator(&rv.Rev[0]), rv.variant(0)},
		{newEvaluator(&rv.Rev[1]), rv.variant(1)},
	}
}

const whatPredicted = "budget.in_use_bytes + retained + ephemeral bytes of the piece"

// predictPeak is the peak that one forward of a piece of n rows of the
// revision's config is predicted to reach: in_use_bytes + retained(n) +
// ephemeral(n), with p and t from the config's N, P and T, and no safety
// and no reserve. The in-use bytes are the revision's own.
func (rp revisionPricer) predictPeak(n int64) (int64, error) {
	e := rp.e
	var peak int64
	if e.r.Art {
		peak = e.artPredict(n, rp.v)
	} else {
		pc := e.price(n, rp.v)
		peak = e.c.add(e.r.InUse, pc.retained, whatPredicted)
		peak = e.c.add(peak, pc.ephemeral, whatPredicted)
	}
	if e.c.err != nil {
		// Price the next piece afresh: forget the error and the pieces
		// sized with it, whose bytes mean nothing.
		err := e.c.err
		e.c.err = nil
		for i := range e.memo {
			e.memo[i].n = 0
		}
		e.art.reset()
		return 0, err
	}
	return peak, nil
}

// Predictor predicts docs/model.md §12's peaks of both revisions for pieces of
// any number of rows: what the chart draws as the predicted-peak lines.
type Predictor struct {
	revs [2]revisionPricer
}

// NewPredictor validates c and returns its predictor.
func NewPredictor(c Config) (*Predictor, error) {
	rv, err := c.ResolveRevisions()
	if err != nil {
		return nil, err
	}
	return &Predictor{revs: rv.revisionPricers()}, nil
}

// Peaks returns the predicted peak of a piece of n rows (1..2^31-1) for
// the baseline and the candidate.
func (p *Predictor) Peaks(n int64) (peaks [2]int64, err error) {
	if n < 1 || n > MaxObservedRows {
		return peaks, &Error{Field: "rows", Message: intAllowed(1, MaxObservedRows) + ", got " + Group(n)}
	}
	for i := range p.revs {
		if peaks[i], err = p.revs[i].predictPeak(n); err != nil {
			return [2]int64{}, err
		}
	}
	return peaks, nil
}

// observe predicts every point for both revisions and fits each
// revision's residuals. An overflow names the point.
func (rv *Revisions) observe(points []ObservedPoint) ([]ObservedResult, *Fit, error) {
	revs := rv.revisionPricers()
	out := make([]ObservedResult, len(points))
	var rows, peaks []int64
	var residuals [2][]int64
	for i, pt := range points {
		out[i] = ObservedResult{Rows: pt.Rows, PeakBytes: Bytes(pt.PeakBytes), Label: pt.Label}
		for k, rev := range revs {
			pred, err := rev.predictPeak(pt.Rows)
			if e, ok := err.(*Error); ok {
				err = revisionError(e, Revision(k), rv.Own) // a baseline of its own is named
			}
			if err != nil {
				return nil, nil, &Error{Field: ObservedField(i, "rows"), Message: fmt.Sprintf("a piece of %s rows: %v", Group(pt.Rows), err)}
			}
			// peak <= 2^50 and pred >= 0: the difference fits in int64.
			p := Prediction{PredictedBytes: Bytes(pred), ResidualBytes: Bytes(pt.PeakBytes - pred)}
			if k == 0 {
				out[i].Baseline = p
			} else {
				out[i].Candidate = p
			}
			residuals[k] = append(residuals[k], pt.PeakBytes-pred)
		}
		rows, peaks = append(rows, pt.Rows), append(peaks, pt.PeakBytes)
	}
	var fit Fit
	for k, name := range [2]string{"baseline", "candidate"} {
		f, err := fitResiduals(rows, residuals[k], peaks)
		if err != nil {
			return nil, nil, &Error{Field: "fit." + name, Message: err.Error()}
		}
		if k == 0 {
			fit.Baseline = f
		} else {
			fit.Candidate = f
		}
	}
	return out, &fit, nil
}
